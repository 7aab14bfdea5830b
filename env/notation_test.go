package env_test

import (
	"strings"
	"testing"

	"kumalak/env"
	_ "kumalak/env/games" // registers every game
)

// TestNoteMoves: each move gets its token and the number written before
// it, in togyz from white's and from black's first move; a mangala writes
// no numbers.
func TestNoteMoves(t *testing.T) {
	cases := []struct {
		game     string
		first    []int // played before the moves noted
		pits     []int
		numbers  string // the moves' Number fields joined by "|"
		text     string // MoveText
		formated string // FormatMoves
	}{
		{"togyz", nil, []int{2, 6, 3, 2}, "1.||2.|", "21 65 34 22x", "1. 21 65 2. 34 22x"},
		{"togyz", []int{2}, []int{6, 3}, "1...|2.", "65 34", "1... 65 2. 34"},
		{"togyz", nil, nil, "", "", ""},
		{"mangala", nil, []int{4, 3}, "|", "4 3", "4 3"},
	}
	for _, c := range cases {
		spec, err := env.Lookup(c.game)
		if err != nil {
			t.Fatal(err)
		}
		start := spec.New()
		if err := env.Replay(start, c.first); err != nil {
			t.Fatal(err)
		}
		before := start.String()
		moves := make([]env.Action, len(c.pits))
		for i, p := range c.pits {
			moves[i] = env.Action(p - 1)
		}
		noted, err := spec.NoteMoves(start, moves)
		if err != nil {
			t.Fatalf("%s %v: %v", c.game, c.pits, err)
		}
		nums := make([]string, len(noted))
		for i, m := range noted {
			nums[i] = m.Number
		}
		if got := strings.Join(nums, "|"); got != c.numbers || len(noted) != len(moves) {
			t.Errorf("%s %v: numbers %q, want %q", c.game, c.pits, got, c.numbers)
		}
		if got, err := spec.MoveText(start, moves); err != nil || got != c.text {
			t.Errorf("%s %v: MoveText %q, %v, want %q", c.game, c.pits, got, err, c.text)
		}
		if got, err := spec.FormatMoves(start, moves); err != nil || got != c.formated {
			t.Errorf("%s %v: FormatMoves %q, %v, want %q", c.game, c.pits, got, err, c.formated)
		}
		if start.String() != before {
			t.Errorf("%s %v: NoteMoves changed the start", c.game, c.pits)
		}
	}
	spec, _ := env.Lookup("togyz")
	if _, err := spec.NoteMoves(spec.New(), []env.Action{0, 99}); err == nil {
		t.Error("NoteMoves of an illegal move: no error")
	}
}

func TestIsMoveToken(t *testing.T) {
	cases := []struct {
		tok  string
		want bool
	}{
		{"5", true}, {"36x", true}, {"36X", true}, {"12.", true}, {"3...", true},
		{"1-0", true}, {"1/2-1/2", true}, {"*", true},
		{"76(10)", true}, {"56X(13)", true}, {"76+10", true}, {"4↻", true}, {"4+2↻", true}, {"…", true}, {"1…", true},
		{"(10)", false}, {"76(10", false}, {"76+", false}, {"white", false},
		{"", false}, {"-", false}, {"x", false}, {"game.txt", false}, {"5y", false}, {"../5", false},
	}
	for _, c := range cases {
		if got := env.IsMoveToken(c.tok); got != c.want {
			t.Errorf("IsMoveToken(%q) = %v, want %v", c.tok, got, c.want)
		}
	}
}

// FuzzNoteMoves plays the moves the input picks from every game's start:
// NoteMoves gives one entry a move, its tokens are move text that reads
// back as the same moves, and numbers and tokens joined are FormatMoves's
// text.
func FuzzNoteMoves(f *testing.F) {
	for _, s := range []string{"", "\x00\x01\x02", "\x05\x05\x05\x05\x05\x05\x05\x05", "\xff\x10\x33"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, picks []byte) {
		for _, name := range env.Games() {
			spec, _ := env.Lookup(name)
			start := spec.New()
			st := spec.New()
			var moves []env.Action
			var buf [env.MaxActions]env.Action
			for _, p := range picks {
				legal := st.Legal(buf[:0])
				if len(legal) == 0 {
					break
				}
				a := legal[int(p)%len(legal)]
				st.Apply(a)
				moves = append(moves, a)
			}
			noted, err := spec.NoteMoves(start, moves)
			if err != nil || len(noted) != len(moves) {
				t.Fatalf("%s %v: %d noted, %v", name, moves, len(noted), err)
			}
			var words []string
			for _, m := range noted {
				if !env.IsMoveToken(m.Text) || m.Number != "" && !env.IsMoveNumber(m.Number) {
					t.Fatalf("%s %v: noted %+v", name, moves, m)
				}
				if m.Number != "" {
					words = append(words, m.Number)
				}
				words = append(words, m.Text)
			}
			rec, _ := spec.FormatMoves(start, moves)
			if strings.Join(words, " ") != rec {
				t.Fatalf("%s: noted %v, FormatMoves %q", name, noted, rec)
			}
			text, _ := spec.MoveText(start, moves)
			back, err := spec.ParseMoves(start, text)
			if err != nil || len(back) != len(moves) {
				t.Fatalf("%s: MoveText %q read back as %v, %v", name, text, back, err)
			}
		}
	})
}
