package solvetest

import (
	"os"
	"testing"

	"kumalak/env/mangala"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// TestOpenOnce: the tablebase is built once, holds every level, and knows
// a position with one stone left.
func TestOpenOnce(t *testing.T) {
	a, b := Open(t), Open(t)
	if a.Dir() != b.Dir() || a.Stones() != Stones {
		t.Fatalf("dirs %s, %s; %d stones, want %d", a.Dir(), b.Dir(), a.Stones(), Stones)
	}
	pos, err := mangala.Parse("0,0,0,0,0,1/0,0,0,0,0,0 24 23 - - w", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := a.Exact(pos); !ok {
		t.Errorf("%s: not in the tablebase", pos)
	}
}
