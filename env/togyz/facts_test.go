package togyz

import (
	"testing"

	"kumalak/env"
)

func TestSownHome(t *testing.T) {
	cases := []struct {
		pos  string
		pit  int
		want int
	}{
		{"18,9,9,9,9,9,9,9,0/9,9,0,9,9,9,9,9,9 9 0 3 - w", 1, 1}, // a full lap passes the tuzdyk on black's 3
		{"5,9,9,9,9,9,9,9,13/9,9,0,9,9,9,9,9,9 9 0 3 - w", 1, 0}, // not that far
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w", 1, 0},  // no tuzdyk
		{"9,9,9,9,0,9,9,9,9/9,9,9,9,9,9,9,9,9 9 0 - 5 b", 9, 1},  // black's tuzdyk on white's 5
	}
	for _, c := range cases {
		b, err := Parse(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		if got := env.SownHome(b, env.Action(c.pit-1)); got != c.want {
			t.Errorf("%s pit %d: SownHome = %d, want %d", c.pos, c.pit, got, c.want)
		}
	}
}
