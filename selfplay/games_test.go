package selfplay

import (
	"context"
	"testing"

	"kumalak/env"
	"kumalak/env/mangala"
	"kumalak/env/togyz"
	"kumalak/mcts"
)

// Real mangala has extra turns: the targets still follow the mover.
func TestMangalaTargets(t *testing.T) {
	cfg := testConfig()
	cfg.FullSims, cfg.CheapSims = 8, 4
	var games []GameResult
	_, err := Run(context.Background(), mangala.Spec, mcts.Uniform{}, cfg, 6, 1, func(g GameResult) { games = append(games, g) })
	if err != nil {
		t.Fatal(err)
	}
	repeats := 0
	for _, g := range games {
		st := mangala.Spec.New()
		movers := make([]env.Player, 0, g.Plies())
		for _, a := range g.Moves {
			movers = append(movers, st.ToMove())
			st.Apply(a)
		}
		if st.Result() != g.Result {
			t.Fatalf("game %d: result %s, replay %s", g.Index, g.Result, st.Result())
		}
		for _, s := range g.Samples {
			p := movers[s.Ply]
			if s.Ply > 0 && movers[s.Ply-1] == p {
				repeats++
			}
			if s.Outcome != g.Result.Value(p) {
				t.Fatalf("game %d ply %d: outcome %v for %s after %s", g.Index, s.Ply, s.Outcome, p, g.Result)
			}
		}
	}
	if repeats == 0 {
		t.Fatal("no extra turn in six mangala games")
	}
}

// BenchmarkTogyz reports self-play speed with the uniform evaluator, which
// measures the game and search, not a network.
func BenchmarkTogyz(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Games = 2
	cfg.FullSims, cfg.CheapSims = 32, 8
	p, err := NewPool(togyz.Spec, mcts.Uniform{}, cfg)
	if err != nil {
		b.Fatal(err)
	}
	var games, positions, seconds float64
	for i := 0; b.Loop(); i++ {
		st, err := p.Run(context.Background(), 2, uint64(i), nil)
		if err != nil {
			b.Fatal(err)
		}
		games += float64(st.Games)
		positions += float64(st.Positions)
		seconds += st.Elapsed.Seconds()
	}
	b.ReportMetric(games/seconds, "games/s")
	b.ReportMetric(positions/seconds, "positions/s")
}
