package arena

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kumalak/env"
	_ "kumalak/env/kalah"
	_ "kumalak/env/mangala"
)

// TestDrawnOpenings checks docs/examples/GAME-drawn-openings.txt, the
// openings proved drawn (docs/EVALUATING.md): each reads as --openings
// does, every opening is legal and leaves the game running, no position
// comes twice, and the comment above each names the position it leads to
// (the one that was solved).
func TestDrawnOpenings(t *testing.T) {
	for _, c := range []struct {
		game  string
		least int // the drawn openings of seed 1's 100-game match
	}{{"mangala", 14}, {"kalah", 12}} {
		t.Run(c.game, func(t *testing.T) { checkDrawnOpenings(t, c.game, c.least) })
	}
}

// checkDrawnOpenings is TestDrawnOpenings for game's file.
func checkDrawnOpenings(t *testing.T, game string, least int) {
	path := filepath.Join("..", "docs", "examples", game+"-drawn-openings.txt")
	open, err := ReadOpenings(path)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := env.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	start := spec.New()
	if err := checkOpenings(start, open); err != nil {
		t.Fatal(err)
	}
	if len(open) < least {
		t.Errorf("%d openings, want the %d drawn ones of seed 1's match at least", len(open), least)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var named []string // the comment above each opening, in order
	last := ""
	for _, line := range strings.Split(string(data), "\n") {
		switch line = strings.TrimSpace(line); {
		case strings.HasPrefix(line, "#"):
			last = strings.TrimSpace(strings.TrimPrefix(line, "#"))
		case line != "":
			named = append(named, last)
		}
	}
	seen := map[string]bool{}
	for i, o := range open {
		st := env.Clone(start)
		if err := env.Replay(st, env.Pits(o)); err != nil {
			t.Fatal(err)
		}
		pos := st.String()
		if named[i] != pos {
			t.Errorf("opening %d (%v) leads to %q; its comment names %q", i+1, env.Pits(o), pos, named[i])
		}
		if seen[pos] {
			t.Errorf("opening %d: position %q comes twice", i+1, pos)
		}
		seen[pos] = true
	}
}
