package solve

import (
	"strings"
	"testing"
	"time"

	"kumalak/env"
	_ "kumalak/env/games"
)

// TestFacts holds the games' env.Facts to the solver and the tablebases:
// a game that claims the solver is solved (for a moment, from its start),
// one that does not is refused, and a tablebase kind is one of solve's.
func TestFacts(t *testing.T) {
	names := append(env.Games(), "kalah:houses=4,seeds=3", "kalah:capture=empty", "kalah:capture=none", "kalah:plies=40")
	s, err := New(Config{TTBits: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		spec, err := env.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		f := spec.Facts
		_, err = s.Solve(spec.New(), time.Millisecond)
		if (err == nil) != f.Solver || (Solvable(spec) == nil) != f.Solver {
			t.Errorf("%s: Facts.Solver %v, Solve: %v", name, f.Solver, err)
		}
		if f.Tablebase != "" && !tbGame(f.Tablebase) {
			t.Errorf("%s: Facts.Tablebase %q is no tablebase kind", name, f.Tablebase)
		}
		if f.Tablebase != "" && !f.Solver {
			t.Errorf("%s: a tablebase without the solver", name)
		}
		if (Probed(spec) == nil) != (f.Tablebase == MangalaTB) {
			t.Errorf("%s: Probed %v for a tablebase %q", name, Probed(spec), f.Tablebase)
		}
	}
}

// TestCheckFor: the options a solve of a position takes, by its game.
func TestCheckFor(t *testing.T) {
	cases := []struct {
		game    string
		cfg     Config
		wantErr string // "" for none
	}{
		{"mangala", Config{ValueOnly: true, State: "s"}, ""},
		{"kalah:houses=4,seeds=3", Config{ValueOnly: true, State: "s"}, ""},
		{"mangala-kale", Config{}, ""},
		{"mangala-kale", Config{ValueOnly: true}, "ValueOnly: mangala-kale solves prove every move"},
		{"mangala-kale", Config{State: "s"}, "State: mangala-kale solves are not resumable"},
		{"togyz", Config{}, "the solver plays kalah, mangala, mangala-kale"},
		{"kalah:plies=40", Config{}, "not kalah:plies=40"},
	}
	for _, c := range cases {
		spec, err := env.Lookup(c.game)
		if err != nil {
			t.Fatal(err)
		}
		err = c.cfg.CheckFor(spec.New())
		if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
			t.Errorf("%s %+v: %v, want %q", c.game, c.cfg, err, c.wantErr)
		}
	}
}

// TestOpenFor opens the tablebase of a game's kind and refuses a game
// without one, naming those that have one.
func TestOpenFor(t *testing.T) {
	kale, _ := env.Lookup("mangala-kale")
	if _, err := OpenFor(kale, t.TempDir()); err == nil || !strings.Contains(err.Error(), "mangala-kale has no tablebases (kalah, mangala") {
		t.Errorf("kale: %v", err)
	}
	classic, _ := env.Lookup("mangala")
	tb, err := OpenFor(classic, sharedDir(t))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if tb.Game() != MangalaTB {
		t.Errorf("game %s", tb.Game())
	}
}
