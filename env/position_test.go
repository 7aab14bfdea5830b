package env

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// A game with one pit a side and two stones: the smallest ParsePosition takes.
const (
	tinyPits   = 1
	tinyStones = 2
)

func TestParsePosition(t *testing.T) {
	cases := []struct {
		s            string
		pits, stones int
		want         Position
		canonical    string // String of the result; "" means s itself
	}{
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w", 9, 162, Position{
			Pits: [2][]int{{9, 9, 9, 9, 9, 9, 9, 9, 9}, {9, 9, 9, 9, 9, 9, 9, 9, 9}},
		}, ""},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", 6, 48, Position{
			Pits: [2][]int{{4, 4, 4, 4, 4, 4}, {4, 4, 4, 4, 4, 4}},
		}, ""},
		{"3,0,5,5,5,2/0,3,0,3,3,3 10 6 3 2 b", 6, 48, Position{
			Pits:    [2][]int{{3, 0, 5, 5, 5, 2}, {0, 3, 0, 3, 3, 3}},
			Stores:  [2]int{10, 6},
			Special: [2]int{3, 2},
			ToMove:  Black,
		}, ""},
		{"0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 162 0 9 9 b", 9, 162, Position{
			Pits:    [2][]int{make([]int, 9), make([]int, 9)},
			Stores:  [2]int{162, 0},
			Special: [2]int{9, 9},
			ToMove:  Black,
		}, ""},
		{" \t007,0/0,0 0 0 - 02 w\n", 2, 7, Position{
			Pits:    [2][]int{{7, 0}, {0, 0}},
			Special: [2]int{0, 2},
		}, "7,0/0,0 0 0 - 2 w"},
		{"2/0 0 0 1 - b", tinyPits, tinyStones, Position{
			Pits:    [2][]int{{2}, {0}},
			Special: [2]int{1, 0},
			ToMove:  Black,
		}, ""},
		{"0/0 0 0 - - w", 1, 0, Position{Pits: [2][]int{{0}, {0}}}, ""},
	}
	for _, c := range cases {
		got, err := ParsePosition(c.s, c.pits, c.stones)
		if err != nil {
			t.Errorf("ParsePosition(%q, %d, %d): %v", c.s, c.pits, c.stones, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParsePosition(%q, %d, %d) = %+v, want %+v", c.s, c.pits, c.stones, got, c.want)
		}
		want := c.canonical
		if want == "" {
			want = c.s
		}
		if got.String() != want {
			t.Errorf("ParsePosition(%q).String() = %q, want %q", c.s, got, want)
		}
		if back := string(got.Append([]byte("fen "))); back != "fen "+want {
			t.Errorf("Append after a prefix = %q", back)
		}
	}
}

func TestParsePositionErrors(t *testing.T) {
	const start = "4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w"
	cases := []struct {
		s     string
		field string // the error starts with field + ": "
		want  string // and contains this
	}{
		{"", "pits", "missing"},
		{" \n", "pits", "missing"},
		{"4,4,4,4,4,4/4,4,4,4,4,4", "white store", "missing"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0", "black store", "missing"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0", "white's special", "missing"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 -", "black's special", "missing"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - -", "to move", "missing"},
		{start + " w", "to move", "followed by more fields"},
		{start + "  ", "", ""}, // surrounding space is not an error; see below
		{"4,4,4,4,4,4/4,4,4,4,4,4  0 0 - - w", "white store", "empty; fields are separated by single spaces"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 -  - w", "black's special", "empty"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - -  w", "to move", "empty"},
		{"4,4,4,4,4,4 0 0 - - w", "pits", "want white's pits and black's pits separated by one '/'"},
		{"4,4,4,4,4,4/4,4,4,4,4,4/ 0 0 - - w", "pits", "separated by one '/'"},
		{"4,4,4,4,4/4,4,4,4,4,4 4 0 - - w", "pits", "white has 5 pits, want 6"},
		{"4,4,4,4,4,4/4,4,4,4,4,4,0 0 0 - - w", "pits", "black has 7 pits, want 6"},
		{"4,4,4,4,4,4/ 0 0 - - w", "pits", "black has 1 pits, want 6"},
		{"4,4,x,4,4,4/4,4,4,4,4,4 0 0 - - w", "pits", `white's pit 3: not a number: "x"`},
		{"4,4,4,4,4,4/4,4,4,4,,4 0 0 - - w", "pits", `black's pit 5: not a number: ""`},
		{"4,4,4,4,4,4/4,4,4,4,4,+4 0 0 - - w", "pits", `black's pit 6: not a number: "+4"`},
		{"4,4,4,4,4,4/4,4,4,4,4,0x4 0 0 - - w", "pits", `black's pit 6: not a number: "0x4"`},
		{"4,4,4,-4,4,4/4,4,4,4,4,12 0 0 - - w", "pits", "white's pit 4: negative count -4"},
		{"49,0,0,0,0,0/0,0,0,0,0,0 0 0 - - w", "pits", "white's pit 1: count 49 is more than 48"},
		{"4,4,4,4,4,4/4,4,4,4,4,99999999999999999999999 0 0 - - w", "pits", "count 99999999999999999999999 is more than 48"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 x 0 - - w", "white store", `not a number: "x"`},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 -0 - - w", "black store", "negative count -0"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 1.5 - - w", "black store", `not a number: "1.5"`},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 49 - - w", "black store", "count 49 is more than 48"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 1 0 - - w", "pits and stores", "stones add up to 49, want 48"},
		{"4,4,4,4,4,3/4,4,4,4,4,4 0 0 - - w", "pits and stores", "stones add up to 47, want 48"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 x - w", "white's special", `want - or a pit number: not a number: "x"`},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 -- - w", "white's special", "want - or a pit number"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - -1 w", "black's special", "want - or a pit number: negative count -1"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 0 - w", "white's special", "pit 0 out of range 1..6"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - 7 w", "black's special", "pit 7 out of range 1..6"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - 99999999999999999999999 w", "black's special", "out of range 1..6"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 3 - w", "white's special", "black's pit 3 holds 4 stones, want an empty pit"},
		{"4,4,0,4,4,4/4,4,4,4,4,4 0 4 3 - w", "white's special", "black's pit 3 holds 4 stones"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - 1 w", "black's special", "white's pit 1 holds 4 stones, want an empty pit"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - x", "to move", `want w or b, got "x"`},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - W", "to move", `want w or b, got "W"`},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - white", "to move", `want w or b, got "white"`},
	}
	for _, c := range cases {
		_, err := ParsePosition(c.s, 6, 48)
		if c.field == "" {
			if err != nil {
				t.Errorf("ParsePosition(%q): %v", c.s, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.field+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParsePosition(%q) = %v, want an error starting %q and containing %q", c.s, err, c.field+": ", c.want)
		}
	}
	// Games with other sizes: bounds follow pits and stones.
	for _, c := range []struct {
		s            string
		pits, stones int
		field, want  string
	}{
		{"1/0 0 0 - - w", 1, 0, "pits", "white's pit 1: count 1 is more than 0"},
		{"0/0 0 0 - - w", 1, 2, "pits and stores", "stones add up to 0, want 2"},
		{"0/2 0 0 2 - w", 1, 2, "white's special", "pit 2 out of range 1..1"},
		{"0,0/0,0 9 0 - - w", 2, 8, "white store", "count 9 is more than 8"},
		{"0,0/0,0 0 0 - - w", 1, 0, "pits", "white has 2 pits, want 1"},
	} {
		_, err := ParsePosition(c.s, c.pits, c.stones)
		if err == nil || !strings.HasPrefix(err.Error(), c.field+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParsePosition(%q, %d, %d) = %v, want an error starting %q and containing %q", c.s, c.pits, c.stones, err, c.field+": ", c.want)
		}
	}
}

func TestParsePositionMisuse(t *testing.T) {
	for _, c := range [][2]int{{0, 48}, {-1, 48}, {6, -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("ParsePosition for %d pits and %d stones did not panic", c[0], c[1])
				}
			}()
			_, _ = ParsePosition("0/0 0 0 - - w", c[0], c[1])
		}()
	}
}

// TestPositionStringAllocs: String allocates only its result, also when the
// caller's pits live on its stack, as the games' Board.String do.
func TestPositionStringAllocs(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		var rows [2][9]int
		for i := range rows[0] {
			rows[0][i], rows[1][i] = 9, 9
		}
		p := Position{Pits: [2][]int{rows[0][:], rows[1][:]}, Special: [2]int{0, 3}, ToMove: Black}
		if len(p.String()) == 0 {
			t.Fatal("empty string")
		}
	})
	if n > 1 {
		t.Errorf("Position.String: %v allocations, want at most 1", n)
	}
}

// fuzzSizes are the games FuzzParsePosition parses each input for.
var fuzzSizes = [][2]int{{9, 162}, {6, 48}, {tinyPits, tinyStones}}

// leadingZeros matches the zeros that ParsePosition ignores before a number.
var leadingZeros = regexp.MustCompile(`\b0+([0-9])`)

// FuzzParsePosition: ParsePosition never panics; what it accepts is the
// String of its result up to surrounding space and leading zeros, and that
// String parses back to the same Position.
func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{
		"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w",
		"0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 81 81 4 6 b",
		"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w",
		"3,0,5,5,5,2/0,3,0,3,3,3 10 6 3 2 b",
		" 04,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w\n",
		"2/0 0 0 1 - b",
		"1/1 0 0 - - w",
		"4,4,4,4,4,4/4,4,4,4,4,4  0 0 - - w",
		"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w x",
		"4,4,4,-4,4,4/4,4,4,4,4,12 0 0 - - w",
		"4,4,4,4,4,4/4,4,4,4,4,4 0 0 3 - w",
		"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - 99999999999999999999999 w",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, size := range fuzzSizes {
			p, err := ParsePosition(s, size[0], size[1])
			if err != nil {
				if !strings.Contains(err.Error(), ": ") {
					t.Fatalf("ParsePosition(%q, %d, %d): error %q names no field", s, size[0], size[1], err)
				}
				continue
			}
			out := p.String()
			if want := leadingZeros.ReplaceAllString(strings.TrimSpace(s), "$1"); out != want {
				t.Fatalf("ParsePosition(%q, %d, %d).String() = %q, want %q", s, size[0], size[1], out, want)
			}
			back, err := ParsePosition(out, size[0], size[1])
			if err != nil || !reflect.DeepEqual(back, p) {
				t.Fatalf("round trip of %q: %+v, %v; want %+v", out, back, err, p)
			}
		}
	})
}
