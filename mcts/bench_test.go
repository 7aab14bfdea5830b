package mcts

import (
	"testing"

	"kumalak/env"
)

// benchSearch runs b.N searches of sims simulations from spec's start and
// reports simulations per second.
func benchSearch(b *testing.B, spec *env.Spec, ev Evaluator, cfg Config, sims int) {
	s := newTest(spec, ev, cfg, 1)
	st := spec.New()
	b.ReportAllocs()
	for b.Loop() {
		s.Reset(st)
		if err := s.Run(ctx, Limits{Sims: sims}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*sims)/b.Elapsed().Seconds(), "sims/s")
}

// BenchmarkSimsUniform measures the search itself: Uniform evaluator, 800
// simulations from the start position.
func BenchmarkSimsUniform(b *testing.B) {
	for _, name := range []string{"kala6", "togyz", "mangala"} {
		spec := kala6
		if name != "kala6" {
			spec = lookup(b, name)
		}
		for _, batch := range []int{1, 8} {
			cfg := DefaultConfig()
			cfg.Batch = batch
			b.Run(name+"/batch"+string(rune('0'+batch)), func(b *testing.B) {
				benchSearch(b, spec, Uniform{}, cfg, 800)
			})
		}
		cfg := DefaultConfig()
		cfg.Kind = Gumbel
		b.Run(name+"/gumbel", func(b *testing.B) { benchSearch(b, spec, Uniform{}, cfg, 800) })
	}
}

// BenchmarkSimsRollout measures pure MCTS: one random playout per leaf.
func BenchmarkSimsRollout(b *testing.B) {
	for _, name := range []string{"kala6", "togyz", "mangala"} {
		spec := kala6
		if name != "kala6" {
			spec = lookup(b, name)
		}
		cfg := DefaultConfig()
		cfg.Rollouts = 1
		b.Run(name, func(b *testing.B) { benchSearch(b, spec, nil, cfg, 200) })
	}
}

// BenchmarkSimsThreads measures a threaded Run against the sequential one:
// togyz, Uniform evaluator (the tree's work alone, where threads share the
// most), 20,000 simulations from the start position; compare sims/s
// across threads, and per CPU-second with the process's CPU time.
func BenchmarkSimsThreads(b *testing.B) {
	spec := lookup(b, "togyz")
	for _, threads := range []int{1, 2} {
		b.Run("threads="+string(rune('0'+threads)), func(b *testing.B) {
			s := newTest(spec, Uniform{}, DefaultConfig(), 1)
			if err := s.SetThreads(threads, func() Evaluator { return Uniform{} }); err != nil {
				b.Fatal(err)
			}
			st := spec.New()
			b.ReportAllocs()
			for b.Loop() {
				s.Reset(st)
				if err := s.Run(ctx, Limits{Sims: 20000}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*20000)/b.Elapsed().Seconds(), "sims/s")
		})
	}
}
