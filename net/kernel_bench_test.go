package net

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"kumalak/net/nettest"
)

// BenchmarkKernels runs the default togyz network (116 inputs, 9 actions)
// side by side on every kernel level this CPU supports, at several batch
// sizes. Run it on one core:
//
//	go test ./net -run '^$' -bench Kernels -benchtime 2000x -cpu 1
func BenchmarkKernels(b *testing.B) {
	c := DefaultConfig(116, 9)
	p := infTestParams(c, 1)
	obs, mask := nettest.Inputs(c.InputLen, c.Actions, benchPool, rand.New(rand.NewPCG(1, 1)))
	for _, n := range []int{1, 4, 16, 64, 96, 256} {
		for _, k := range supportedKernels() {
			b.Run(fmt.Sprintf("batch=%d/%s", n, k), func(b *testing.B) {
				benchRun(b, newInfer(p, n, k), obs, mask, n)
			})
		}
	}
}

// BenchmarkSubnormal is the pair that shows subnormal weights cost no speed:
// the default network clean, and with 5% of its weights subnormal or below
// FlushThreshold (flushed by NewInfer), on the portable kernel and the best
// one, at batch 16. The third case, "unflushed", writes subnormals into the
// evaluator's own weights after NewInfer, to show the slowdown that the
// flush prevents. Run it on one core:
//
//	go test ./net -run '^$' -bench Subnormal -benchtime 1000x -cpu 1
func BenchmarkSubnormal(b *testing.B) {
	c := DefaultConfig(116, 9)
	clean, dirty, _ := subnormalParams(c, 0.05, 3)
	obs, mask := nettest.Inputs(c.InputLen, c.Actions, benchPool, rand.New(rand.NewPCG(1, 1)))
	const n = 16
	levels := supportedKernels()
	for _, k := range []kernelLevel{kernelPortable, levels[len(levels)-1]} {
		b.Run(fmt.Sprintf("%s/clean", k), func(b *testing.B) { benchRun(b, newInfer(clean, n, k), obs, mask, n) })
		b.Run(fmt.Sprintf("%s/subnormal", k), func(b *testing.B) { benchRun(b, newInfer(dirty, n, k), obs, mask, n) })
		b.Run(fmt.Sprintf("%s/unflushed", k), func(b *testing.B) {
			f := newInfer(clean, n, k)
			rng := rand.New(rand.NewPCG(5, 5))
			for _, w := range inferWeights(f) {
				for i := range w {
					if rng.IntN(20) == 0 {
						w[i] = 1e-39
					}
				}
			}
			benchRun(b, f, obs, mask, n)
		})
	}
}

// inferWeights returns the weight matrices of f's private copy.
func inferWeights(f *Infer) [][]float32 {
	if s := f.simd; s != nil {
		var w [][]float32
		for _, l := range []*simdLayer{&s.in, &s.policy, &s.value1, &s.value2} {
			w = append(w, l.w, l.sw)
		}
		for i := range s.blocks {
			w = append(w, s.blocks[i].fc1.w, s.blocks[i].fc1.sw, s.blocks[i].fc2.w, s.blocks[i].fc2.sw)
		}
		return w
	}
	w := [][]float32{f.in.w, f.policy.w, f.value1.w, f.value2.w}
	for _, bl := range f.blocks {
		w = append(w, bl.fc1.w, bl.fc2.w)
	}
	return w
}

// BenchmarkSparseLayer runs one 128×128 layer (the default network's
// hidden layers) on a chunk of 48 rows whose inputs are non-zero with the
// given density, dense and sparse, on every SIMD level that has sparse
// kernels (AVX2): where the sparse
// kernels pay and how their time follows the density. Run it on one core:
//
//	go test ./net -run '^$' -bench SparseLayer -benchtime 20000x -cpu 1
func BenchmarkSparseLayer(b *testing.B) {
	const in, out, n = 128, 128, simdChunk
	rng := rand.New(rand.NewPCG(8, 8))
	p := &Params{}
	w := &Tensor{Name: "w", Shape: []int{in, out}, Data: make([]float32, in*out)}
	bias := &Tensor{Name: "b", Shape: []int{out}, Data: make([]float32, out)}
	nettest.Normal(rng, w.Data, 0.1)
	p.byName = map[string]*Tensor{"w": w, "b": bias}
	for _, k := range simdLevels() {
		if len(k.sparseVecs()) == 0 {
			continue
		}
		l := newSimdLayer(p, k, "w", "b")
		y := alignedFloats(n * l.outPad)
		for _, d := range []float64{0.3, 0.5, 0.7, 0.9} {
			x := sparseInputs(rng, n, in, in, d)
			for _, sp := range []bool{false, true} {
				var nz *nzRows
				name := "dense"
				if sp {
					nz, name = newNzRows(), "sparse"
				}
				b.Run(fmt.Sprintf("%s/density=%.1f/%s", k, d, name), func(b *testing.B) {
					for b.Loop() {
						l.apply(k, nz, n, x, in, nil, y, true)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
				})
			}
		}
	}
}
