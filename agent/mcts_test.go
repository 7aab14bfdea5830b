package agent

import (
	"context"
	"strings"
	"testing"

	"kumalak/env"
	"kumalak/env/envtest"
)

func TestMCTSFindsForcedWin(t *testing.T) {
	st, err := envtest.ParseKalah(envtest.Kalah3, "0,2,1/0,1,1 7 6 - - w 10")
	if err != nil {
		t.Fatal(err)
	}
	ag, err := New(envtest.Kalah3, "mcts:sims=400", 1)
	if err != nil {
		t.Fatal(err)
	}
	a, err := ag.Move(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	an := ag.(Analyzer).Analysis()
	if a != 2 || an.PV[0] != 2 || an.Value < 0.9 || len(an.Moves) != 2 {
		t.Errorf("move %d, analysis %+v; want pit 3, winning", a.Pit(), an)
	}
}

// TestMCTSTreeReuse: after Played, the next search starts from the kept
// subtree, so the root has more visits than one Move adds.
func TestMCTSTreeReuse(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		reuse bool
	}{{"mcts:sims=300", true}, {"mcts:sims=300,reuse=false", false}} {
		ag, err := New(envtest.Kalah3, tc.spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		st := envtest.Kalah3.New()
		for ply := 0; ply < 4; ply++ {
			a, err := ag.Move(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			if ply > 0 {
				an := ag.(Analyzer).Analysis()
				if n := an.Visits; tc.reuse != (n > 300) || an.Nodes > 300 {
					t.Errorf("%s ply %d: %d root visits, %d simulations added", tc.spec, ply, n, an.Nodes)
				}
			}
			st.Apply(a)
			ag.(Observer).Played(a, st)
		}
	}
}

// TestMCTSWithoutPlayed: a caller that skips Played still gets moves for
// the positions it passes.
func TestMCTSWithoutPlayed(t *testing.T) {
	ag, err := New(envtest.Kalah3, "mcts:sims=50", 1)
	if err != nil {
		t.Fatal(err)
	}
	st := envtest.Kalah3.New()
	var buf [8]env.Action
	for st.Result() == env.Ongoing {
		a, err := ag.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.CheckMove(st, a.Pit()); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
		st.Apply(a)
		if moves := st.Legal(buf[:0]); len(moves) > 0 {
			st.Apply(moves[0]) // the opponent, unseen by the agent
		}
	}
}

func TestMCTSSpecErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"mcts:sims=0", "sims=0 needs time="},
		{"mcts:rollouts=0", "rollouts=0 out of range"},
		{"mcts:cpuct=0", "out of range"},
		{"mcts:solver=maybe", "not true or false"},
	} {
		_, err := New(envtest.Kalah3, tc.spec, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q): %v, want an error containing %q", tc.spec, err, tc.want)
		}
	}
	if _, err := New(envtest.Kalah3, "mcts:time=10ms", 1); err != nil {
		t.Error(err)
	}
}
