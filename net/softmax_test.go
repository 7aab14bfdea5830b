package net

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExpNeg compares expNeg with math.Exp over [-90, 0], densely near 0
// and at the edges, relative to the result.
func TestExpNeg(t *testing.T) {
	xs := []float32{0, -0, -1e-30, -1e-7, -0.5, -0.34657359, -0.34657360, -1, -10, -87.2, -87.29, expNegMin}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		xs = append(xs, expNegMin*rng.Float32(), -rng.Float32())
	}
	worst := 0.0
	for _, x := range xs {
		got, want := float64(expNeg(x)), math.Exp(float64(x))
		rel := math.Abs(got-want) / want
		worst = max(worst, rel)
		if rel > 1.5e-7 {
			t.Fatalf("expNeg(%v) = %v, want %v (relative error %.3g)", x, got, want, rel)
		}
	}
	if !math.IsNaN(float64(expNeg(float32(math.NaN())))) {
		t.Error("expNeg(NaN) is not NaN")
	}
	if expNeg(0) != 1 {
		t.Errorf("expNeg(0) = %v, want 1", expNeg(0))
	}
	t.Logf("worst relative error %.3g", worst)
}

// refSoftmax is the masked softmax in float64.
func refSoftmax(logits, mask []float32) []float64 {
	p := make([]float64, len(logits))
	top := math.Inf(-1)
	for i, z := range logits {
		if mask[i] != 0 {
			top = math.Max(top, float64(z))
		}
	}
	if math.IsInf(top, -1) {
		return p
	}
	var sum float64
	for i, z := range logits {
		if mask[i] != 0 {
			p[i] = math.Exp(float64(z) - top)
			sum += p[i]
		}
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

func TestMaskedSoftmax(t *testing.T) {
	inf := float32(math.Inf(1))
	cases := []struct {
		name         string
		logits, mask []float32
	}{
		{"one legal", []float32{3, 1, 2}, []float32{0, 1, 0}},
		{"none legal", []float32{3, 1, 2}, []float32{0, 0, 0}},
		{"all -inf", []float32{-inf, -inf, 5}, []float32{1, 1, 0}},
		{"one -inf", []float32{-inf, 0.5, 2}, []float32{1, 1, 1}},
		{"wide", []float32{-80, 0, 30, 90}, []float32{1, 1, 1, 1}},
		{"equal", []float32{7, 7, 7, 7, 7, 7, 7, 7, 7}, []float32{1, 1, 1, 1, 1, 1, 1, 1, 1}},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 200 {
		n := 1 + rng.IntN(40)
		l, m := make([]float32, n), make([]float32, n)
		for j := range l {
			l[j] = float32(rng.NormFloat64() * float64(1+i%20))
			if rng.IntN(3) > 0 {
				m[j] = 1
			}
		}
		cases = append(cases, struct {
			name         string
			logits, mask []float32
		}{"random", l, m})
	}
	for _, tc := range cases {
		want := refSoftmax(tc.logits, tc.mask)
		got := make([]float32, len(tc.logits))
		maskedSoftmax(tc.logits, tc.mask, got)
		inPlace := append([]float32(nil), tc.logits...)
		maskedSoftmax(inPlace, tc.mask, inPlace)
		for i := range got {
			if tc.mask[i] == 0 && got[i] != 0 {
				t.Fatalf("%s: masked entry %d got %v", tc.name, i, got[i])
			}
			// z - top is rounded to float32 (as it was before expNeg), which
			// costs up to |z - top| float32 ulps of the result.
			tol := want[i] * (3e-7 + 6e-8*math.Abs(float64(tc.logits[i])-float64(maxLegal(tc.logits, tc.mask))))
			if d := math.Abs(float64(got[i]) - want[i]); d > tol+1e-37 { // expNeg is 0 below e**-87.3
				t.Fatalf("%s %v: entry %d got %v, want %v", tc.name, tc.logits, i, got[i], want[i])
			}
			if inPlace[i] != got[i] {
				t.Fatalf("%s: in place entry %d got %v, want %v", tc.name, i, inPlace[i], got[i])
			}
		}
	}
	nan := []float32{float32(math.NaN()), 1}
	maskedSoftmax(nan, []float32{1, 1}, nan)
	if !math.IsNaN(float64(nan[0])) || !math.IsNaN(float64(nan[1])) {
		t.Errorf("a NaN logit gives %v, want NaN everywhere", nan)
	}
}

func maxLegal(logits, mask []float32) float32 {
	top := float32(math.Inf(-1))
	for i, z := range logits {
		if mask[i] != 0 && z > top {
			top = z
		}
	}
	return top
}

// BenchmarkMaskedSoftmax runs togyz-sized rows (9 actions) with random
// logits and masks, cycling through 256 rows as a batch would.
func BenchmarkMaskedSoftmax(b *testing.B) {
	const rows, a = 256, 9
	rng := rand.New(rand.NewPCG(5, 6))
	l, m, p := make([]float32, rows*a), make([]float32, rows*a), make([]float32, a)
	for i := range l {
		l[i] = float32(rng.NormFloat64() * 2)
		if rng.IntN(4) > 0 {
			m[i] = 1
		}
	}
	b.ReportAllocs()
	r := 0
	for b.Loop() {
		maskedSoftmax(l[r*a:(r+1)*a], m[r*a:(r+1)*a], p)
		r = (r + 1) % rows
	}
}
