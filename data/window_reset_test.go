package data

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// After ResetSampling, a window that has drawn batches before and one
// loaded from its shards draw the same batches from the same rng.
func TestResetSamplingReproducesDraws(t *testing.T) {
	cfg := WindowConfig{MinSamples: 100, Exponent: 0.75, Growth: 0.4, MaxSamples: 1000}
	rng := rand.New(rand.NewPCG(1, 2))
	used, err := NewWindow(cfg, testLayout)
	if err != nil {
		t.Fatal(err)
	}
	used.Add(makeSamples(rng, testLayout, 0, 90))
	fresh, err := NewWindow(cfg, testLayout)
	if err != nil {
		t.Fatal(err)
	}
	fresh.Add(windowSamples(used))
	draw := func(w *Window, seed uint64) []float32 {
		b := NewBatch(testLayout, 16)
		w.FillBatch(rand.New(rand.NewPCG(seed, 0)), b)
		return slices.Clone(b.Obs)
	}
	draw(used, 7) // moves used's permutation away from the identity
	if slices.Equal(draw(used, 8), draw(fresh, 8)) {
		t.Fatal("without a reset the draws agree: the test shows nothing")
	}
	used.ResetSampling()
	fresh.ResetSampling()
	if !slices.Equal(draw(used, 9), draw(fresh, 9)) {
		t.Error("after ResetSampling the windows draw different batches")
	}
}
