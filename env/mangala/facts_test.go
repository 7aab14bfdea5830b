package mangala

import (
	"testing"

	"kumalak/env"
)

func TestSownHome(t *testing.T) {
	cases := []struct {
		kale bool
		pos  string
		pit  int
		want int
	}{
		{false, "4,4,4,3,4,4/4,4,4,4,4,4 1 0 - - w", 4, 0},  // pit 4, 3 stones: pits 4, 5, 6
		{false, "4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", 4, 1},  // and the store
		{false, "4,4,4,4,4,1/4,4,4,4,4,4 3 0 - - w", 6, 1},  // pit 6, one stone: the store
		{false, "24,0,0,0,0,0/4,4,4,4,4,4 0 0 - - w", 1, 2}, // two laps
		{false, "4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - b", 4, 1},  // black's store
		{true, "9,3,4,4,4,0/4,4,4,4,4,4 0 0 - - w", 1, 0},   // no castle, no store in the cycle
		{true, "9,3,4,4,4,0/4,0,4,4,4,4 4 0 2 - w", 1, 1},   // the castle on black's 2
	}
	for _, c := range cases {
		b, err := Parse(c.pos, c.kale)
		if err != nil {
			t.Fatal(err)
		}
		if got := env.SownHome(b, env.Action(c.pit-1)); got != c.want {
			t.Errorf("%s pit %d: SownHome = %d, want %d", c.pos, c.pit, got, c.want)
		}
	}
}
