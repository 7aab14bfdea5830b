package agent

import (
	"context"
	"testing"

	"kumalak/env"
	"kumalak/env/envtest"
	"kumalak/env/togyz"
)

// TestTBPlaysSolverGames: tb plays every game whose facts claim the solver
// (a small Kalah here, the solver alone and every move exact) and refuses
// the others; a tablebase folder for a game that has none is an error.
func TestTBPlaysSolverGames(t *testing.T) {
	a, err := New(envtest.Kala3, "tb:time=200ms", 1)
	if err != nil {
		t.Fatal(err)
	}
	st, err := envtest.ParseKalah(envtest.Kala3, "0,2,1/0,1,1 7 6 - - w")
	if err != nil {
		t.Fatal(err)
	}
	m, err := a.Move(context.Background(), st)
	if _, cerr := env.CheckMove(st, m.Pit()); err != nil || cerr != nil {
		t.Fatalf("move %v, %v", m, err)
	}
	if _, err := New(envtest.Kalah3, "tb", 1); err == nil {
		t.Error("tb built for a Kalah with a ply limit, which the solver does not take")
	}
	if _, err := New(togyz.Spec, "tb", 1); err == nil {
		t.Error("tb built for togyz, a game without the solver")
	}
	if _, err := New(envtest.Kala3, "tb:dir="+t.TempDir(), 1); err == nil {
		t.Error("a tablebase opened for a 3-house Kalah, which has none")
	}
}

// TestFactsLevels: a game's own level table (env.Facts.Levels) has
// MaxLevel levels of growing simulations, and LevelOf plays it.
func TestFactsLevels(t *testing.T) {
	for _, name := range env.Games() {
		spec, err := env.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		lv := spec.Facts.Levels
		if lv == nil {
			continue
		}
		if len(lv) != MaxLevel {
			t.Errorf("%s: %d levels, want %d", name, len(lv), MaxLevel)
			continue
		}
		for i := range lv {
			if i > 0 && lv[i].Sims < lv[i-1].Sims {
				t.Errorf("%s: level %d searches %d simulations, fewer than level %d's %d", name, i+1, lv[i].Sims, i, lv[i-1].Sims)
			}
			if got, err := LevelOf(name, i+1); err != nil || got != Level(lv[i]) {
				t.Errorf("%s: LevelOf(%d) = %+v, %v; want %+v", name, i+1, got, err, lv[i])
			}
		}
	}
}
