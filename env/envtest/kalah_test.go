package envtest

import (
	"testing"

	"kumalak/env"
)

func TestKalahConformance(t *testing.T) {
	for _, spec := range []*env.Spec{Kalah3, Kala3, Kala6} {
		Run(t, spec, 200, 1)
		Allocs(t, spec)
	}
}

func TestKalahRules(t *testing.T) {
	cases := []struct {
		spec       *env.Spec
		before     string
		pit        int
		after      string
		sameToMove bool
	}{
		// last stone in the store: white again
		{Kalah3, "0,2,1/0,1,1 7 6 - - w 10", 3, "0,2,0/0,1,1 8 6 - - w 11", true},
		// into empty pit 2, opposite black pit 2 holds 4: both taken
		{Kalah3, "1,0,2/1,4,1 4 5 - - w 6", 1, "0,0,2/1,0,1 9 5 - - b 7", false},
		// no capture in Kala
		{Kala3, "1,0,2/1,4,1 4 5 - - w", 1, "0,1,2/1,4,1 4 5 - - b", false},
		// the ply limit ends the game, each side collecting its own pits
		{Kalah3, "1,1,1/3,3,3 3 3 - - w 39", 1, "0,0,0/0,0,0 6 12 - - b 40", false},
		// an emptied side ends the game
		{Kala3, "0,0,1/1,2,0 5 9 - - w", 3, "0,0,0/0,0,0 6 12 - - w", true},
	}
	for _, c := range cases {
		k, err := ParseKalah(c.spec, c.before)
		if err != nil {
			t.Fatal(err)
		}
		mover := k.ToMove()
		if err := env.Play(k, c.pit); err != nil {
			t.Fatalf("%s: pit %d: %v", c.before, c.pit, err)
		}
		if k.String() != c.after || (k.ToMove() == mover) != c.sameToMove {
			t.Errorf("%s, pit %d: %s (%s to move), want %s", c.before, c.pit, k, k.ToMove(), c.after)
		}
	}
}

func TestParseKalah(t *testing.T) {
	for _, s := range []string{"", "3,3,3/3,3,3 0 0 - - w", "3,3/3,3,3 0 0 - - w 0", "3,3,3/3,3,3 0 0 1 - w 0",
		"3,3,3/3,3,3 0 0 - - x 0", "3,3,3/3,3,3 0 0 - - w 41", "3,3,-1/3,3,3 0 0 - - w 0"} {
		if _, err := ParseKalah(Kalah3, s); err == nil {
			t.Errorf("ParseKalah(%q) accepted", s)
		}
	}
	k, err := ParseKalah(Kalah3, "3,3,3/3,3,3 0 0 - - b 5")
	if err != nil || k.ToMove() != env.Black || k.Ply() != 5 || k.String() != "3,3,3/3,3,3 0 0 - - b 5" {
		t.Errorf("ParseKalah: %v, %v", k, err)
	}
}
