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
		w := [][]float32{s.in.w, s.policy.w, s.value1.w, s.value2.w}
		for _, bl := range s.blocks {
			w = append(w, bl.fc1.w, bl.fc2.w)
		}
		return w
	}
	w := [][]float32{f.in.w, f.policy.w, f.value1.w, f.value2.w}
	for _, bl := range f.blocks {
		w = append(w, bl.fc1.w, bl.fc2.w)
	}
	return w
}
