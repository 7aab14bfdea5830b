package selfplay

import (
	"context"
	"testing"

	"kumalak/mcts"
)

// Once warm, a whole game allocates only its four result slices (moves,
// full-search flags, samples, and one block for every sample's floats):
// nothing per move or simulation.
func TestGameAllocations(t *testing.T) {
	for _, kind := range []mcts.Kind{mcts.PUCT, mcts.Gumbel} {
		cfg := testConfig()
		cfg.FullFraction = 0.5
		cfg.Search.Kind = kind
		cfg.HonestBudget = kind == mcts.Gumbel
		gameAllocations(t, cfg)
	}
}

func gameAllocations(t *testing.T, cfg Config) {
	w := newWorker(toySpec, &toyEval{}, cfg, func(int64, int64) {})
	for i := range 5 { // grow the arenas and scratch buffers
		if _, err := w.play(context.Background(), 1, i); err != nil {
			t.Fatal(err)
		}
	}
	i, plies := 0, 0
	allocs := testing.AllocsPerRun(50, func() {
		g, err := w.play(context.Background(), 1, i%5)
		if err != nil {
			t.Fatal(err)
		}
		i, plies = i+1, plies+g.Plies()
	})
	if allocs > 4 {
		t.Fatalf("%s: %v allocations per game of %d plies, want at most 4", cfg.Search.Kind, allocs, plies/i)
	}
}
