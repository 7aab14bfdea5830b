package data

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestWindowConfigValidate(t *testing.T) {
	if err := DefaultWindowConfig().Validate(); err != nil {
		t.Fatalf("default config: %v", err)
	}
	cases := map[string]func(c *WindowConfig){
		"max_samples": func(c *WindowConfig) { c.MaxSamples = 0 },
		"min_samples": func(c *WindowConfig) { c.MinSamples = c.MaxSamples + 1 },
		"exponent":    func(c *WindowConfig) { c.Exponent = 0 },
		"growth":      func(c *WindowConfig) { c.Growth = math.NaN() },
		"value_mix":   func(c *WindowConfig) { c.ValueMix = 1.5 },
	}
	for field, mutate := range cases {
		c := DefaultWindowConfig()
		mutate(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("bad %s: err = %v, want one naming the field", field, err)
		}
		if _, err := NewWindow(c, testLayout); err == nil {
			t.Errorf("NewWindow accepted a bad %s", field)
		}
	}
	if _, err := NewWindow(DefaultWindowConfig(), Layout{Game: "x", ObsVersion: "x/1", ObsLen: 3}); err == nil ||
		!strings.Contains(err.Error(), "num_actions") {
		t.Errorf("NewWindow with no actions: err = %v", err)
	}
}

func TestWindowSizeFormula(t *testing.T) {
	cases := []struct {
		c       WindowConfig
		total   int64
		want    int
		comment string
	}{
		{WindowConfig{MinSamples: 100, Exponent: 0.5, Growth: 1, MaxSamples: 1e4}, 0, 100, "floor before c"},
		{WindowConfig{MinSamples: 100, Exponent: 0.5, Growth: 1, MaxSamples: 1e4}, 100, 100, "c at c"},
		{WindowConfig{MinSamples: 100, Exponent: 0.5, Growth: 1, MaxSamples: 1e4}, 400, 300, "100·(1+(2−1)/.5)"},
		{WindowConfig{MinSamples: 100, Exponent: 0.5, Growth: 1, MaxSamples: 1e4}, 900, 500, "100·(1+(3−1)/.5)"},
		{WindowConfig{MinSamples: 100, Exponent: 0.5, Growth: 1, MaxSamples: 1e4}, 10000, 1900, "100·(1+(10−1)/.5)"},
		{WindowConfig{MinSamples: 100, Exponent: 1, Growth: 0.5, MaxSamples: 1e4}, 300, 200, "linear: 100+.5·200"},
		{WindowConfig{MinSamples: 100, Exponent: 1, Growth: 0.5, MaxSamples: 1e4}, 1100, 600, "linear: 100+.5·1000"},
		{WindowConfig{MinSamples: 100, Exponent: 0.75, Growth: 0, MaxSamples: 1e4}, 1e6, 100, "no growth"},
		{WindowConfig{MinSamples: 100, Exponent: 1, Growth: 1, MaxSamples: 250}, 200, 200, "keeps all"},
		{WindowConfig{MinSamples: 100, Exponent: 1, Growth: 1, MaxSamples: 250}, 1000, 250, "capped"},
		{WindowConfig{MinSamples: 250000, Exponent: 0.75, Growth: 0.4, MaxSamples: 1e7}, 2_500_000, 866455, "KataGo paper"},
		{WindowConfig{MinSamples: 250000, Exponent: 0.75, Growth: 0.4, MaxSamples: 1e7}, 10_000_000, 2237388, "KataGo paper"},
		{DefaultWindowConfig(), 1_000_000, 275531, "default"},
		{DefaultWindowConfig(), 10_000_000, 1_000_000, "default, capped"},
	}
	for _, c := range cases {
		if got := c.c.Size(c.total); got != c.want {
			t.Errorf("%s: Size(%d) = %d, want %d", c.comment, c.total, got, c.want)
		}
	}
}

func TestWindowSizeSlopeAtMostOne(t *testing.T) {
	c := WindowConfig{MinSamples: 10, Exponent: 1, Growth: 1, MaxSamples: 1 << 20}
	for n := int64(0); n < 5000; n++ {
		if d := c.Size(n+1) - c.Size(n); d < 0 || d > 1 {
			t.Fatalf("Size(%d)−Size(%d) = %d, want 0 or 1", n+1, n, d)
		}
	}
}

func smallConfig() WindowConfig {
	return WindowConfig{MinSamples: 100, Exponent: 0.5, Growth: 1, MaxSamples: 500}
}

func TestWindowMemoryBound(t *testing.T) {
	w, err := NewWindow(smallConfig(), testLayout)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	pool := makeSamples(rng, testLayout, 0, 300)
	var s Sample
	for total := 0; total < 60_000; {
		k := 1 + rng.IntN(len(pool))
		for i := range pool[:k] {
			pool[i].Obs[0] = float32(total + i)
		}
		w.Add(pool[:k])
		total += k
		size := smallConfig().Size(int64(total))
		if w.Total() != int64(total) || w.Len() != min(total, size) || w.Len() > 500 {
			t.Fatalf("after %d: Total %d Len %d, want Len min(total, %d)", total, w.Total(), w.Len(), size)
		}
		if max := (w.Len()+w.chunkLen-1)/w.chunkLen + 1; len(w.chunks) > max {
			t.Fatalf("after %d: %d chunks of %d for %d samples", total, len(w.chunks), w.chunkLen, w.Len())
		}
		w.At(0, &s)
		first := id(&s)
		w.At(w.Len()-1, &s)
		if first != total-w.Len() || id(&s) != total-1 {
			t.Fatalf("after %d: window holds ids %d..%d, want the latest %d", total, first, id(&s), w.Len())
		}
	}
}

// TestWindowIndependentOfSplits checks that the window is the latest
// min(N, Size(N)) samples however the adds are split.
func TestWindowIndependentOfSplits(t *testing.T) {
	all := makeSamples(rand.New(rand.NewPCG(4, 4)), testLayout, 0, 3000)
	one, _ := NewWindow(smallConfig(), testLayout)
	one.Add(all)
	many, _ := NewWindow(smallConfig(), testLayout)
	rng := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < len(all); {
		k := min(len(all)-i, rng.IntN(200))
		many.Add(all[i : i+k])
		i += k
	}
	want := all[len(all)-smallConfig().Size(3000):]
	checkSamples(t, windowSamples(one), want)
	checkSamples(t, windowSamples(many), want)
}

func TestAddCopies(t *testing.T) {
	w, _ := NewWindow(smallConfig(), testLayout)
	s := makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 7, 1)
	w.Add(s)
	s[0].Obs[0], s[0].Policy[0] = -1, -1
	var got Sample
	w.At(0, &got)
	if id(&got) != 7 || got.Policy[0] == -1 {
		t.Error("the window kept the caller's slices")
	}
}

func TestAddPanicsOnWrongLayout(t *testing.T) {
	w, _ := NewWindow(smallConfig(), testLayout)
	defer func() {
		if recover() == nil {
			t.Error("Add took a sample with a short observation")
		}
	}()
	s := makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 2)
	s[1].Obs = s[1].Obs[:3]
	w.Add(s)
}

func TestSampleWithoutReplacement(t *testing.T) {
	w, _ := NewWindow(smallConfig(), testLayout)
	w.Add(makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 250))
	rng := rand.New(rand.NewPCG(9, 9))
	got := w.Sample(rng, w.Len(), nil)
	seen := make(map[int]bool)
	for i := range got {
		seen[id(&got[i])] = true
	}
	if len(seen) != w.Len() {
		t.Errorf("sampling the whole window gave %d distinct samples of %d", len(seen), w.Len())
	}
	var want Sample
	w.At(id(&got[0])-(250-w.Len()), &want)
	if !got[0].Equal(&want) {
		t.Error("a sampled copy differs from the window's sample")
	}
}

// TestSampleCoversWindow draws 100 rounds of 50 from 500 samples: each
// should come up about 10 times, none never, none far too often.
func TestSampleCoversWindow(t *testing.T) {
	w, _ := NewWindow(smallConfig(), testLayout)
	w.Add(makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 3000))
	if w.Len() != 500 {
		t.Fatalf("Len %d, want 500", w.Len())
	}
	base := 3000 - 500
	rng := rand.New(rand.NewPCG(10, 10))
	counts := make([]int, w.Len())
	var buf []Sample
	for range 100 {
		buf = w.Sample(rng, 50, buf[:0])
		seen := make(map[int]bool)
		for i := range buf {
			k := id(&buf[i]) - base
			if k < 0 || k >= w.Len() || seen[k] {
				t.Fatalf("sample id %d out of the window or repeated within a call", k+base)
			}
			seen[k] = true
			counts[k]++
		}
	}
	chi2 := 0.0
	for k, c := range counts {
		if c == 0 || c > 30 {
			t.Errorf("sample %d drawn %d times, want about 10", k+base, c)
		}
		chi2 += float64((c-10)*(c-10)) / 10
	}
	// 499 degrees of freedom: mean 499, sd 31.6; the draws are a bit less
	// spread than multinomial (no repeats within a call), never more.
	if chi2 > 499+5*31.6 {
		t.Errorf("chi-square %.0f: draws far from uniform", chi2)
	}
}

func TestSampleReusesBuffersAllocs(t *testing.T) {
	w, _ := NewWindow(smallConfig(), testLayout)
	w.Add(makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 300))
	rng := rand.New(rand.NewPCG(2, 2))
	buf := w.Sample(rng, 64, nil)
	if a := testing.AllocsPerRun(50, func() { buf = w.Sample(rng, 64, buf[:0]) }); a != 0 {
		t.Errorf("Sample into a reused buffer: %v allocs per call, want 0", a)
	}
}

func TestSamplePanicsBeyondLen(t *testing.T) {
	w, _ := NewWindow(smallConfig(), testLayout)
	w.Add(makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 10))
	defer func() {
		if recover() == nil {
			t.Error("Sample(11) of a window of 10 did not panic")
		}
	}()
	w.Sample(rand.New(rand.NewPCG(1, 1)), 11, nil)
}
