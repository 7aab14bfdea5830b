package agent

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"kumalak/env"
	"kumalak/env/envtest"
	"kumalak/net"
	"kumalak/net/tinynet"
)

// saveModel writes a randomly initialised network for the toy game.
func saveModel(t *testing.T, card *net.Card) string {
	t.Helper()
	spec := envtest.Kalah3
	return tinynet.Save(t, tinynet.Model(tinynet.Game{Name: spec.Name, ObsVersion: spec.ObsVersion, ObsLen: spec.ObsLen, Actions: spec.NumActions}, 1, card))
}

func TestModelPlaysAGame(t *testing.T) {
	path := saveModel(t, &net.Card{Search: net.Search{Sims: 64}})
	ag, err := New(envtest.Kalah3, "model:path="+path+",batch=4", 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := ag.(*searcher).lim.Sims; got != 64 {
		t.Errorf("sims %d, want the card's 64", got)
	}
	st := envtest.Kalah3.New()
	for ply := 0; st.Result() == env.Ongoing; ply++ {
		a, err := ag.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if an := ag.(Analyzer).Analysis(); ply == 0 && (an.Nodes < 64 || len(an.Moves) != 3 || an.PV[0] != a) {
			t.Errorf("first move %d, analysis %+v", a.Pit(), an)
		}
		if _, err := env.CheckMove(st, a.Pit()); err != nil {
			t.Fatal(err)
		}
		st.Apply(a)
		ag.(Observer).Played(a, st)
	}
}

// TestModelUnshipped: the model agent of a game with no shipped model
// (the tests' Kalah) plays the mcts agent's rollouts under the spec's
// limits.
func TestModelUnshipped(t *testing.T) {
	for _, spec := range []string{"model", "model:sims=40,temp=0.5"} {
		ag, err := New(envtest.Kalah3, spec, 1)
		if err != nil {
			t.Fatalf("New(%q): %v", spec, err)
		}
		st := envtest.Kalah3.New()
		a, err := ag.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.CheckMove(st, a.Pit()); err != nil {
			t.Errorf("%s: %v", spec, err)
		}
	}
}

func TestModelErrors(t *testing.T) {
	path := saveModel(t, nil)
	for _, tc := range []struct {
		spec string
		want string
	}{
		{"model:path=" + filepath.Join(t.TempDir(), "none.kmodel"), "no such file"},
		{"model:path=" + path + ",batch=0", "batch=0 out of range"},
	} {
		_, err := New(envtest.Kalah3, tc.spec, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q): %v, want %q", tc.spec, err, tc.want)
		}
	}
	other := *envtest.Kalah3
	other.Name = "other"
	if _, err := New(&other, "model:path="+path, 1); !errors.Is(err, net.ErrWrongModel) {
		t.Errorf("another game's model: %v", err)
	}
}
