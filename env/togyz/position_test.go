package togyz

import (
	"strings"
	"testing"

	"kumalak/env"
)

const startPos = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w"

func TestStartPosition(t *testing.T) {
	b := New()
	if b.String() != startPos {
		t.Errorf("start = %q, want %q", b, startPos)
	}
	st, err := Spec.Start("")
	if err != nil || st.String() != startPos {
		t.Errorf("Spec.Start(\"\") = %v, %v", st, err)
	}
	if s, err := env.Lookup("togyz"); err != nil || s != Spec {
		t.Errorf("env.Lookup(togyz) = %v, %v", s, err)
	}
	if b.ToMove() != env.White || b.Store(env.White) != 0 || b.Pit(env.Black, 9) != 9 || b.Tuzdyk(env.Black) != 0 {
		t.Errorf("start accessors wrong:\n%s", b.Draw())
	}
}

func TestParseRoundTrip(t *testing.T) {
	for _, c := range ruleCases {
		for _, s := range []string{c.before, c.after} {
			b := mustParse(t, s)
			if b.String() != s {
				t.Errorf("round trip %q -> %q", s, b)
			}
		}
	}
	b := mustParse(t, " 09,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w\n")
	if b.String() != startPos {
		t.Errorf("leading zero and surrounding space: got %q", b)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ pos, want string }{
		{"", "pits: missing; want 6 fields separated by single spaces"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - -", "to move: missing; want 6 fields"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w x", "to move: followed by more fields; want 6 fields"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9  0 0 - - w", "white store: empty; fields are separated by single spaces"},
		{"9,9,9,9,9,9,9,9,9 0 0 - - w", "pits: want white's pits and black's pits"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9/9 0 0 - - w", "pits: want white's pits and black's pits"},
		{"9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,18 0 0 - - w", "pits: white has 8 pits, want 9"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9,0 0 0 - - w", "pits: black has 10 pits, want 9"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9, 0 9 - - w", "pits: black's pit 9: not a number"},
		{"9,9,x,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 9 - - w", "pits: white's pit 3: not a number"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,-1,9,9,9,9 0 10 - - w", "pits: black's pit 5: negative count -1"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,+9 0 0 - - w", "pits: black's pit 9: not a number"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,163 0 0 - - w", "pits: black's pit 9: count 163 is more than 162"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,99999999999999999999 0 0 - - w", "pits: black's pit 9: count 99999999999999999999 is more than 162"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 x 0 - - w", "white store: not a number"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 -2 2 - - w", "white store: negative count -2"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 1.5 - - w", "black store: not a number"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 -0 - - w", "black store: negative count -0"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 1 0 - - w", "pits and stores: stones add up to 163, want 162"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,8 0 0 - - w", "pits and stores: stones add up to 161, want 162"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 x - w", "white's special: want - or a pit number"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,0 0 9 9 - w", "white's special: pit 9 can't be a tuzdyk"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 0 - w", "white's special: pit 0 out of range 1..9"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 10 - w", "white's special: pit 10 out of range 1..9"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 3 - w", "white's special: black's pit 3 holds 9 stones, want an empty pit"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - 2 w", "black's special: white's pit 2 holds 9 stones, want an empty pit"},
		{"9,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,9 0 9 - 9 w", "black's special: pit 9 can't be a tuzdyk"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - -1 w", "black's special: want - or a pit number: negative count -1"},
		{"9,9,0,9,9,9,9,9,9/9,9,0,9,9,9,9,9,9 9 9 3 3 w", "black's special: both tuzdyks are pit 3"},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - x", `to move: want w or b, got "x"`},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - W", `to move: want w or b, got "W"`},
	}
	for _, c := range cases {
		_, err := Parse(c.pos)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want an error starting %q", c.pos, err, c.want)
		}
		if st, err := Spec.Parse(c.pos); st != nil || err == nil {
			t.Errorf("Spec.Parse(%q) = %v, %v; want a nil State and an error", c.pos, st, err)
		}
	}
}

// TestParseTerminal: positions with a kazan of 82 or more, or an empty row
// to move, are accepted.
func TestParseTerminal(t *testing.T) {
	for _, s := range []string{
		"0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 162 0 - - w",
		"0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 81 81 4 6 b",
		"1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 79 82 - - w",
	} {
		b := mustParse(t, s)
		if b.Result() == env.Ongoing {
			t.Errorf("%s parsed as not terminal", s)
		}
	}
}

// TestStringAllocs: String allocates only the string it returns.
func TestStringAllocs(t *testing.T) {
	b := mustParse(t, "9,9,0,9,9,9,9,9,9/9,9,0,9,9,9,9,9,9 9 9 3 - b")
	if n := testing.AllocsPerRun(100, func() { _ = b.String() }); n > 1 {
		t.Errorf("String: %v allocations, want at most 1", n)
	}
}
