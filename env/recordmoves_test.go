package env_test

import (
	"testing"

	"kumalak/env"
	"kumalak/env/envtest"
)

func TestIsMoveText(t *testing.T) {
	cases := []struct {
		text string
		want bool
	}{
		{"4 3 6 1", true},
		{"1. 76(10) 98", true},
		{"1... 98 1-0", true},
		{"12x", true},
		{"", false},
		{"   ", false},
		{"game.txt", false},
		{"-", false},
		{"4 3 games.kgn", false},
	}
	for _, c := range cases {
		if got := env.IsMoveText(c.text); got != c.want {
			t.Errorf("IsMoveText(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestRecordOfMoves: the result is the one the moves reach, or the result
// that ends the text, a game ended off the board getting its Termination.
func TestRecordOfMoves(t *testing.T) {
	spec, err := env.Lookup("mangala")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		text   string
		result env.Result
		term   string
		moves  int
		err    string
	}{
		{"4 3", env.Ongoing, "", 2, ""},
		{"1. 4 3 *", env.Ongoing, "", 2, ""},
		{"4 3 1-0", env.WhiteWins, env.OffBoard, 2, ""},
		{"1. 4 3 0-1", env.BlackWins, env.OffBoard, 2, ""},
		{"4 7", 0, "", 0, "mangala: move 2 (7): illegal move: pit 7 out of range 1..6"},
	}
	for _, c := range cases {
		g, err := spec.RecordOfMoves(spec.New(), c.text)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: error %v, want %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil || g.Result != c.result || g.Tag("Termination") != c.term || len(g.Moves) != c.moves || g.Spec != spec {
			t.Errorf("%q: %+v, %v; want result %s, termination %q, %d moves", c.text, g, err, c.result, c.term, c.moves)
		}
	}

	// A game played to its end has the result it reached and no Termination.
	k := envtest.Kalah3
	st := k.New()
	var moves []env.Action
	var buf [env.MaxActions]env.Action
	for st.Result() == env.Ongoing {
		a := st.Legal(buf[:0])[0]
		moves = append(moves, a)
		st.Apply(a)
	}
	text, err := k.FormatMoves(k.New(), moves)
	if err != nil {
		t.Fatal(err)
	}
	g, err := k.RecordOfMoves(k.New(), text)
	if err != nil || g.Result != st.Result() || g.Tag("Termination") != "" || len(g.Moves) != len(moves) {
		t.Errorf("a finished game %q: %+v, %v; want result %s", text, g, err, st.Result())
	}
	other := env.WhiteWins
	if st.Result() == env.WhiteWins {
		other = env.BlackWins
	}
	if _, err := k.RecordOfMoves(k.New(), text+" "+other.String()); err == nil {
		t.Errorf("a finished game with another result: no error")
	}
	// From a position: the start is the record's.
	after, _ := k.Replay("", []int{1})
	if g, err := k.RecordOfMoves(after, "1"); err == nil && g.Start != after {
		t.Errorf("the record's start is not the position given")
	}
}

// FuzzRecordOfMoves: any text is refused or makes a record that replays to
// its end with a result that agrees with a finished game.
func FuzzRecordOfMoves(f *testing.F) {
	for _, s := range []string{"4 3", "4 3 1-0", "1. 76(10) 76(10) 1/2-1/2", "7 9 5 5 *", "games.kgn", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, name := range env.Games() {
			spec, _ := env.Lookup(name)
			g, err := spec.RecordOfMoves(spec.New(), text)
			if err != nil {
				continue
			}
			final, err := g.Final()
			if err != nil {
				t.Fatalf("%s %q: the record does not replay: %v", name, text, err)
			}
			if r := final.Result(); r != env.Ongoing && g.Result != r {
				t.Fatalf("%s %q: result %s, the moves reach %s", name, text, g.Result, r)
			}
			if len(g.Moves) > 0 && g.Result != env.Ongoing && final.Result() == env.Ongoing && g.Tag("Termination") != env.OffBoard {
				t.Fatalf("%s %q: a game ended off the board without its Termination", name, text)
			}
		}
	})
}
