package models_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"kumalak/agent"
	"kumalak/env"
	_ "kumalak/env/games"
	"kumalak/models"
	"kumalak/net"
)

// shipped are the games that must have a shipped model.
var shipped = []string{"kalah", "mangala", "mangala-kale", "togyz"}

func TestGames(t *testing.T) {
	if got := models.Games(); !slices.Equal(got, shipped) {
		t.Fatalf("Games() = %v, want %v", got, shipped)
	}
	for _, g := range []string{"", "chess", "../togyz", "togyz.kmodel"} {
		if _, err := models.Bytes(g); !errors.Is(err, models.ErrNone) {
			t.Errorf("Bytes(%q): %v, want ErrNone", g, err)
		}
	}
}

// TestFactsModel: a game's env.Facts.Model names a shipped model, and
// every shipped model is some game's.
func TestFactsModel(t *testing.T) {
	named := map[string]bool{}
	for _, g := range env.Games() {
		spec, err := env.Lookup(g)
		if err != nil {
			t.Fatal(err)
		}
		if m := spec.Facts.Model; m != "" {
			named[m] = true
			if _, err := models.Bytes(m); err != nil {
				t.Errorf("%s: Facts.Model %q: %v", g, m, err)
			}
		}
	}
	for _, m := range models.Games() {
		if !named[m] {
			t.Errorf("shipped model %s is no game's Facts.Model", m)
		}
	}
}

// TestShipped loads each shipped model, checks that it fits its game and
// that its card says how it was made, then plays a whole game with it.
func TestShipped(t *testing.T) {
	for _, game := range shipped {
		t.Run(game, func(t *testing.T) {
			b, err := models.Bytes(game)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) > 1<<20 {
				t.Errorf("%s: %d bytes, want a few hundred KB", game, len(b))
			}
			m, err := net.Unmarshal(b)
			if err != nil {
				t.Fatal(err)
			}
			spec, err := env.Lookup(game)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Meta.Fits(spec.Name, spec.ObsVersion); err != nil {
				t.Fatal(err)
			}
			checkCard(t, m.Meta.Card, game)
			playGame(t, spec)
		})
	}
}

func checkCard(t *testing.T, c *net.Card, game string) {
	t.Helper()
	switch {
	case c == nil:
		t.Fatal("no model card")
	case c.Game != game:
		t.Errorf("card game %q", c.Game)
	case c.TrainingSec <= 0 || c.Games <= 0 || c.Samples <= 0:
		t.Errorf("card: training %v s, %d games, %d samples", c.TrainingSec, c.Games, c.Samples)
	case c.CPU == "" || c.Command == "":
		t.Errorf("card: cpu %q, command %q", c.CPU, c.Command)
	case c.Anchors == nil || c.Rating == nil:
		t.Errorf("card: no rating on the baselines' scale")
	case c.Elo["ab:depth=8"].Games < 40 || c.Elo["ab:depth=8"].Sims == 0:
		t.Errorf("card: no 40-game measurement against ab:depth=8: %+v", c.Elo["ab:depth=8"])
	}
}

// playGame plays the shipped model (few simulations) against itself to the
// end, checking every move against the legal ones.
func playGame(t *testing.T, spec *env.Spec) {
	t.Helper()
	var ag [2]agent.Agent
	for i := range ag {
		a, err := agent.New(spec, "model:sims=4", uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		ag[i] = a
	}
	st := spec.New()
	var legal []env.Action
	for ply := 0; st.Result() == env.Ongoing; ply++ {
		if ply > 2000 {
			t.Fatal("game did not end in 2000 plies")
		}
		a, err := ag[st.ToMove()].Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		legal = st.Legal(legal[:0])
		if !slices.Contains(legal, a) {
			t.Fatalf("ply %d: move %d not in %v", ply, a, legal)
		}
		st.Apply(a)
	}
}
