package selfplay_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"kumalak/env/mangala"
	"kumalak/mcts"
	"kumalak/net"
	"kumalak/selfplay"
)

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
