package selfplay_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"kumalak/env"
	"kumalak/env/mangala"
	"kumalak/env/togyz"
	"kumalak/mcts"
	"kumalak/net"
	"kumalak/selfplay"
)

// BenchmarkPosCache plays self-play with a real network (the configs'
// sizes, random weights) behind net.Batcher, with the batcher's position
// cache off and on, side by side, for both search kinds: the ratios tell
// whether the cache pays. Run it alone:
//
//	go test ./selfplay/ -run '^$' -bench PosCache -benchtime 3x
func BenchmarkPosCache(b *testing.B) {
	for _, spec := range []*env.Spec{togyz.Spec, mangala.Spec} {
		for _, kind := range []mcts.Kind{mcts.PUCT, mcts.Gumbel} {
			for _, cache := range []int{0, 1 << 16} {
				name := fmt.Sprintf("%s/%s/cache=%d", spec.Name, kind, cache)
				b.Run(name, func(b *testing.B) { benchCache(b, spec, kind, cache) })
			}
		}
	}
}

func benchCache(b *testing.B, spec *env.Spec, kind mcts.Kind, cache int) {
	nc := net.DefaultConfig(spec.ObsLen, spec.NumActions)
	nc.Width, nc.Blocks, nc.ValueHidden = 128, 2, 64
	params := net.NewParams(nc)
	params.Init(rand.New(rand.NewPCG(1, 2)))
	bc := net.DefaultBatcherConfig()
	bc.MinBatch, bc.Workers, bc.CacheSize = 1, 2, cache
	bat := net.NewBatcher(params, bc)
	defer bat.Close()

	cfg := selfplay.DefaultConfig()
	cfg.Games = 16
	cfg.Search.Kind = kind
	cfg.Search.MaxNodes = 1 << 16
	cfg.FullSims, cfg.CheapSims, cfg.FullFraction = 200, 40, 0.25
	if kind == mcts.Gumbel {
		cfg.FullSims, cfg.CheapSims, cfg.FullFraction = 32, 32, 1
	}
	pool, err := selfplay.NewPool(spec, bat, cfg)
	if err != nil {
		b.Fatal(err)
	}
	var games, samples, positions, seconds float64
	for i := 0; b.Loop(); i++ {
		st, err := pool.Run(context.Background(), 16, uint64(i), nil)
		if err != nil {
			b.Fatal(err)
		}
		games += float64(st.Games)
		samples += float64(st.Samples)
		positions += float64(st.Positions)
		seconds += st.Elapsed.Seconds()
	}
	bs := bat.Stats()
	b.ReportMetric(games/seconds, "games/s")
	b.ReportMetric(samples/seconds, "samples/s")
	b.ReportMetric(positions/seconds, "sims/s")
	if bs.Rows > 0 {
		b.ReportMetric(float64(bs.CacheHits)/float64(bs.Rows), "hit-rate")
	}
}

// TestSeedReproducesSamples: self-play with a real network behind a
// batcher (two workers, shared batches, the position cache on) writes the
// same samples in the same order for the same seed, for both search kinds:
// a position's answer does not depend on which batch it rode in.
func TestSeedReproducesSamples(t *testing.T) {
	spec := mangala.Spec
	nc := net.DefaultConfig(spec.ObsLen, spec.NumActions)
	nc.Width, nc.Blocks, nc.ValueHidden = 32, 1, 16
	params := net.NewParams(nc)
	params.Init(rand.New(rand.NewPCG(3, 4)))
	for _, kind := range []mcts.Kind{mcts.PUCT, mcts.Gumbel} {
		cfg := selfplay.DefaultConfig()
		cfg.Games, cfg.FullSims, cfg.CheapSims, cfg.MaxPlies = 6, 16, 4, 80
		cfg.Search.Kind = kind
		run := func(cache int) [][]float32 {
			bc := net.DefaultBatcherConfig()
			bc.MinBatch, bc.Workers, bc.CacheSize = 1, 2, cache
			bat := net.NewBatcher(params, bc)
			defer bat.Close()
			var rows [][]float32
			_, err := selfplay.Run(context.Background(), spec, bat, cfg, 12, 5, func(g selfplay.GameResult) {
				for _, s := range g.Samples {
					row := append(append([]float32{s.Outcome, s.RootValue, s.Score, float32(s.Ply)}, s.Obs...), s.Policy...)
					rows = append(rows, row)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			return rows
		}
		a, b, c := run(0), run(0), run(1<<12)
		if len(a) == 0 || !equalRows(a, b) || !equalRows(a, c) {
			t.Fatalf("%s: runs with the same seed wrote different samples (%d, %d, %d rows)", kind, len(a), len(b), len(c))
		}
	}
}

func equalRows(a, b [][]float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}
