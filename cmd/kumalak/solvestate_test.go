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

// TestSolveCheck checks a finished solve's bounds file by both routes,
// then a file whose root's bound is false: refuted, exit 1; a
// missing file is refused (exit 2).
func TestSolveCheck(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x.bounds")
	pos := "0,2,0,1,3,0/1,0,2,0,0,1 20 18 - - w"
	if code, out, errs := kumalak(t, "solve", "--position", pos, "--bounds", path); code != 0 {
		t.Fatalf("solve: exit %d\n%s\n%s", code, out, errs)
	}
	for _, extra := range [][]string{nil, {"--reference"}} {
		code, out, errs := kumalak(t, append([]string{"solve", "--check", path}, extra...)...)
		if code != 0 || !strings.Contains(out, "check of mangala "+pos+": root +10..+10\n") || !strings.Contains(out, "passed: ") || !strings.Contains(errs, "leaf 1 of ") {
			t.Errorf("check %v: exit %d\n%s\n%s", extra, code, out, errs)
		}
	}
	// White's last two stones: the value is +48 (the first to empty their
	// row takes every stone left), not at most +46 as this file says.
	os.WriteFile(path, []byte("kumalak-bounds 1\ngame mangala\nroot 0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w\n"+
		"0 +46 +46 6 0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w\n1 +46 +48 - 0,0,0,0,1,0/1,0,0,0,0,0 46 0 - - w\nend 2\n"), 0o644)
	code, out, errs := kumalak(t, "solve", "--check", path)
	if code != 1 || !strings.Contains(out, "REFUTED") || !strings.Contains(errs, "did not pass: ") {
		t.Errorf("a false root: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := kumalak(t, "solve", "--check", path+".none"); code != 2 || !strings.Contains(errs, "no such file") {
		t.Errorf("no file: exit %d, %s", code, errs)
	}
}
