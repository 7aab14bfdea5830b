package agent

import (
	"context"
	"strings"
	"testing"

	"kumalak/env"
	"kumalak/env/envtest"
)

func TestGreedyTakesTheCapture(t *testing.T) {
	// Pit 1 ends in the empty pit 2 and captures black's 4 stones; pit 3
	// only drops one stone in the store.
	st, err := envtest.ParseKalah(envtest.Kalah3, "1,0,2/1,4,1 4 5 - - w 6")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(0); seed < 10; seed++ {
		g, err := New(envtest.Kalah3, "greedy", seed)
		if err != nil {
			t.Fatal(err)
		}
		if a, err := g.Move(context.Background(), st); err != nil || a != 0 {
			t.Fatalf("greedy: pit %d, %v; want pit 1", a.Pit(), err)
		}
	}
}

func TestGreedyExtraTurnBonus(t *testing.T) {
	// Pit 3 (1 stone) reaches the store and keeps the turn; pit 1 (2 stones)
	// gains nothing. Both gain no more than one stone.
	st, err := envtest.ParseKalah(envtest.Kalah3, "2,0,1/3,3,3 3 3 - - w 4")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		spec string
		want env.Action
	}{{"greedy", 2}, {"greedy:extra=-5", 0}} {
		g, err := New(envtest.Kalah3, tc.spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		if a, _ := g.Move(context.Background(), st); a != tc.want {
			t.Errorf("%s: pit %d, want %d", tc.spec, a.Pit(), tc.want.Pit())
		}
	}
}

func TestRandomIsLegalAndVaried(t *testing.T) {
	g, err := New(envtest.Kalah3, "random", 3)
	if err != nil {
		t.Fatal(err)
	}
	st := envtest.Kalah3.New()
	seen := map[env.Action]bool{}
	for i := 0; i < 100; i++ {
		a, err := g.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.CheckMove(st, a.Pit()); err != nil {
			t.Fatal(err)
		}
		seen[a] = true
	}
	if len(seen) != 3 {
		t.Errorf("random played %d different moves from the start, want 3", len(seen))
	}
}

func TestGameOver(t *testing.T) {
	st, _ := envtest.ParseKalah(envtest.Kalah3, "0,0,0/0,0,0 9 9 - - w 20")
	for _, s := range []string{"random", "greedy", "ab"} {
		g, err := New(envtest.Kalah3, s, 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Move(context.Background(), st); err != ErrGameOver {
			t.Errorf("%s on a finished game: %v, want ErrGameOver", s, err)
		}
	}
}

func TestSpecErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"", "empty kind"},
		{"alphabeta", `unknown kind "alphabeta"`},
		{"random:depth=3", "random takes no keys"},
		{"ab:dept=3", `unknown key "dept" (keys of ab: depth, time, tt, mob)`},
		{"ab:depth=x", "depth=x: not an integer"},
		{"ab:depth=0", "depth=0 out of range 1..60"},
		{"ab:depth=3,depth=4", `key "depth" given twice`},
		{"ab:depth", `option "depth" is not key=value`},
		{"ab:depth=", `option "depth=" is not key=value`},
		{"ab:time=fast", "time=fast: not a duration"},
		{"ab:time=-1s", "out of range"},
		{"greedy:extra=nan", "out of range"},
	} {
		_, err := New(envtest.Kalah3, tc.spec, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q): %v, want an error containing %q", tc.spec, err, tc.want)
		}
	}
	for _, s := range []string{"random", " ab : depth=2 , tt=0 ", "greedy:extra=0.5", "ab:time=10ms,depth=3"} {
		if _, err := New(envtest.Kalah3, s, 1); err != nil {
			t.Errorf("New(%q): %v", s, err)
		}
	}
}

func TestHelpListsEveryKindAndKey(t *testing.T) {
	h := Help()
	for _, k := range kinds {
		if !strings.Contains(h, "  "+k.name+" ") {
			t.Errorf("help lacks %s", k.name)
		}
		for _, kv := range k.keys {
			if !strings.Contains(h, kv.name+"=") {
				t.Errorf("help lacks %s's key %s", k.name, kv.name)
			}
		}
	}
	if got := strings.Join(Names(), ","); !strings.HasPrefix(got, "random,greedy,ab") {
		t.Errorf("Names() = %s", got)
	}
}

// TestMoveAllocs: once warm, choosing a move allocates nothing.
func TestMoveAllocs(t *testing.T) {
	for _, s := range []string{"random", "greedy", "mcts:sims=64,reuse=false"} {
		ag, err := New(envtest.Kalah3, s, 1)
		if err != nil {
			t.Fatal(err)
		}
		st := envtest.Kalah3.New()
		ctx := context.Background()
		for i := 0; i < 3; i++ { // warm up buffers
			if _, err := ag.Move(ctx, st); err != nil {
				t.Fatal(err)
			}
		}
		n := testing.AllocsPerRun(20, func() {
			if _, err := ag.Move(ctx, st); err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per Move, want 0", s, n)
		}
	}
}
