package net

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"kumalak/net/nettest"
)

// BenchmarkBatcher has 64 goroutines evaluate one row per call through one
// Batcher (default architecture, 101 inputs, 9 actions), as 64 self-play
// games would, and reports positions per second, per second of the
// process's CPU time (pos/cpu-s, on Linux: against BenchmarkInfer's at the
// same batch, the hand-off's cost per row) and the mean batch fill. The
// callers=96 case is self-play's sizing (configs/togyz.yaml: 96 games,
// batches of up to 128):
//
//	go test ./net -run '^$' -bench Batcher -benchtime 20000x
func BenchmarkBatcher(b *testing.B) {
	c := DefaultConfig(101, 9)
	p := infTestParams(c, 1)
	obs, mask := nettest.Inputs(c.InputLen, c.Actions, benchPool, rand.New(rand.NewPCG(1, 1)))
	for _, cfg := range []BatcherConfig{
		{MaxBatch: 64, MinBatch: 1},
		{MaxBatch: 64, MinBatch: 32, MaxWait: 500 * time.Microsecond},
		{MaxBatch: 64, MinBatch: 1, Workers: 2},
	} {
		name := fmt.Sprintf("callers=64/max=%d/min=%d/workers=%d", cfg.MaxBatch, cfg.MinBatch, max(1, cfg.Workers))
		b.Run(name, func(b *testing.B) { benchBatcher(b, p, cfg, 64, obs, mask) })
	}
	b.Run("callers=96/max=128/min=1/workers=1", func(b *testing.B) {
		benchBatcher(b, p, BatcherConfig{MaxBatch: 128, MinBatch: 1}, 96, obs, mask)
	})
	// One caller: the batcher's overhead over a direct Infer.Run at batch 1.
	b.Run("callers=1/max=64/min=1", func(b *testing.B) {
		benchBatcher(b, p, BatcherConfig{MaxBatch: 64, MinBatch: 1}, 1, obs, mask)
	})
}

func benchBatcher(b *testing.B, p *Params, cfg BatcherConfig, callers int, obs, mask []float32) {
	c := p.Config
	bt := NewBatcher(p, cfg)
	defer bt.Close()
	var wg sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	c0, cpuOK := processCPU()
	for g := 0; g < callers; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			priors, values := make([]float32, c.Actions), make([]float32, 1)
			for i := g; i < b.N; i += callers {
				r := i % benchPool
				err := bt.Evaluate(obs[r*c.InputLen:(r+1)*c.InputLen], mask[r*c.Actions:(r+1)*c.Actions], priors, values)
				if err != nil {
					b.Error(err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	b.StopTimer()
	s := bt.Stats()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pos/s")
	if c1, ok := processCPU(); cpuOK && ok && c1 > c0 {
		b.ReportMetric(float64(b.N)/(c1-c0).Seconds(), "pos/cpu-s")
	}
	b.ReportMetric(s.MeanBatch, "fill")
}
