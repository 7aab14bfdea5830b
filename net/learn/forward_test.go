package learn

import (
	"fmt"
	"kumalak/net"
	"kumalak/net/nettest"
	"math"
	"math/rand/v2"
	"testing"
)

// trReferenceForward evaluates net's architecture (net/arch.go) for one row in float64,
// straight from its definition.
func trReferenceForward(p *net.Params, obs, mask []float32) (priors []float64, value float64) {
	c := p.Config
	dense := func(x []float64, w, b string, relu bool) []float64 {
		wt, bt := p.Get(w), p.Get(b)
		out := make([]float64, wt.Shape[1])
		for j := range out {
			s := float64(bt.Data[j])
			for i, xi := range x {
				s += xi * float64(wt.Data[i*wt.Shape[1]+j])
			}
			if relu {
				s = math.Max(s, 0)
			}
			out[j] = s
		}
		return out
	}
	x := make([]float64, len(obs))
	for i, o := range obs {
		x[i] = float64(o)
	}
	h := dense(x, "in.w", "in.b", true)
	for k := 0; k < c.Blocks; k++ {
		pre := fmt.Sprintf("b%d.", k)
		r := dense(dense(h, pre+"fc1.w", pre+"fc1.b", true), pre+"fc2.w", pre+"fc2.b", false)
		for i := range h {
			h[i] = math.Max(h[i]+r[i], 0)
		}
	}
	logits := dense(h, "policy.w", "policy.b", false)
	priors = make([]float64, c.Actions)
	maxL, sum := math.Inf(-1), 0.0
	for a, l := range logits {
		if mask[a] != 0 {
			maxL = math.Max(maxL, l)
		}
	}
	for a, l := range logits {
		if mask[a] != 0 {
			priors[a] = math.Exp(l - maxL)
			sum += priors[a]
		}
	}
	for a := range priors {
		priors[a] /= sum
	}
	value = math.Tanh(dense(dense(h, "value.w1", "value.b1", true), "value.w2", "value.b2", false)[0])
	return priors, value
}

// trForwardCase returns a trained-looking network (biases non-zero) and n
// random rows with at least one legal action each.
func trForwardCase(c net.Config, n int, seed uint64) (p *net.Params, obs, mask []float32) {
	rng := rand.New(rand.NewPCG(seed, 3))
	p = trParams(c, seed)
	for _, t := range p.Tensors {
		if len(t.Shape) == 1 {
			nettest.Normal(rng, t.Data, 0.1)
		}
	}
	b := trBatch(c, n, rng)
	return p, b.Obs, b.Mask
}

func TestForwardMatchesReference(t *testing.T) {
	c := net.Config{InputLen: 10, Actions: 6, Width: 24, Blocks: 2, ValueHidden: 5}
	const n = 37 // not a multiple of the batch: exercises padding
	p, obs, mask := trForwardCase(c, n, 4)
	cfg := DefaultConfig()
	cfg.Batch = 16
	tr := trMust(t, p, cfg)
	priors, values := make([]float32, n*c.Actions), make([]float32, n)
	if err := tr.Forward(obs, mask, priors, values); err != nil {
		t.Fatal(err)
	}
	for r := 0; r < n; r++ {
		want, v := trReferenceForward(p, obs[r*c.InputLen:(r+1)*c.InputLen], mask[r*c.Actions:(r+1)*c.Actions])
		if math.Abs(float64(values[r])-v) > 1e-5 {
			t.Errorf("row %d: value %g, reference %g", r, values[r], v)
		}
		for a, w := range want {
			if got := priors[r*c.Actions+a]; math.Abs(float64(got)-w) > 1e-5 {
				t.Errorf("row %d action %d: prior %g, reference %g", r, a, got, w)
			}
		}
	}
	if err := tr.Forward(obs, mask, priors[1:], values); err == nil {
		t.Error("Forward accepted a short priors slice")
	}
}

// TestGorgoniaMatchesInfer checks that the training graph and the plain-Go
// inference agree on the same parameters.
func TestGorgoniaMatchesInfer(t *testing.T) {
	c := net.DefaultConfig(40, 9)
	c.Width = 64
	const n = 50
	p, obs, mask := trForwardCase(c, n, 6)
	cfg := DefaultConfig()
	cfg.Batch = 32
	tr := trMust(t, p, cfg)
	gp, gv := make([]float32, n*c.Actions), make([]float32, n)
	if err := tr.Forward(obs, mask, gp, gv); err != nil {
		t.Fatal(err)
	}
	ip, iv := make([]float32, n*c.Actions), make([]float32, n)
	net.NewInfer(p, n).Run(obs, mask, ip, iv)
	worst := 0.0
	for i := range gp {
		worst = math.Max(worst, math.Abs(float64(gp[i]-ip[i])))
	}
	for i := range gv {
		worst = math.Max(worst, math.Abs(float64(gv[i]-iv[i])))
	}
	if worst > 1e-4 {
		t.Errorf("gorgonia and net.Infer differ by up to %g", worst)
	}
	t.Logf("largest difference %.3g", worst)
}
