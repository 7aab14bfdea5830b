package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	"kumalak/net"
)

// TestAdamWUpdateMatchesFormula checks one tensor's update over a few steps
// against AdamW written out in float64.
func TestAdamWUpdateMatchesFormula(t *testing.T) {
	const n, lr, wd = 7, 3e-3, 0.1
	rng := rand.New(rand.NewPCG(1, 2))
	w := make([]float32, n)
	ref, m, v := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range w {
		w[i] = float32(rng.NormFloat64())
		ref[i] = float64(w[i])
	}
	s := &slot{m: make([]float32, n), v: make([]float32, n), decay: true}
	for step := 1; step <= 5; step++ {
		g := make([]float32, n)
		for i := range g {
			g[i] = float32(rng.NormFloat64())
		}
		c1, c2 := 1-math.Pow(adamBeta1, float64(step)), 1-math.Pow(adamBeta2, float64(step))
		for i := range ref {
			gi := float64(g[i])
			m[i] = adamBeta1*m[i] + (1-adamBeta1)*gi
			v[i] = adamBeta2*v[i] + (1-adamBeta2)*gi*gi
			ref[i] = ref[i]*(1-lr*wd) - lr*(m[i]/c1)/(math.Sqrt(v[i]/c2)+adamEps)
		}
		s.update(w, g, float32(1-lr*wd), float32(lr/c1), float32(1/math.Sqrt(c2)))
		for i := range w {
			if math.Abs(float64(w[i])-ref[i]) > 1e-6*(1+math.Abs(ref[i])) {
				t.Fatalf("step %d: w[%d] = %.9g, want %.9g", step, i, w[i], ref[i])
			}
			if g[i] != 0 {
				t.Fatalf("step %d: gradient not cleared", step)
			}
		}
	}
}

// The weight decay applies to the weight matrices (the score head's
// included) and never to a bias.
func TestWeightDecaySet(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Batch, cfg.ScoreWeight = 2, 1
	tr := trMust(t, trParams(trTinyConfig, 1), cfg)
	want := map[string]bool{"score.w": true, "score.b": false}
	for _, tn := range net.NewParams(trTinyConfig).Tensors {
		want[tn.Name] = len(tn.Shape) == 2
	}
	if len(tr.opt.slots) != len(want) {
		t.Fatalf("%d optimizer slots, want %d", len(tr.opt.slots), len(want))
	}
	for _, s := range tr.opt.slots {
		if d, ok := want[s.name]; !ok || d != s.decay {
			t.Errorf("%s: decayed %v, want %v (known %v)", s.name, s.decay, d, ok)
		}
	}
}

func TestOptimizerStepAllocatesNothing(t *testing.T) {
	c := net.Config{InputLen: 16, Actions: 6, Width: 32, Blocks: 1, ValueHidden: 8}
	cfg := DefaultConfig()
	cfg.Batch, cfg.ScoreWeight = 8, 1
	tr := trMust(t, trParams(c, 3), cfg)
	if _, err := tr.Step(trBatch(c, cfg.Batch, rand.New(rand.NewPCG(3, 3)))); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() {
		if err := tr.opt.step(1e-3, 0.01); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("optimizer step: %v allocations, want 0", allocs)
	}
}

// TestNoSubnormalWeights trains a network with dead units (first-layer
// biases far below zero) under a strong weight decay: their weights get no
// gradient and halve every step, so without the flush they would pass
// through the subnormal range (from about step 125 to 150, before
// underflowing to zero). No weight or moment may be below the threshold
// after any step.
func TestNoSubnormalWeights(t *testing.T) {
	c := net.Config{InputLen: 8, Actions: 4, Width: 16, Blocks: 1, ValueHidden: 4}
	cfg := DefaultConfig()
	cfg.Batch, cfg.LR, cfg.MinLR, cfg.Schedule, cfg.WarmupSteps, cfg.WeightDecay = 16, 0.05, 0, ScheduleConstant, 0, 10
	p := trParams(c, 4)
	b0 := p.Tensors[1].Data
	for j := 0; j < len(b0); j += 2 {
		b0[j] = -1e4
	}
	tr := trMust(t, p, cfg)
	rng := rand.New(rand.NewPCG(4, 4))
	tiny := func(x float32) bool { return x != 0 && math.Abs(float64(x)) < net.FlushThreshold }
	zeros := 0
	for step := 0; step < 200; step++ {
		if _, err := tr.Step(trBatch(c, cfg.Batch, rng)); err != nil {
			t.Fatal(err)
		}
		zeros = 0
		for _, n := range tr.gr.learn {
			for j, x := range float32s(n.Value()) {
				if tiny(x) {
					t.Fatalf("step %d: %s[%d] = %g, below %g", step, n.Name(), j, x, net.FlushThreshold)
				}
				if x == 0 {
					zeros++
				}
			}
		}
		for _, s := range tr.opt.slots {
			for _, xs := range [][]float32{s.m, s.v} {
				for j, x := range xs {
					if tiny(x) {
						t.Fatalf("step %d: %s moment [%d] = %g", step, s.name, j, x)
					}
				}
			}
		}
	}
	// The dead units' input weights (half of the first layer) decayed to 0:
	// the decay did reach the range the flush guards.
	if want := c.InputLen * c.Width / 2; zeros < want {
		t.Errorf("%d weights are zero, want at least the %d dead inputs", zeros, want)
	}
}
