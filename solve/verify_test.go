package solve

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/env/kalah"
	"kumalak/env/mangala"
)

// solvedFile solves st to the end with a bounds file and returns its path
// and the value.
func solvedFile(t *testing.T, st env.State, tb *Tablebase) (string, int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "solve.bounds")
	s, err := New(Config{TTBits: 18, Tablebase: tb, Bounds: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Solve(st, 0)
	if err != nil || !r.Exact() {
		t.Fatalf("solve %s: %+v %v", st, r, err)
	}
	return path, r.Lo
}

// TestCheckBounds checks the bounds files of finished solves by both
// routes (the engine from scratch without a tablebase, the reference
// search with one): each passes, its bounds derived from the children's
// by the rules down to leaves searched again.
func TestCheckBounds(t *testing.T) {
	if raceEnabled {
		t.Skip("a million nodes: too slow under the race detector")
	}
	ks, err := env.Lookup("kalah:houses=4,seeds=2")
	if err != nil {
		t.Fatal(err)
	}
	kb := ks.New()
	for _, c := range []struct {
		name string
		st   env.State
		tb   *Tablebase
		cfg  CheckConfig
	}{
		{"mangala, engine, no tablebase", boundsBoard(t), openShared(t, 10), CheckConfig{TTBits: 18}},
		{"mangala, reference, 8-stone tablebase", boundsBoard(t), openShared(t, 10), CheckConfig{TTBits: 18, Reference: true, Tablebase: openShared(t, 8)}},
		{"kalah 4x2, engine, two threads", kb, nil, CheckConfig{TTBits: 16, Threads: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path, v := solvedFile(t, c.st, c.tb)
			var lines []string
			c.cfg.Log = func(s string) { lines = append(lines, s) }
			r, err := CheckFile(context.Background(), path, nil, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			r.WriteText(&out)
			if !r.Passed() || r.Lo != v || r.Hi != v || r.Derived == 0 || len(r.Leaves) == 0 || len(lines) != len(r.Leaves) {
				t.Fatalf("value %+d:\n%s", v, out.String())
			}
			if !strings.Contains(out.String(), "passed: the root's bounds") {
				t.Errorf("report:\n%s", out.String())
			}
			for _, l := range r.Leaves {
				if l.Ply == 0 {
					t.Errorf("the root is a leaf: its children's bounds in the file do not give its value\n%s", out.String())
				}
			}
			t.Logf("%d derived, %d leaves, %d nodes", r.Derived, len(r.Leaves), r.Nodes)
			if _, isKalah := c.st.(interface{ Rules() kalah.Rules }); isKalah {
				if _, err := CheckFile(context.Background(), path, nil, CheckConfig{Reference: true}); err == nil || !strings.Contains(err.Error(), "classic mangala only") {
					t.Errorf("a kalah file by the reference search: %v", err)
				}
			}
		})
	}
}

// TestCheckBoundsFalse checks files whose bounds are false or unproved:
// a root bound above the value is refuted by the leaf's search; a bound
// the file does not hold is an error; a check out of time is incomplete.
func TestCheckBoundsFalse(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok, err := CheckFile(context.Background(), write("ok.bounds", boundsText), nil, CheckConfig{TTBits: 12})
	if err != nil || !ok.Passed() || ok.Lo != 46 || ok.Hi != 48 {
		t.Fatalf("the small file: %+v %v", ok, err)
	}
	// The root's value is +48: a file that says at most +46 is wrong.
	lie := strings.Replace(boundsText, "0 +46 +48 6 0,0,0,0,1,1", "0 +46 +46 6 0,0,0,0,1,1", 1)
	r, err := CheckFile(context.Background(), write("lie.bounds", lie), nil, CheckConfig{TTBits: 12})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r.WriteText(&out)
	if r.Passed() || r.count(Refuted) != 1 || !strings.Contains(out.String(), "FAILED: 1 leaves refuted") {
		t.Errorf("a false upper bound:\n%s", out.String())
	}
	if _, err := CheckFile(context.Background(), filepath.Join(dir, "none.bounds"), nil, CheckConfig{}); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a missing file: %v", err)
	}
	// A file whose root line is missing proves nothing.
	noRoot := strings.Replace(boundsText, "0 +46 +48 6 0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w\n", "", 1)
	noRoot = strings.Replace(noRoot, "end 3", "end 2", 1)
	if _, err := CheckFile(context.Background(), write("noroot.bounds", noRoot), nil, CheckConfig{}); err == nil || !strings.Contains(err.Error(), "no bounds of its root") {
		t.Errorf("no root line: %v", err)
	}
	// The shipped proof of the Mangala start: its root bounds follow by the
	// rules from its leaves (searched here far too briefly to settle).
	now := time.Unix(0, 0)
	tick := func() time.Time { now = now.Add(time.Millisecond); return now }
	r, err = CheckFile(context.Background(), "shipped", mangala.Spec, CheckConfig{TTBits: 16, Time: time.Millisecond, Now: tick})
	if err != nil || r.Hi > 0 || len(r.Leaves) == 0 || r.Derived == 0 {
		t.Fatalf("the shipped bounds: %+v %v", r, err)
	}
	t.Logf("the shipped bounds: root %+d..%+d, %d derived, %d leaves", r.Lo, r.Hi, r.Derived, len(r.Leaves))
	if _, err := CheckFile(context.Background(), "shipped", kalah.Spec, CheckConfig{}); err == nil || !strings.Contains(err.Error(), "no bounds are shipped for kalah (solve/proofs holds mangala)") {
		t.Errorf("shipped kalah: %v", err)
	}
	// Out of time: the leaves that need a search stay unsettled.
	path, _ := solvedFile(t, boundsBoard(t), openShared(t, 10))
	r, err = CheckFile(context.Background(), path, nil, CheckConfig{TTBits: 16, Time: time.Millisecond, Now: tick})
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	r.WriteText(&out)
	if r.Passed() || r.count(Unsettled) == 0 || !strings.Contains(out.String(), "incomplete: ") {
		t.Errorf("out of time:\n%s", out.String())
	}
}
