package main

import (
	"strings"
	"testing"
)

// TestTournamentLadder: --reach 1 pairs only neighbours, here a level
// between two baselines, and still rates all three; a negative reach is
// refused.
func TestTournamentLadder(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := kumalak(t, "tournament", "--game", "mangala", "--players", "random", "--players", "model:level=1",
		"--players", "greedy", "--reach", "1", "--games", "2", "--out", dir, "--quiet")
	if code != 0 {
		t.Fatalf("tournament --reach 1: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "random vs model:level=1") || !strings.Contains(out, "model:level=1 vs greedy") || strings.Contains(out, "random vs greedy") {
		t.Errorf("tournament --reach 1 played other pairings:\n%s", out)
	}
	code, _, errs = kumalak(t, "tournament", "--game", "mangala", "--players", "random", "--players", "greedy", "--reach", "-1")
	if code != 2 || !strings.Contains(errs, "reach -1") {
		t.Errorf("--reach -1: exit %d %q", code, errs)
	}
}
