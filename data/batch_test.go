package data

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestFillBatchRows(t *testing.T) {
	for _, mix := range []float64{0, 0.25, 1} {
		cfg := smallConfig()
		cfg.ValueMix = mix
		w, _ := NewWindow(cfg, testLayout)
		all := makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 2000)
		w.Add(all)
		b := NewBatch(testLayout, 128)
		w.FillBatch(rand.New(rand.NewPCG(2, 2)), b)
		o, a := testLayout.ObsLen, testLayout.NumActions
		seen := make(map[int]bool)
		for i := range b.N {
			row := b.Obs[i*o : (i+1)*o]
			k := int(row[0])
			if k < 2000-w.Len() || k >= 2000 || seen[k] {
				t.Fatalf("row %d is sample %d: outside the window or repeated", i, k)
			}
			seen[k] = true
			s := &all[k]
			mask := make([]float32, a)
			s.Mask(mask, a)
			value := float32((1-mix)*float64(s.Outcome) + mix*float64(s.RootValue))
			if !slices.Equal(row, s.Obs) || !slices.Equal(b.Policy[i*a:(i+1)*a], s.Policy) ||
				!slices.Equal(b.Mask[i*a:(i+1)*a], mask) || b.Score[i] != s.Score ||
				abs(b.Value[i]-value) > 1e-6 {
				t.Fatalf("mix %v: row %d does not match sample %d", mix, i, k)
			}
		}
	}
}

func abs(x float32) float32 { return max(x, -x) }

func TestFillBatchZeroAllocs(t *testing.T) {
	w, _ := NewWindow(smallConfig(), testLayout)
	w.Add(makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 2000))
	b := NewBatch(testLayout, 256)
	rng := rand.New(rand.NewPCG(2, 2))
	if a := testing.AllocsPerRun(100, func() { w.FillBatch(rng, b) }); a != 0 {
		t.Errorf("FillBatch: %v allocs per call, want 0", a)
	}
}

func TestFillBatchPanics(t *testing.T) {
	w, _ := NewWindow(smallConfig(), testLayout)
	w.Add(makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 50))
	cases := map[string]*Batch{
		"more rows than the window": NewBatch(testLayout, 51),
		"short policy":              {Obs: make([]float32, 400), Mask: make([]float32, 90), Policy: make([]float32, 80), Value: make([]float32, 10), Score: make([]float32, 10), N: 10},
	}
	for name, b := range cases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: FillBatch did not panic", name)
				}
			}()
			w.FillBatch(rand.New(rand.NewPCG(1, 1)), b)
		}()
	}
}
