package net

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkKernels runs the default network (101 inputs, 9 actions) side by
// side on every kernel level this CPU supports, at several batch sizes. Run
// it on one core:
//
//	go test ./net -run '^$' -bench Kernels -benchtime 2000x -cpu 1
func BenchmarkKernels(b *testing.B) {
	c := DefaultConfig(101, 9)
	p := infTestParams(c, 1)
	obs, mask := infTestInputs(c, benchPool, rand.New(rand.NewPCG(1, 1)))
	for _, n := range []int{1, 4, 16, 64, 256} {
		for _, k := range supportedKernels() {
			b.Run(fmt.Sprintf("batch=%d/%s", n, k), func(b *testing.B) {
				benchRun(b, newInfer(p, n, k), obs, mask, n)
			})
		}
	}
}

// benchRun times f.Run on n-row batches cycling through obs and mask, and
// reports positions per second.
func benchRun(b *testing.B, f *Infer, obs, mask []float32, n int) {
	c := f.Config()
	priors := make([]float32, n*c.Actions)
	values := make([]float32, n)
	row := 0
	b.ReportAllocs()
	for b.Loop() {
		if row+n > benchPool {
			row = 0
		}
		f.Run(obs[row*c.InputLen:(row+n)*c.InputLen], mask[row*c.Actions:(row+n)*c.Actions], priors, values)
		row += n
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "pos/s")
}
