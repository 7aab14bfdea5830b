package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveState runs a resumable solve, runs it again from its state
// file, and checks that the second run resumes to the same answer without
// searching; a corrupt state and a kale position are refused.
func TestSolveState(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "solve.state")
	pos := "0,2,0,1,3,0/1,0,2,0,0,1 20 18 - - w"
	want := "value +10 (final store difference for white, to move)\nresult white wins\nmove 2 -2\nmove 4 -8\nmove 5 +10  best\n"
	code, out, errs := kumalak(t, "solve", "--position", pos, "--state", state, "--threads", "2")
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(errs, "saved "+state) {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = kumalak(t, "solve", "--position", pos, "--state", state)
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "nodes 0 ") || !strings.Contains(errs, "resumed "+state) {
		t.Fatalf("resumed run: exit %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = kumalak(t, "solve", "--position", "0,2,0,1,3,0/1,0,2,0,0,2 20 17 - - w", "--state", state)
	if code != 2 || !strings.Contains(errs, "saved for") {
		t.Errorf("another position's state: exit %d, %s", code, errs)
	}
	b, _ := os.ReadFile(state)
	b[20] ^= 0xff
	os.WriteFile(state, b, 0o644)
	code, _, errs = kumalak(t, "solve", "--position", pos, "--state", state)
	if code != 2 || !strings.Contains(errs, "checksum mismatch") {
		t.Errorf("corrupt state: exit %d, %s", code, errs)
	}
	code, _, errs = kumalak(t, "solve", "--game", "mangala-kale", "--position", "1,0,0,1,0,0/0,1,0,0,0,0 45 0 - - w", "--state", state)
	if code != 2 || !strings.Contains(errs, "not resumable") {
		t.Errorf("kale: exit %d, %s", code, errs)
	}
}

// TestSolveBounds runs a solve with a bounds file, runs it again from the
// file, and checks that the second run reads it and answers the same; a
// truncated file and a kale solve are refused.
func TestSolveBounds(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "proofs", "x.bounds")
	pos := "0,2,0,1,3,0/1,0,2,0,0,1 20 18 - - w"
	want := "value +10 (final store difference for white, to move)\nresult white wins\nmove 2 -2\nmove 4 -8\nmove 5 +10  best\n"
	code, out, errs := kumalak(t, "solve", "--position", pos, "--bounds", path, "--bounds-plies", "2")
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(errs, "saved "+path) {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errs)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(b), "kumalak-bounds 1\ngame mangala\nroot "+pos+"\n") || !strings.Contains(string(b), "\n0 +10 +10 5 "+pos+"\n") {
		t.Fatalf("the bounds file: %v\n%s", err, b)
	}
	code, out, errs = kumalak(t, "solve", "--position", pos, "--bounds", path)
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "nodes 0 ") || !strings.Contains(errs, "read bounds of") {
		t.Fatalf("resumed run: exit %d\n%s\n%s", code, out, errs)
	}
	os.WriteFile(path, b[:len(b)-8], 0o644)
	code, _, errs = kumalak(t, "solve", "--position", pos, "--bounds", path)
	if code != 2 || !strings.Contains(errs, "truncated after line") {
		t.Errorf("truncated file: exit %d, %s", code, errs)
	}
	code, _, errs = kumalak(t, "solve", "--game", "mangala-kale", "--position", "1,0,0,1,0,0/0,1,0,0,0,0 45 0 - - w", "--bounds", path)
	if code != 2 || !strings.Contains(errs, "carry no bounds files") {
		t.Errorf("kale: exit %d, %s", code, errs)
	}
}
