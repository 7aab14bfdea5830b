package net

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"kumalak/net/nettest"
)

// benchPool is the number of distinct input rows a benchmark cycles
// through, so the branch predictor cannot learn one input's sparsity.
const benchPool = 4096

// BenchmarkInfer measures Run, with the kernel chosen at start-up, for the
// default architecture (116 inputs, 9 actions) at several batch sizes. Run
// it on one core:
//
//	go test ./net -run '^$' -bench Infer -benchtime 2000x -cpu 1
func BenchmarkInfer(b *testing.B) {
	c := DefaultConfig(116, 9)
	p := infTestParams(c, 1)
	obs, mask := nettest.Inputs(c.InputLen, c.Actions, benchPool, rand.New(rand.NewPCG(1, 1)))
	for _, n := range []int{1, 16, 64, 96, 256} {
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) { benchRun(b, NewInfer(p, n), obs, mask, n) })
	}
}

// benchRun times f.Run on n-row batches cycling through obs and mask, and
// reports positions per second of wall time (pos/s) and, on Linux, per
// second of the benchmark thread's CPU time (pos/cpu-s), which a busy
// machine disturbs far less.
func benchRun(b *testing.B, f *Infer, obs, mask []float32, n int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c := f.Config()
	priors := make([]float32, n*c.Actions)
	values := make([]float32, n)
	row := 0
	b.ReportAllocs()
	c0, cpuOK := threadCPU()
	for b.Loop() {
		if row+n > benchPool {
			row = 0
		}
		f.Run(obs[row*c.InputLen:(row+n)*c.InputLen], mask[row*c.Actions:(row+n)*c.Actions], priors, values)
		row += n
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "pos/s")
	if c1, ok := threadCPU(); cpuOK && ok && c1 > c0 {
		b.ReportMetric(float64(b.N*n)/(c1-c0).Seconds(), "pos/cpu-s")
	}
}

// BenchmarkInferMLP measures the layer kernel alone on a plain
// 64→256→256 ReLU MLP, the yardstick for the inference targets.
func BenchmarkInferMLP(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	c := Config{InputLen: 64, Actions: 256, Width: 256, Blocks: 0, ValueHidden: 1}
	p := infTestParams(c, 2)
	l1, l2 := newInfLayer(p, "in"), newInfLayer(p, "policy")
	obs, _ := nettest.Inputs(c.InputLen, c.Actions, benchPool, rng)
	for _, n := range []int{1, 32} {
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			h, y := make([]float32, n*256), make([]float32, n*256)
			idx := make([]int32, 256)
			row := 0
			b.ReportAllocs()
			for b.Loop() {
				if row+n > benchPool {
					row = 0
				}
				l1.apply(n, obs[row*64:(row+n)*64], nil, h, idx)
				reluFlush(h)
				l2.apply(n, h, nil, y, idx)
				reluFlush(y)
				row += n
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "pos/s")
		})
	}
}
