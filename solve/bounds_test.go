package solve

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/env/mangala"
)

// boundsText is a small valid bounds file of classic mangala: a position
// whose mover (white) has pits 5 and 6 left, and its two children. Its
// value is +48: the first to empty their row takes every stone left.
const boundsText = `kumalak-bounds 1
game mangala
root 0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w
run 2026-12-06T00:00:00Z nodes=10 seconds=0 threads=1 tablebase=none plies=4 value-only=false
# a comment
0 +46 +48 6 0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w
1 +46 +48 - 0,0,0,0,1,0/1,0,0,0,0,0 46 0 - - w
1 -48 -46 1 0,0,0,0,0,2/1,0,0,0,0,0 45 0 - - b
end 3
`

func decodeText(s string) (*bounds, error) { return decodeBounds(strings.NewReader(s), "t.bounds") }

// TestBoundsRoundTrip decodes a file, encodes it and decodes it again to
// the same facts, and checks the bounds of the first line.
func TestBoundsRoundTrip(t *testing.T) {
	b, err := decodeText(boundsText)
	if err != nil {
		t.Fatal(err)
	}
	if b.spec.Name != "mangala" || len(b.facts) != 3 || len(b.runs) != 1 || b.root != "0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w" {
		t.Fatalf("decoded %+v", b)
	}
	f := b.facts[kpos{0, 0, 0, 0, 1, 1, 1}]
	if f == nil || f.base != 45 || f.lo != 1 || f.hi != 3 || f.move != 5 || f.ply != 0 {
		t.Fatalf("root fact %+v", f)
	}
	enc := b.encode()
	b2, err := decodeBounds(bytes.NewReader(enc), "again")
	if err != nil {
		t.Fatalf("re-decode: %v\n%s", err, enc)
	}
	if enc2 := b2.encode(); !bytes.Equal(enc, enc2) {
		t.Errorf("encode is not stable:\n%s\n%s", enc, enc2)
	}
}

// TestBoundsRefused lists the files a solve must refuse, each with the
// words its error must hold: the line and the field at fault.
func TestBoundsRefused(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(boundsText, "\n"), "\n")
	with := func(i int, line string) string {
		l := append([]string(nil), lines...)
		l[i] = line
		return strings.Join(l, "\n") + "\n"
	}
	cases := []struct{ name, text, want string }{
		{"empty", "", "line 0: no \"end N\" line"},
		{"magic", with(0, "kumalak-state 1"), "not a bounds file: line 1"},
		{"version", with(0, "kumalak-bounds 2"), "line 1: version \"2\""},
		{"unknown game", with(1, "game chess"), "line 2: field game: unknown game"},
		{"kale", with(1, "game mangala-kale"), "line 2: field game: mangala-kale: bounds files carry kalah and classic mangala"},
		{"other game's root", with(2, "root 3,3,3,3/3,3,3,3 0 0 - - w"), "line 3: field root"},
		{"no root", with(2, "run x"), "line 3: want \"root\""},
		{"ply", with(5, "x +46 +48 6 0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w"), "line 6: field ply"},
		{"lo", with(5, "0 4x +48 6 0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w"), "line 6: field lo: \"4x\""},
		{"hi beyond the stones", with(5, "0 +46 +49 6 0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w"), "line 6: field hi: \"+49\" is not a final store difference of that position (+42..+48)"},
		{"lo above hi", with(5, "0 +48 +46 6 0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w"), "line 6: field lo: +48 above hi +46"},
		{"empty pit", with(5, "0 +46 +48 3 0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w"), "line 6: field move: \"3\" is not a legal pit"},
		{"no such pit", with(5, "0 +46 +48 7 0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w"), "line 6: field move: \"7\""},
		{"position", with(5, "0 +46 +48 6 0,0,0,0,1,1/1,0,0,0,0 45 0 - - w"), "line 6: field position"},
		{"game over", with(5, "0 +47 +47 - 0,0,0,0,0,0/1,0,0,0,0,0 47 0 - - w"), "line 6: field position"},
		{"short line", with(5, "0 +46 +48"), "line 6: want \"ply lo hi move position\""},
		{"count", with(8, "end 2"), "line 9: field end: \"2\", but 3 position lines"},
		{"truncated", strings.Join(lines[:8], "\n") + "\n", "truncated after line 8"},
		{"cut in a line", boundsText[:len(boundsText)-30], "truncated after line 7: the next line is cut inside a line"},
		{"after end", boundsText + "\n", "line 10: a line after the end line"},
		// The root's pits with other stores: one fact, whose bounds leave no value.
		{"duplicate", with(6, "1 -48 -48 - 0,0,0,0,1,1/1,0,0,0,0,0 0 45 - - w"), "t.bounds:7: bounds -48..-48 of \"0,0,0,0,1,1/1,0,0,0,0,0 0 45 - - w\" contradict -44..-42 (t.bounds:6)"},
		// Both moves' children known: pit 6 reaches +46 (an extra turn
		// and the child's +46), pit 5 reaches 45 - (-46 + 45) = +46.
		{"parent above its moves", with(5, "0 +48 +48 6 0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w") + "", ""},
		{"parent below a move", with(5, "0 +46 +46 6 0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w"), ""},
	}
	above := strings.Split(cases[len(cases)-2].text, "\n")
	above[6], above[7] = "1 +46 +46 - 0,0,0,0,1,0/1,0,0,0,0,0 46 0 - - w", "1 -46 -46 1 0,0,0,0,0,2/1,0,0,0,0,0 45 0 - - b"
	cases[len(cases)-2].text = strings.Join(above, "\n")
	cases[len(cases)-2].want = "contradiction: t.bounds:6: lo +48 of \"0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w\", but none of its moves reaches above +46"
	below := strings.Split(cases[len(cases)-1].text, "\n")
	below[6] = "1 +48 +48 - 0,0,0,0,1,0/1,0,0,0,0,0 46 0 - - w"
	cases[len(cases)-1].text = strings.Join(below, "\n")
	cases[len(cases)-1].want = "contradiction: t.bounds:6: hi +46 of \"0,0,0,0,1,1/1,0,0,0,0,0 45 0 - - w\", but its move 6 is proved to reach +48"
	for _, c := range cases {
		_, err := decodeText(c.text)
		if !errors.Is(err, ErrBounds) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error holding %q", c.name, err, c.want)
		}
	}
}

func FuzzDecodeBounds(f *testing.F) {
	f.Add([]byte(boundsText))
	f.Add([]byte("kumalak-bounds 1\ngame kalah:houses=4,seeds=3\nroot 3,3,3,3/3,3,3,3 0 0 - - w\n0 -2 +4 1 3,3,3,3/3,3,3,3 0 0 - - w\nend 1\n"))
	f.Add([]byte("kumalak-bounds 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := decodeBounds(bytes.NewReader(data), "fuzz")
		if err != nil {
			if !errors.Is(err, ErrBounds) {
				t.Fatalf("an error not wrapping ErrBounds: %v", err)
			}
			return
		}
		for _, f := range b.facts {
			if n := b.g.stones(&f.p); f.lo > f.hi || f.lo < -n || f.hi > n {
				t.Fatalf("decoded bounds %d..%d of %d stones", f.lo, f.hi, n)
			}
		}
		if _, err := decodeBounds(bytes.NewReader(b.encode()), "again"); err != nil {
			t.Fatalf("what decoded does not encode to a valid file: %v\n%s", err, b.encode())
		}
	})
}

// boundsBoard is a classic position of 20 stones that takes the engine
// some hundreds of thousands of nodes with a 10-stone tablebase, most of
// them in null-window tests rather than the deepening for first guesses.
func boundsBoard(t *testing.T) *mangala.Board {
	return boardOf(t, Pits{3, 3, 1, 1, 4, 2, 1, 2, 3, 1, 0, 0}, env.White, false)
}

// stoppedRun solves b with cfg, stopped after a number of ticks of a
// clock that moves a millisecond a look (about 1024 nodes a look).
func stoppedRun(t *testing.T, cfg Config, b env.State, ticks int) Result {
	t.Helper()
	now := time.Unix(0, 0)
	cfg.Now = func() time.Time { now = now.Add(time.Millisecond); return now }
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Solve(b, time.Duration(ticks)*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestBoundsResume stops a solve by time at three quarters of the work of
// an unbroken one, resumes it in a fresh solver (a fresh table, no state
// file) from its bounds file alone, and checks that the resumed solve
// gives the value and move values of the unbroken one with at least a
// tenth fewer nodes; the file it leaves holds the exact value of the root.
// (Single-threaded on a clock of nodes, the counts are the same on every
// run: 590,545 nodes unbroken, 328,567 resumed when written.)
func TestBoundsResume(t *testing.T) {
	if raceEnabled {
		t.Skip("a million nodes: too slow under the race detector")
	}
	b := boundsBoard(t)
	cfg := Config{TTBits: 18, Tablebase: openShared(t, 10)}
	plain, _ := New(cfg)
	want, err := plain.Solve(b, 0)
	if err != nil || !want.Exact() {
		t.Fatalf("unbroken: %+v %v", want, err)
	}
	path := filepath.Join(t.TempDir(), "sub", "solve.bounds")
	cfg.Bounds = []string{path}
	r1 := stoppedRun(t, cfg, b, int(want.Nodes*3/4/1024))
	if r1.Exact() {
		t.Fatalf("the stopped run proved the value (%d nodes of %d)", r1.Nodes, want.Nodes)
	}
	s2, _ := New(cfg)
	r2, err := s2.Solve(b, 0)
	if err != nil || r2.Lo != want.Lo || r2.Hi != want.Hi {
		t.Fatalf("resumed: %d..%d (%v), unbroken %d", r2.Lo, r2.Hi, err, want.Lo)
	}
	for i, m := range r2.Moves {
		if m != want.Moves[i] {
			t.Errorf("move %d: resumed %+v, unbroken %+v", m.Action.Pit(), m, want.Moves[i])
		}
	}
	t.Logf("from scratch %d nodes; stopped after %d, resumed %d", want.Nodes, r1.Nodes, r2.Nodes)
	if r2.Nodes > want.Nodes*9/10 {
		t.Errorf("resumed from the bounds: %d nodes, from scratch %d", r2.Nodes, want.Nodes)
	}
	data, _ := os.ReadFile(path)
	got, err := decodeBounds(bytes.NewReader(data), path)
	if err != nil || len(got.runs) != 2 {
		t.Fatalf("the file after the resumed run: %v\n%s", err, data)
	}
	root := got.facts[fromPits(&Pits{3, 3, 1, 1, 4, 2, 1, 2, 3, 1, 0, 0})]
	if root == nil || root.base+root.lo != want.Lo || root.base+root.hi != want.Hi {
		t.Errorf("root line %+v, want %d", root, want.Lo)
	}
	// A solved file answers at once.
	s3, _ := New(cfg)
	if r3, err := s3.Solve(b, 0); err != nil || r3.Lo != want.Lo || r3.Nodes != 0 {
		t.Errorf("from a solved file: %d..%d, %d nodes (%v)", r3.Lo, r3.Hi, r3.Nodes, err)
	}
}

// TestBoundsMerge runs two stopped solves of two positions, one a child
// of the other, into two files, merges them into a third with the first
// two read too, and checks that the merged file holds the tighter bounds
// of each; files of another game or that contradict each other are
// refused, naming the line.
func TestBoundsMerge(t *testing.T) {
	if raceEnabled {
		t.Skip("half a million nodes: too slow under the race detector")
	}
	dir := t.TempDir()
	a, bPath, m := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "m")
	root := boundsBoard(t)
	child := boundsBoard(t)
	child.Apply(2)
	cfg := Config{TTBits: 16, Tablebase: openShared(t, 10)}
	for _, run := range []struct {
		b     env.State
		ticks int
		paths []string
	}{{root, 450, []string{a}}, {child, 250, []string{bPath}}, {root, 1, []string{m, a, bPath}}} {
		cfg.Bounds = run.paths
		stoppedRun(t, cfg, run.b, run.ticks)
	}
	read := func(p string) *bounds {
		data, _ := os.ReadFile(p)
		b, err := decodeBounds(bytes.NewReader(data), p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ba, bb, bm := read(a), read(bPath), read(m)
	if len(ba.facts) < 2 || len(bb.facts) < 2 {
		t.Fatalf("the stopped runs proved too little to merge: %d and %d positions", len(ba.facts), len(bb.facts))
	}
	if len(bm.runs) != 3 {
		t.Errorf("merged runs: %q", bm.runs)
	}
	for _, src := range []*bounds{ba, bb} {
		for p, f := range src.facts {
			g := bm.facts[p]
			if g == nil || g.lo < f.lo || g.hi > f.hi {
				t.Errorf("%s: merged %+v looser than %+v", f.pos, g, f)
			}
		}
	}
	// A file of another game.
	kfile := filepath.Join(dir, "k")
	os.WriteFile(kfile, []byte("kumalak-bounds 1\ngame kalah\nroot 4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w\nend 0\n"), 0o644)
	s, _ := New(Config{TTBits: 16, Bounds: []string{m, kfile}})
	if _, err := s.Solve(root, 0); !errors.Is(err, ErrBounds) || !strings.Contains(err.Error(), "line 2: field game: kalah, but this solve is of mangala") {
		t.Errorf("another game's file: %v", err)
	}
	// A file whose root line contradicts the merged one: its value lies
	// outside the proved bounds.
	rf := bm.facts[fromPits(&Pits{3, 3, 1, 1, 4, 2, 1, 2, 3, 1, 0, 0})]
	bad := filepath.Join(dir, "bad")
	v := rf.base + rf.hi + 2
	if v > rf.base+20 {
		v = rf.base + rf.lo - 2
	}
	os.WriteFile(bad, fmt.Appendf(nil, "kumalak-bounds 1\ngame mangala\nroot %s\n0 %+d %+d - %s\nend 1\n", rf.pos, v, v, rf.pos), 0o644)
	s, _ = New(Config{TTBits: 16, Bounds: []string{m, bad}})
	if _, err := s.Solve(root, 0); !errors.Is(err, ErrBounds) || !strings.Contains(err.Error(), bad+":4: bounds") {
		t.Errorf("a contradicting file: %v", err)
	}
	// A missing file after the first.
	s, _ = New(Config{TTBits: 16, Bounds: []string{m, filepath.Join(dir, "none")}})
	if _, err := s.Solve(root, 0); !errors.Is(err, ErrBounds) || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a missing file: %v", err)
	}
}

// TestShippedBounds decodes every bounds file shipped in the package and
// holds it under a megabyte.
func TestShippedBounds(t *testing.T) {
	files, err := proofs.ReadDir("proofs")
	if err != nil || len(files) == 0 {
		t.Fatalf("proofs: %v", err)
	}
	for _, f := range files {
		game := strings.TrimSuffix(f.Name(), ".bounds")
		b, err := shipped(game)
		if err != nil || b == nil || b.spec.Name != game {
			t.Errorf("%s: %v", f.Name(), err)
			continue
		}
		if info, _ := f.Info(); info.Size() > 1<<20 {
			t.Errorf("%s: %d bytes, over a megabyte", f.Name(), info.Size())
		}
	}
}

// TestBoundsKilled runs a solve in a child process that saves its bounds
// every millisecond, kills it with SIGKILL once it has saved, and checks that the file left is whole and that
// a solve takes it.
func TestBoundsKilled(t *testing.T) {
	if path := os.Getenv("SOLVE_BOUNDS_CHILD"); path != "" {
		s, _ := New(Config{TTBits: 16, Tablebase: openShared(t, 10), Bounds: []string{path}, SaveEvery: time.Millisecond})
		_, err := s.Solve(boundsBoard(t), 0)
		t.Fatalf("the child solve should have been killed: %v", err)
	}
	path := filepath.Join(t.TempDir(), "solve.bounds")
	cmd := exec.Command(os.Args[0], "-test.run=^TestBoundsKilled$")
	cmd.Env = append(os.Environ(), "SOLVE_BOUNDS_CHILD="+path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			if got, err := decodeBounds(bytes.NewReader(b), path); err == nil && len(got.runs) == 1 {
				break
			}
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no bounds file appeared")
		}
	}
	cmd.Process.Kill()
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != -1 {
		t.Fatalf("the child was not killed: %v", err)
	}
	data, err := os.ReadFile(path)
	if _, derr := decodeBounds(bytes.NewReader(data), path); err != nil || derr != nil {
		t.Fatalf("the file left by the kill: %v %v", err, derr)
	}
	// A solve from the file takes its bounds.
	cfg := Config{TTBits: 16, Tablebase: openShared(t, 10), Bounds: []string{path}}
	resumed, _ := New(cfg)
	if _, err := resumed.SolveWithin(boundsBoard(t), Budget{Nodes: 1}, nil); err != nil {
		t.Fatalf("resumed after the kill: %v", err)
	}
}

// TestBoundsInterrupt interrupts a two-thread solve that saves every
// millisecond from another goroutine, as Ctrl-C and SIGTERM do in kumalak
// solve, and checks that the file it saves on the way out holds the root
// bounds the solve returned.
func TestBoundsInterrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "solve.bounds")
	s, _ := New(Config{TTBits: 16, Tablebase: openShared(t, 10), Bounds: []string{path}, SaveEvery: time.Millisecond, Threads: 2})
	done := make(chan Result)
	go func() {
		r, err := s.Solve(boundsBoard(t), 0)
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	time.Sleep(50 * time.Millisecond)
	s.Interrupt()
	r := <-done
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := decodeBounds(bytes.NewReader(data), path)
	if err != nil {
		t.Fatal(err)
	}
	root := b.facts[fromPits(&Pits{3, 3, 1, 1, 4, 2, 1, 2, 3, 1, 0, 0})]
	if root == nil || root.base+root.lo != r.Lo || root.base+root.hi != r.Hi {
		t.Errorf("root line %+v, the solve returned %d..%d", root, r.Lo, r.Hi)
	}
}
