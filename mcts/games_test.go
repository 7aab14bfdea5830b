package mcts

import (
	"testing"

	"kumalak/env"
	_ "kumalak/env/games" // registers togyz, mangala, mangala-kale
)

// lookup returns a registered game's spec.
func lookup(tb testing.TB, name string) *env.Spec {
	tb.Helper()
	spec, err := env.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	return spec
}

// TestRealGames plays a whole game of each registered game with a small
// search per move, reusing the tree, with the solver and batching on.
func TestRealGames(t *testing.T) {
	for _, name := range env.Games() {
		spec := lookup(t, name)
		cfg := DefaultConfig()
		cfg.Batch, cfg.NoiseAlpha = 4, 1
		s := newTest(spec, Uniform{}, cfg, 1)
		st := spec.New()
		s.Reset(st)
		pol := make([]float32, spec.NumActions)
		plies := 0
		for ; st.Result() == env.Ongoing; plies++ {
			if err := s.Run(ctx, Limits{Sims: 40}); err != nil {
				t.Fatal(err)
			}
			checkTree(t, s)
			s.Policy(pol)
			var sum float32
			for _, p := range pol {
				sum += p
			}
			if sum < 0.999 || sum > 1.001 {
				t.Fatalf("%s ply %d: policy sums to %v", name, plies, sum)
			}
			a := s.Choose(1)
			if _, err := env.CheckMove(st, a.Pit()); err != nil {
				t.Fatalf("%s ply %d: %v", name, plies, err)
			}
			st.Apply(a)
			s.Advance(a, st)
			if s.Root().Mover != st.ToMove() {
				t.Fatalf("%s ply %d: root mover %v, position says %v", name, plies, s.Root().Mover, st.ToMove())
			}
		}
		t.Logf("%s: %s after %d plies", name, st.Result(), plies)
	}
}

func TestRealGamesAllocs(t *testing.T) {
	for _, name := range env.Games() {
		spec := lookup(t, name)
		cfg := DefaultConfig()
		cfg.Batch = 8
		s := newTest(spec, Uniform{}, cfg, 1)
		st, next := spec.New(), spec.New()
		n := testing.AllocsPerRun(3, func() {
			s.Reset(st)
			if err := s.Run(ctx, Limits{Sims: 300}); err != nil {
				t.Fatal(err)
			}
			a := s.Choose(0)
			next.CopyFrom(st)
			next.Apply(a)
			s.Advance(a, next)
			if err := s.Run(ctx, Limits{Sims: 300}); err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per search, move and search, want 0", name, n)
		}
	}
}
