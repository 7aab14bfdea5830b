package learn

import (
	"fmt"
	"kumalak/net"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"
)

// BenchmarkTrainStep measures one Adam step at batch 256 (forward, backward
// and update), reporting samples/s.
func BenchmarkTrainStep(b *testing.B) {
	cases := []struct {
		name string
		c    net.Config
	}{
		{"default_in100_a9", net.DefaultConfig(100, 9)},
		{"in64_w256_b0", net.Config{InputLen: 64, Actions: 9, Width: 256, Blocks: 0, ValueHidden: 64}},
		// the layer shapes (and work) of an MLP 64→256→256→{9,1}
		{"in64_w256_vh256", net.Config{InputLen: 64, Actions: 9, Width: 256, Blocks: 0, ValueHidden: 256}},
		{"in64_w256_b1", net.Config{InputLen: 64, Actions: 9, Width: 256, Blocks: 1, ValueHidden: 64}},
	}
	for _, k := range cases {
		b.Run(k.name, func(b *testing.B) {
			cfg := DefaultConfig()
			tr := trMust(b, trParams(k.c, 1), cfg)
			batch := trBatch(k.c, cfg.Batch, rand.New(rand.NewPCG(1, 1)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := tr.Step(batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*cfg.Batch)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}

// BenchmarkTrainBatch measures the default network's training throughput
// at several batch sizes: a larger batch spreads the graph's fixed cost
// per step (its tape, its allocations) over more samples.
func BenchmarkTrainBatch(b *testing.B) {
	c := net.DefaultConfig(100, 9)
	for _, n := range []int{256, 512, 1024} {
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.Batch = n
			tr := trMust(b, trParams(c, 1), cfg)
			batch := trBatch(c, cfg.Batch, rand.New(rand.NewPCG(1, 1)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := tr.Step(batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*cfg.Batch)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}

// BenchmarkTrainThroughput measures the default network's training
// throughput: gonum's matrix products on one graph (gorgonia's default, the
// "before"), gemmBLAS on one graph, and gemmBLAS on two graph copies
// (Config.Parallel 2, the default), at batch 256 and 1024, in samples a
// second of wall time and per CPU-second of the process (the figure that
// holds on a shared machine). Run it with -cpu 1,2 to see what the second
// core adds.
func BenchmarkTrainThroughput(b *testing.B) {
	c := net.DefaultConfig(100, 9)
	cases := []struct {
		name     string
		blas     G.BLAS
		parallel int
	}{
		{"blas=gonum/parallel=1", gonum.Implementation{}, 1},
		{"blas=gemm/parallel=1", gemmBLAS{}, 1},
		{"blas=gemm/parallel=2", gemmBLAS{}, 2},
	}
	for _, k := range cases {
		for _, n := range []int{256, 1024} {
			b.Run(fmt.Sprintf("%s/batch=%d", k.name, n), func(b *testing.B) {
				if _, ok := k.blas.(gemmBLAS); ok && !haveGemmKernel {
					b.Skip("no AVX2 and FMA kernel on this CPU")
				}
				cfg := DefaultConfig()
				cfg.Batch, cfg.Parallel = n, k.parallel
				tr := trMust(b, trParams(c, 1), cfg)
				prev := G.WhichBLAS()
				G.Use(k.blas)
				defer G.Use(prev)
				batch := trBatch(c, cfg.Batch, rand.New(rand.NewPCG(1, 1)))
				b.ReportAllocs()
				b.ResetTimer()
				cpu0 := processCPU()
				for i := 0; i < b.N; i++ {
					if _, err := tr.Step(batch); err != nil {
						b.Fatal(err)
					}
				}
				samples := float64(b.N * cfg.Batch)
				b.ReportMetric(samples/b.Elapsed().Seconds(), "samples/s")
				if cpu := processCPU() - cpu0; cpu > 0 {
					b.ReportMetric(samples/cpu, "samples/cpu-s")
				}
			})
		}
	}
}
