package learn

import (
	"kumalak/net"
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"kumalak/data"
)

// trGradConfig turns on every loss term so that each gets checked.
func trGradConfig(batch int) Config {
	cfg := DefaultConfig()
	cfg.Batch, cfg.ValueWeight, cfg.ScoreWeight = batch, 1.3, 0.7
	return cfg
}

// trEvalGrads runs forward and backward on b without updating, returning the
// total loss and the gradient of every learnable tensor (the auxiliary
// score head last).
func trEvalGrads(t *testing.T, tr *Trainer, b *data.Batch) (float64, [][]float64) {
	t.Helper()
	loss := trEvalLoss(t, tr, b, func() {})
	var grads [][]float64
	trEvalLoss(t, tr, b, func() {
		for _, n := range tr.gr.learn {
			g, err := n.Grad()
			if err != nil {
				t.Fatal(err)
			}
			grads = append(grads, trFloat64s(g))
		}
	})
	return loss, grads
}

// trEvalLoss runs forward and backward on b, as Step does (every replica,
// their gradients reduced into the first's), calls during (while gradients
// are available), clears the gradients and returns the total loss.
func trEvalLoss(t *testing.T, tr *Trainer, b *data.Batch, during func()) float64 {
	t.Helper()
	if err := tr.load(rows{b.Obs, b.Mask, b.Policy, b.Value, b.Score, b.N}); err != nil {
		t.Fatal(err)
	}
	defer tr.reset()
	defer tr.zeroGrads()
	if err := tr.run(); err != nil {
		t.Fatal(err)
	}
	if err := tr.reduceGrads(); err != nil {
		t.Fatal(err)
	}
	during()
	return tr.losses().Total
}

// TestGradientsMatchFiniteDifferences checks every gradient of a tiny
// float64 graph against central differences of the loss.
func TestGradientsMatchFiniteDifferences(t *testing.T) {
	cfg := trGradConfig(6)
	rng := rand.New(rand.NewPCG(11, 11))
	b := trBatch(trTinyConfig, cfg.Batch, rng)
	b.Mask[2], b.Policy[2] = 0, 0.3 // target mass on an illegal action is dropped
	tr, err := newTrainer(trParams(trTinyConfig, 11), cfg, tensor.Float64)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	_, grads := trEvalGrads(t, tr, b)
	const h = 1e-6
	checked := 0
	for i, n := range tr.gr.learn {
		w := n.Value().Data().([]float64)
		for j := range w {
			orig := w[j]
			w[j] = orig + h
			up := trEvalLoss(t, tr, b, func() {})
			w[j] = orig - h
			down := trEvalLoss(t, tr, b, func() {})
			w[j] = orig
			num, got := (up-down)/(2*h), grads[i][j]
			if math.Abs(num-got) > 1e-6+1e-5*math.Abs(num) {
				t.Errorf("%s[%d]: gradient %.9g, finite difference %.9g", n.Name(), j, got, num)
			}
			checked++
		}
	}
	if want := net.NewParams(trTinyConfig).Count() + trTinyConfig.ValueHidden + 1; checked != want {
		t.Errorf("checked %d parameters, want %d", checked, want)
	}
}

// TestFloat32GradientsMatchFloat64 checks the production float32 graph
// against the float64 one on a larger net.
func TestFloat32GradientsMatchFloat64(t *testing.T) {
	c := net.Config{InputLen: 20, Actions: 7, Width: 32, Blocks: 2, ValueHidden: 8}
	cfg := trGradConfig(16)
	b := trBatch(c, cfg.Batch, rand.New(rand.NewPCG(12, 12)))
	p := trParams(c, 12)
	t64, err := newTrainer(p, cfg, tensor.Float64)
	if err != nil {
		t.Fatal(err)
	}
	defer t64.Close()
	t32 := trMust(t, p, cfg)
	l64, g64 := trEvalGrads(t, t64, b)
	l32, g32 := trEvalGrads(t, t32, b)
	if math.Abs(l64-l32) > 1e-5*math.Abs(l64) {
		t.Errorf("loss float32 %.8g, float64 %.8g", l32, l64)
	}
	for i := range g64 {
		scale := 0.0
		for _, g := range g64[i] {
			scale = math.Max(scale, math.Abs(g))
		}
		for j := range g64[i] {
			if d := math.Abs(g64[i][j] - g32[i][j]); d > 1e-4*scale+1e-7 {
				t.Errorf("%s[%d]: float32 %.7g, float64 %.7g", t64.gr.learn[i].Name(), j, g32[i][j], g64[i][j])
			}
		}
	}
}

// trFloat64s returns a copy of v's float32 or float64 data as trFloat64s.
func trFloat64s(v G.Value) []float64 {
	var out []float64
	switch d := v.Data().(type) {
	case []float32:
		for _, x := range d {
			out = append(out, float64(x))
		}
	case []float64:
		out = append(out, d...)
	}
	return out
}
