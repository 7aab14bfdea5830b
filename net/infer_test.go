package net

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"kumalak/net/nettest"
)

// infTestParams returns randomly initialised parameters with non-zero
// biases, so that every term of the forward pass is exercised.
func infTestParams(c Config, seed uint64) *Params {
	rng := rand.New(rand.NewPCG(seed, 7))
	p := NewParams(c)
	p.Init(rng)
	for _, t := range p.Tensors {
		if len(t.Shape) == 1 {
			nettest.Normal(rng, t.Data, 0.1)
		}
	}
	return p
}

// refForward is the architecture of arch.go written out in float64, one row
// at a time, with no attempt at speed.
func refForward(p *Params, obs []float32) (logits []float64, value float64) {
	c := p.Config
	dense := func(x []float64, w, b string) []float64 {
		W, B := p.Get(w), p.Get(b)
		out := W.Shape[1]
		y := make([]float64, out)
		for j := range y {
			y[j] = float64(B.Data[j])
			for i, v := range x {
				y[j] += v * float64(W.Data[i*out+j])
			}
		}
		return y
	}
	relu := func(x []float64) []float64 {
		for i := range x {
			x[i] = math.Max(x[i], 0)
		}
		return x
	}
	x := make([]float64, len(obs))
	for i, v := range obs {
		x[i] = float64(v)
	}
	h := relu(dense(x, "in.w", "in.b"))
	for k := 0; k < c.Blocks; k++ {
		t := relu(dense(h, fmt.Sprintf("b%d.fc1.w", k), fmt.Sprintf("b%d.fc1.b", k)))
		u := dense(t, fmt.Sprintf("b%d.fc2.w", k), fmt.Sprintf("b%d.fc2.b", k))
		for i := range h {
			h[i] = math.Max(h[i]+u[i], 0)
		}
	}
	logits = dense(h, "policy.w", "policy.b")
	vh := relu(dense(h, "value.w1", "value.b1"))
	return logits, math.Tanh(dense(vh, "value.w2", "value.b2")[0])
}

var infTestConfigs = []Config{
	DefaultConfig(101, 9),
	{InputLen: 7, Actions: 40, Width: 33, Blocks: 0, ValueHidden: 5},
	{InputLen: 64, Actions: 1, Width: 17, Blocks: 3, ValueHidden: 20},
}

func TestInferMatchesReference(t *testing.T) {
	for ci, c := range infTestConfigs {
		p := infTestParams(c, uint64(ci))
		rng := rand.New(rand.NewPCG(uint64(ci), 1))
		const n = 20
		obs, mask := nettest.Inputs(c.InputLen, c.Actions, n, rng)
		f := NewInfer(p, n)
		logits := make([]float32, n*c.Actions)
		priors := make([]float32, n*c.Actions)
		values := make([]float32, n)
		values2 := make([]float32, n)
		f.Logits(obs, logits, values)
		f.Run(obs, mask, priors, values2)
		for r := 0; r < n; r++ {
			wantL, wantV := refForward(p, obs[r*c.InputLen:(r+1)*c.InputLen])
			if d := math.Abs(float64(values[r]) - wantV); d > 1e-5 || values[r] != values2[r] {
				t.Fatalf("config %d row %d: value %v / %v, want %v", ci, r, values[r], values2[r], wantV)
			}
			for a, z := range wantL {
				if d := math.Abs(float64(logits[r*c.Actions+a]) - z); d > 1e-4*math.Max(1, math.Abs(z)) {
					t.Fatalf("config %d row %d action %d: logit %v, want %v", ci, r, a, logits[r*c.Actions+a], z)
				}
			}
		}
	}
}

func TestInferMasking(t *testing.T) {
	c := DefaultConfig(30, 9)
	p := infTestParams(c, 3)
	// Large logits make the softmax sharp: illegal actions must still get 0.
	for i := range p.Get("policy.w").Data {
		p.Get("policy.w").Data[i] *= 100
	}
	rng := rand.New(rand.NewPCG(5, 5))
	const n = 64
	f := NewInfer(p, n)
	priors := make([]float32, n*c.Actions)
	values := make([]float32, n)
	for trial := 0; trial < 50; trial++ {
		obs, mask := nettest.Inputs(c.InputLen, c.Actions, n, rng)
		for a := range mask[:c.Actions] { // row 0: no legal action
			mask[a] = 0
		}
		f.Run(obs, mask, priors, values)
		for r := 0; r < n; r++ {
			var sum float64
			for a := 0; a < c.Actions; a++ {
				pr := priors[r*c.Actions+a]
				if mask[r*c.Actions+a] == 0 && pr != 0 {
					t.Fatalf("row %d: illegal action %d has prior %v", r, a, pr)
				}
				if pr < 0 || pr > 1 || math.IsNaN(float64(pr)) {
					t.Fatalf("row %d: prior %v out of [0,1]", r, pr)
				}
				sum += float64(pr)
			}
			switch {
			case r == 0 && sum != 0:
				t.Fatalf("row without legal actions: priors sum %v, want 0", sum)
			case r > 0 && math.Abs(sum-1) > 1e-5:
				t.Fatalf("row %d: priors sum %v", r, sum)
			}
			if v := values[r]; v < -1 || v > 1 {
				t.Fatalf("row %d: value %v", r, v)
			}
		}
	}
}

func TestInferBatchEqualsRows(t *testing.T) {
	for ci, c := range infTestConfigs {
		p := infTestParams(c, uint64(ci)+10)
		rng := rand.New(rand.NewPCG(uint64(ci), 2))
		const n = 37
		obs, mask := nettest.Inputs(c.InputLen, c.Actions, n, rng)
		f := NewInfer(p, n)
		priors := make([]float32, n*c.Actions)
		values := make([]float32, n)
		f.Run(obs, mask, priors, values)
		g := NewInfer(p, 1)
		pr := make([]float32, c.Actions)
		v := make([]float32, 1)
		for r := 0; r < n; r++ {
			g.Run(obs[r*c.InputLen:(r+1)*c.InputLen], mask[r*c.Actions:(r+1)*c.Actions], pr, v)
			if v[0] != values[r] {
				t.Fatalf("config %d row %d: value %v alone, %v in a batch", ci, r, v[0], values[r])
			}
			for a := range pr {
				if pr[a] != priors[r*c.Actions+a] {
					t.Fatalf("config %d row %d action %d: prior %v alone, %v in a batch",
						ci, r, a, pr[a], priors[r*c.Actions+a])
				}
			}
		}
	}
}

func TestInferSnapshot(t *testing.T) {
	c := DefaultConfig(12, 4)
	p := infTestParams(c, 1)
	obs, mask := nettest.Inputs(c.InputLen, c.Actions, 1, rand.New(rand.NewPCG(1, 1)))
	f := NewInfer(p, 1)
	before, after := make([]float32, c.Actions), make([]float32, c.Actions)
	v := make([]float32, 1)
	f.Run(obs, mask, before, v)
	for _, t := range p.Tensors {
		clear(t.Data)
	}
	f.Run(obs, mask, after, v)
	for a := range before {
		if before[a] != after[a] {
			t.Fatalf("Infer saw a change to the Params it was built from")
		}
	}
}

func TestInferAllocs(t *testing.T) {
	c := DefaultConfig(101, 9)
	p := infTestParams(c, 1)
	for _, n := range []int{1, 16, 64} {
		obs, mask := nettest.Inputs(c.InputLen, c.Actions, n, rand.New(rand.NewPCG(1, 1)))
		f := NewInfer(p, 64)
		priors, logits := make([]float32, n*c.Actions), make([]float32, n*c.Actions)
		values := make([]float32, n)
		if a := testing.AllocsPerRun(20, func() { f.Run(obs, mask, priors, values) }); a != 0 {
			t.Errorf("Run with %d rows: %v allocs, want 0", n, a)
		}
		if a := testing.AllocsPerRun(20, func() { f.Logits(obs, logits, values) }); a != 0 {
			t.Errorf("Logits with %d rows: %v allocs, want 0", n, a)
		}
	}
}

func TestInferPanicsOnMisuse(t *testing.T) {
	c := DefaultConfig(5, 3)
	f := NewInfer(NewParams(c), 2)
	cases := map[string]func(){
		"too many rows": func() { f.Run(make([]float32, 15), make([]float32, 9), make([]float32, 9), make([]float32, 3)) },
		"short obs":     func() { f.Run(make([]float32, 4), make([]float32, 3), make([]float32, 3), make([]float32, 1)) },
		"short priors":  func() { f.Run(make([]float32, 5), make([]float32, 3), make([]float32, 2), make([]float32, 1)) },
		"bad batch":     func() { NewInfer(NewParams(c), 0) },
		"bad config":    func() { NewInfer(NewParams(Config{InputLen: 1, Actions: 1}), 1) },
	}
	for name, fn := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			fn()
		})
	}
}
