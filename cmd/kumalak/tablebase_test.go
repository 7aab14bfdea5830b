package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTablebaseAndSolve builds a tiny tablebase, resumes it, solves a
// position with and without it and checks the answers agree.
func TestTablebaseAndSolve(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "tb")
	code, out, errs := kumalak(t, "tablebase", "build", "--game", "mangala", "--stones", "8", "--out", dir, "--quiet")
	if code != 0 || !strings.Contains(out, "level  8         75582 entries") || !strings.Contains(out, "levels 0..8") {
		t.Fatalf("build: exit %d\n%s\n%s", code, out, errs)
	}
	os.Remove(filepath.Join(dir, "mangala-08.tb"))
	code, out, errs = kumalak(t, "tablebase", "build", "--stones", "9", "--out", dir)
	if code != 0 || !strings.Contains(out, "level  7         31824 entries         31888 bytes  kept") || strings.Contains(out, "level  8         75582 entries         75646 bytes  kept") {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out, errs)
	}
	pos := "0,2,0,1,3,0/1,0,2,0,0,1 20 18 - - w"
	want := "value +10 (final store difference for white, to move)\nresult white wins\nmove 2 -2\nmove 4 -8\nmove 5 +10  best\n"
	for _, args := range [][]string{{"--tablebase", dir}, {"--time", "1h"}} {
		code, out, errs = kumalak(t, append([]string{"solve", "--position", pos}, args...)...)
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("solve %v: exit %d\n%s\n%s", args, code, out, errs)
		}
	}
	code, out, errs = kumalak(t, "solve", "--game", "mangala-kale", "--position", "1,0,0,1,0,0/0,1,0,0,0,0 45 0 - - w")
	if code != 0 || !strings.Contains(out, "result white wins") {
		t.Fatalf("solve kale: exit %d\n%s\n%s", code, out, errs)
	}
	os.WriteFile(filepath.Join(dir, "mangala-03.tb"), []byte("garbage"), 0o644)
	bad := []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--position", pos, "--tablebase", dir}, "mangala-03.tb: not a valid tablebase file"},
		{[]string{"solve", "--game", "togyz"}, "solve: --game togyz"},
		{[]string{"tablebase", "build", "--game", "mangala-kale", "--out", dir}, "mangala and kalah with 6 houses only"},
		{[]string{"tablebase", "build", "--stones", "49", "--out", dir}, "Stones 49 out of range"},
	}
	for _, c := range bad {
		code, _, errs := kumalak(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, errs, c.want)
		}
	}
}
