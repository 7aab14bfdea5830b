package env_test

import (
	"strings"
	"testing"

	"kumalak/env"
)

// TestParseMovesNotes: the notes other programs write after a move (PlayOK's
// store in parentheses, the page's capture and extra-turn marks, the page's
// side labels and ellipsis) are read and checked against the replay.
func TestParseMovesNotes(t *testing.T) {
	cases := []struct {
		clause, game, rec string
		want              []int // pits played; nil: refused
		err               string
	}{
		{"PlayOK's store after a capture", "togyz", "1. 76(10) 76(10) 2. 99 89(12)", []int{7, 7, 9, 8}, ""},
		{"a store that is not the replay's", "togyz", "1. 76(10) 76(11)", nil, "togyz: move 2 (76(11)): black's kazan holds 10 after it, but the record says 11"},
		{"a store on a move without a capture", "togyz", "1. 76(10) 98(10)", nil, "togyz: move 2 (98(10)): black's kazan holds 0 after it, but the record says 10"},
		{"X and x both mark a tuzdyk", "togyz", "1. 21 65 2. 34 22X", []int{2, 6, 3, 2}, ""},
		{"a tuzdyk with its store", "togyz", "1. 21 65 2. 34 22X(3)", []int{2, 6, 3, 2}, ""},
		{"the page's capture", "togyz", "1. 76+10 98", []int{7, 9}, ""},
		{"a capture that is not the replay's", "togyz", "1. 76+9", nil, "togyz: move 1 (76+9): it captured 10, but the record says 9"},
		{"a tuzdyk's stones are a capture", "togyz", "1. 21 65 2. 34 22x+3", []int{2, 6, 3, 2}, ""},
		{"the page's ellipsis and labels", "mangala", "white 4↻ white 3 black 6", []int{4, 3, 6}, ""},
		{"the page's extra turn", "mangala", "4↻ 3", []int{4, 3}, ""},
		{"an extra turn that is not", "mangala", "3↻", nil, "mangala: move 1 (3↻): white does not move again after it, but the record says so (↻)"},
		{"a label that is not the mover", "mangala", "white 4 black 3", nil, "mangala: move 2 (3): the record says black moves, but it is white's turn"},
		{"two labels", "mangala", "white black 4", nil, "mangala: white, then black, without a move between"},
		{"a label without its move", "mangala", "4 white", nil, "mangala: white without a move after it"},
		{"two notes", "mangala", "4+0↻ 3", []int{4, 3}, ""},
		{"the page's black-first ellipsis", "togyz", "… 76", []int{7}, ""},
		{"a note given twice", "togyz", "76(10)(10)", nil, `togyz: move 1 (76(10)(10)): unexpected "(10)" after the move`},
		{"an unclosed store", "togyz", "76(10", nil, "togyz: move 1 (76(10): want the mover's store after the move as (N), e.g. 76(10)"},
		{"an empty store", "togyz", "76()", nil, "togyz: move 1 (76()): want the mover's store after the move as (N)"},
		{"a store with a leading zero", "togyz", "76(010)", nil, "togyz: move 1 (76(010)): want the mover's store after the move as (N)"},
		{"a capture without its number", "togyz", "76+", nil, "togyz: move 1 (76+): want the stones captured as +N, e.g. 76+10"},
		{"a note without a move", "togyz", "(10)", nil, "togyz: move 1 ((10)): want a move before its notes"},
		{"text after the notes", "togyz", "76(10)x", nil, `togyz: move 1 (76(10)x): unexpected "x" after the move`},
		{"a bad move under good notes", "togyz", "75(10)", nil, "togyz: move 1 (75(10)): last stone fell in pit 6"},
	}
	for _, c := range cases {
		spec, err := env.Lookup(c.game)
		if err != nil {
			t.Fatal(err)
		}
		moves, err := spec.ParseMoves(spec.New(), c.rec)
		if c.want == nil {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%s: %s %q: %v, want %q", c.clause, c.game, c.rec, err, c.err)
			}
			continue
		}
		if err != nil || len(moves) != len(c.want) {
			t.Errorf("%s: %s %q: %v, %v, want pits %v", c.clause, c.game, c.rec, env.Pits(moves), err, c.want)
			continue
		}
		for i, a := range moves {
			if a.Pit() != c.want[i] {
				t.Errorf("%s: %s %q: pits %v, want %v", c.clause, c.game, c.rec, env.Pits(moves), c.want)
				break
			}
		}
	}
}

// TestRecordTermination: a game whose moves stop before its end under a
// result other than * says so with a Termination tag, unless it has one.
func TestRecordTermination(t *testing.T) {
	cases := []struct{ text, want string }{
		{"[Game \"togyz\"]\n[Result \"1-0\"]\n\n1. 76(10) 76(10) 1-0", env.OffBoard},
		{"[Game \"togyz\"]\n\n1. 76 98 1/2-1/2", env.OffBoard},
		{"[Game \"togyz\"]\n[Result \"0-1\"]\n\n1. 76", env.OffBoard},
		{"[Game \"togyz\"]\n[Termination \"time forfeit\"]\n\n1. 76 0-1", "time forfeit"},
		{"[Game \"togyz\"]\n\n1. 76 *", ""},
		{"[Game \"togyz\"]\n\n1. 1-0", ""},
		{"[Game \"togyz\"]\n\n1. 76", ""},
		{"[Game \"mangala\"]\n[Position \"0,0,0,0,0,1/0,0,0,0,0,1 23 23 - - w\"]\n\n6 1-0", ""},
	}
	for _, c := range cases {
		games, err := env.ReadRecords(strings.NewReader(c.text), nil)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if got := games[0].Tag("Termination"); got != c.want {
			t.Errorf("%q: Termination %q, want %q", c.text, got, c.want)
		}
	}
}

// TestRecordGameHint: a record without a Game tag is read as the default
// game, and when its moves are another game's, the error says which.
func TestRecordGameHint(t *testing.T) {
	mangala, _ := env.Lookup("mangala")
	togyz, _ := env.Lookup("togyz")
	cases := []struct {
		text string
		def  *env.Spec
		want string
	}{
		{"[Site \"PlayOK\"]\n\n1. 76(10) 76(10) 2. 99", mangala, `env: record game 1, line 3: mangala: move 1 (76(10)): illegal move: pit 76 out of range 1..6 (the record has no Game tag, so it was read as mangala; its moves read as [Game "togyz"]: add that tag)`},
		{"1. 76 98 2. 55 12x", mangala, "env: record game 1, line 1: mangala: move 1 (76): illegal move: pit 76 out of range 1..6"},
		{"[Game \"mangala\"]\n\n76", togyz, "env: record game 1, line 3: mangala: move 1 (76): illegal move: pit 76 out of range 1..6"},
	}
	for _, c := range cases {
		_, err := env.ReadRecords(strings.NewReader(c.text), c.def)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.text, err, c.want)
		}
	}
}

// TestPlayOKForm: whole games of every game written in PlayOK's form read
// back the same, and the form's names parse.
func TestPlayOKForm(t *testing.T) {
	for _, name := range env.Games() {
		spec, _ := env.Lookup(name)
		st := spec.New()
		g := &env.GameRecord{Spec: spec}
		var buf [env.MaxActions]env.Action
		for i := 0; st.Result() == env.Ongoing; i++ {
			moves := st.Legal(buf[:0])
			a := moves[(i*5+1)%len(moves)]
			st.Apply(a)
			g.Moves = append(g.Moves, a)
		}
		g.Result = st.Result()
		text, err := g.TextIn(env.PlayOK)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(text, ")") {
			t.Errorf("%s: no capture noted:\n%s", name, text)
		}
		back, err := env.ReadRecords(strings.NewReader(text), nil)
		if err != nil || len(back) != 1 || len(back[0].Moves) != len(g.Moves) || back[0].Result != g.Result {
			t.Fatalf("%s: read back %v, %v\n%s", name, back, err, text)
		}
	}
	for i, name := range env.Forms {
		if f, err := env.ParseForm(name); err != nil || f != env.Form(i) {
			t.Errorf("ParseForm(%q) = %v, %v", name, f, err)
		}
	}
	if _, err := env.ParseForm("pgn"); err == nil || err.Error() != `env: record form "pgn": want kgn or playok` {
		t.Errorf("ParseForm(pgn): %v", err)
	}
}

// FuzzMoveNotes feeds every game's move reader text with notes: it never
// panics, an error names the game, and what it accepts, written in
// PlayOK's form, reads back the same moves.
func FuzzMoveNotes(f *testing.F) {
	for _, s := range []string{"1. 76(10) 76(10) 2. 99 89(12)", "1. 76+10 98", "56X 14x", "white 4↻ white 3 black 6+2",
		"… 76", "4+0↻ 3", "76(10)(10)", "76(", "+3", "1. 21 65 2. 34 22X(3) 1-0", "4↻ black 1", "76(9999999)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rec string) {
		for _, name := range env.Games() {
			spec, _ := env.Lookup(name)
			moves, err := spec.ParseMoves(spec.New(), rec)
			if err != nil {
				if !strings.HasPrefix(err.Error(), name+": ") {
					t.Fatalf("%s %q: error %q does not name the game", name, rec, err)
				}
				continue
			}
			g := &env.GameRecord{Spec: spec, Moves: moves}
			if final, err := g.Final(); err == nil {
				g.Result = final.Result()
			}
			text, err := g.TextIn(env.PlayOK)
			if err != nil {
				t.Fatalf("%s %q: %v", name, rec, err)
			}
			back, err := env.ReadRecords(strings.NewReader(text), nil)
			if err != nil || len(back) != 1 || len(back[0].Moves) != len(moves) {
				t.Fatalf("%s %q: written as %q, read back %v, %v", name, rec, text, back, err)
			}
		}
	})
}
