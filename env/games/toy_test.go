package games_test

import (
	"context"
	"testing"

	"kumalak/agent"
	"kumalak/arena"
	"kumalak/env"
	"kumalak/env/envtest"
	"kumalak/env/kalah"
)

// toy is the test's own game, in this file alone: Kalah's rules on 3 houses
// of 2 seeds under another name, with its own per-game facts. Registering
// it is all it takes for the rest of kumalak to know it.
type toy struct{ *kalah.Board }

var toySpec = func() *env.Spec {
	r := kalah.Rules{Houses: 3, Seeds: 2}
	s := kalah.NewSpec("toy-one-folder", r)
	s.New = func() env.State { return &toy{kalah.New(s, r)} }
	s.Parse = func(p string) (env.State, error) {
		b, err := kalah.Parse(s, p)
		if err != nil {
			return nil, err
		}
		return &toy{b}, nil
	}
	s.Facts.Names = env.Names{KK: "Ойыншық", RU: "Игрушка", TR: "Oyuncak", EN: "Toy"}
	s.Facts.Words = env.Words{Store: "bank"}
	s.Facts.Calibration = env.Calibration{Slope: 0.75, DrawBand: 0.125}
	s.Facts.Balance = env.Balance{Depth: 3, Margin: 2.5}
	env.Register(s)
	return s
}()

func (t *toy) CopyFrom(src env.State) { c := *src.(*toy).Board; t.Board = &c }

// TestToyGame: the facts the toy's folder (this file) provides reach the
// calibration of alpha-beta, the balanced openings of matches and the
// words of boards, and agents play it, with no edit anywhere else.
func TestToyGame(t *testing.T) {
	if err := envtest.CheckFacts(toySpec); err != nil {
		t.Fatal(err)
	}
	envtest.Run(t, toySpec, 20, 1)
	if c, ok := agent.CalibrationOf(toySpec.Name); !ok || c.K != 0.75 || c.Draw != 0.125 {
		t.Errorf("calibration %+v, %v", c, ok)
	}
	if b, ok := arena.BalanceOf(toySpec.Name); !ok || b.Depth != 3 || b.Margin != 2.5 {
		t.Errorf("balance %+v, %v", b, ok)
	}
	st := toySpec.New()
	if w := env.WordsOf(st); w.Store != "bank" {
		t.Errorf("words %+v", w)
	}
	ab, err := agent.New(toySpec, "ab:depth=3", 1)
	if err != nil {
		t.Fatal(err)
	}
	for st.Result() == env.Ongoing {
		a, err := ab.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		st.Apply(a)
	}
}
