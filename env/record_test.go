package env_test

import (
	"strings"
	"testing"

	"kumalak/env"
	_ "kumalak/env/games" // registers every game
)

func TestParseMoves(t *testing.T) {
	cases := []struct {
		game, rec string
		want      []int // pits played; nil: refused
		err       string
	}{
		{"mangala", "4 3", []int{4, 3}, ""},
		{"mangala", "1. 4 3 *", []int{4, 3}, ""},
		{"mangala", "", []int{}, ""},
		{"mangala", "4 7", nil, "mangala: move 2 (7): illegal move: pit 7 out of range 1..6"},
		{"mangala", "4 x", nil, "mangala: move 2 (x): want a pit number"},
		{"mangala", "04", nil, "mangala: move 1 (04): want a pit number"},
		{"mangala", "44", nil, "mangala: move 1 (44): illegal move: pit 44 out of range 1..6"},
		{"mangala", "4 1-0 3", nil, "mangala: record: result 1-0 before the last move"},
		{"togyz", "1. 21 65 2. 34 22x", []int{2, 6, 3, 2}, ""},
		{"togyz", "1. 7 9 2. 5 1", []int{7, 9, 5, 1}, ""},
		{"togyz", "1. 76 98 2. 55 12x", nil, "togyz: move 4 (12x): no tuzdyk was made"},
		{"togyz", "71", nil, "togyz: move 1 (71): last stone fell in pit 6"},
		{"togyz", "1. 21 65 2. 34 22", nil, "togyz: move 4 (22): it made a tuzdyk: write 22x"},
	}
	for _, c := range cases {
		spec, err := env.Lookup(c.game)
		if err != nil {
			t.Fatal(err)
		}
		start := spec.New()
		moves, err := spec.ParseMoves(start, c.rec)
		if start.String() != spec.New().String() {
			t.Fatalf("%s %q: ParseMoves changed the start", c.game, c.rec)
		}
		if c.want == nil {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s %q: %v, want %q", c.game, c.rec, err, c.err)
			}
			continue
		}
		if err != nil || len(moves) != len(c.want) {
			t.Errorf("%s %q: %v, %v, want %v", c.game, c.rec, moves, err, c.want)
			continue
		}
		for i, a := range moves {
			if a.Pit() != c.want[i] {
				t.Errorf("%s %q: %v, want pits %v", c.game, c.rec, moves, c.want)
				break
			}
		}
	}
}

// FuzzParseMoves feeds every game's record reader arbitrary text: it never
// panics, and what it accepts plays legally from the start and reads back
// the same from the game's own notation.
func FuzzParseMoves(f *testing.F) {
	for _, s := range []string{"1. 21 65 2. 34 22x", "4 3", "1... 98 1-0", "7 9 5 5 *", "12x", "99", "1.. 2", "1. 76(10) 76(10) 2. 99 89(12)", "56X", "4↻ 3+0", "… 98"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rec string) {
		for _, name := range env.Games() {
			spec, _ := env.Lookup(name)
			start := spec.New()
			moves, err := spec.ParseMoves(start, rec)
			if err != nil {
				if !strings.HasPrefix(err.Error(), name+": ") {
					t.Fatalf("%s %q: error %q does not name the game", name, rec, err)
				}
				continue
			}
			st := spec.New()
			for _, a := range moves {
				if _, err := env.CheckMove(st, a.Pit()); err != nil {
					t.Fatalf("%s %q: accepted an illegal move: %v", name, rec, err)
				}
				st.Apply(a)
			}
			text, err := spec.FormatMoves(start, moves)
			if err != nil {
				t.Fatalf("%s %q: %v", name, rec, err)
			}
			back, err := spec.ParseMoves(start, text)
			if err != nil || len(back) != len(moves) {
				t.Fatalf("%s %q: %q read back as %v, %v", name, rec, text, back, err)
			}
		}
	})
}
