//go:build amd64 && !purego

package net

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// softmaxImpls are the SIMD softmaxes this CPU runs, by kernel level.
func softmaxImpls() map[kernelLevel]func(lg, mask, out *float32, a int) {
	m := map[kernelLevel]func(lg, mask, out *float32, a int){}
	if slices.Contains(supportedKernels(), kernelAVX2) {
		m[kernelAVX2] = softmax16avx2
	}
	if slices.Contains(supportedKernels(), kernelAVX512) {
		m[kernelAVX512] = softmax16
	}
	return m
}

// TestSoftmax16 compares the AVX-512 and AVX2 softmaxes with maskedSoftmax
// on every row width 1..16: random logits of every scale and random masks,
// rows with no legal action, -Inf, +Inf and NaN logits (legal and not), NaN
// in the mask, and garbage in the padding lanes, which must change
// nothing; out must not be written past a.
func TestSoftmax16(t *testing.T) {
	impls := softmaxImpls()
	if len(impls) == 0 {
		t.Skip("no SIMD softmax on this CPU")
	}
	for k, f := range impls {
		t.Run(k.String(), func(t *testing.T) { testSoftmax16(t, f) })
	}
}

func testSoftmax16(t *testing.T, softmax16 func(lg, mask, out *float32, a int)) {
	rng := rand.New(rand.NewPCG(8, 9))
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	special := []float32{-inf, inf, nan, 0, -1e30, 1e30, 88, -88}
	lg := alignedFloats(simdPad)
	for trial := 0; trial < 20000; trial++ {
		a := 1 + trial%simdPad
		mask, want, got := make([]float32, a), make([]float32, a), make([]float32, a+1)
		scale := math.Pow(10, float64(rng.IntN(5))-2)
		for i := range lg {
			lg[i] = float32(rng.NormFloat64() * scale)
			if i >= a { // padding: must not matter
				lg[i] = special[rng.IntN(len(special))]
			}
		}
		for i := range mask {
			switch rng.IntN(8) {
			case 0:
				mask[i] = 0
			case 1:
				if trial%50 == 0 {
					mask[i] = nan
				} else {
					mask[i] = 1
				}
			default:
				mask[i] = 1
			}
		}
		switch trial % 40 {
		case 1:
			clear(mask)
		case 2, 3:
			lg[rng.IntN(a)] = special[rng.IntN(len(special))]
		}
		got[a] = 42
		maskedSoftmax(lg[:a], mask, want)
		softmax16(&lg[0], &mask[0], &got[0], a)
		if got[a] != 42 {
			t.Fatalf("a=%d: out written past a", a)
		}
		for i := 0; i < a; i++ {
			g, w := got[i], want[i]
			ok := (math.IsNaN(float64(g)) && math.IsNaN(float64(w))) ||
				(w == 0 && g == 0) ||
				math.Abs(float64(g-w)) <= 1e-6*float64(w)+1e-37
			if !ok {
				t.Fatalf("a=%d logits %v mask %v: entry %d got %v, want %v", a, lg[:a], mask, i, g, w)
			}
		}
	}
}

// BenchmarkSoftmax16 is BenchmarkMaskedSoftmax's rows through softmax16
// and softmax16avx2.
func BenchmarkSoftmax16(b *testing.B) {
	impls := softmaxImpls()
	if len(impls) == 0 {
		b.Skip("no SIMD softmax on this CPU")
	}
	const rows, a = 256, 9
	rng := rand.New(rand.NewPCG(5, 6))
	l, m, p := alignedFloats(rows*simdPad), make([]float32, rows*a), make([]float32, a)
	for r := 0; r < rows; r++ {
		for i := 0; i < a; i++ {
			l[r*simdPad+i] = float32(rng.NormFloat64() * 2)
			if rng.IntN(4) > 0 {
				m[r*a+i] = 1
			}
		}
	}
	for _, k := range []kernelLevel{kernelAVX2, kernelAVX512} {
		f, ok := impls[k]
		if !ok {
			continue
		}
		b.Run(k.String(), func(b *testing.B) {
			b.ReportAllocs()
			r := 0
			for b.Loop() {
				f(&l[r*simdPad], &m[r*a], &p[0], a)
				r = (r + 1) % rows
			}
		})
	}
}
