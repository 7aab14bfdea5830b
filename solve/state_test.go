package solve

import (
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/env/mangala"
)

// TestMangalaEngineMatchesBoard plays random classic games on
// mangala.Board and checks each move of the engine's move generator
// against it.
func TestMangalaEngineMatchesBoard(t *testing.T) {
	spec := mangala.Spec
	rng := rand.New(rand.NewPCG(5, 6))
	for range 40 {
		b := spec.New().(*mangala.Board)
		for b.Result() == env.Ongoing {
			var buf [env.MaxActions]env.Action
			moves := b.Legal(buf[:0])
			a := moves[rng.IntN(len(moves))]
			q, me := FromBoard(b), b.ToMove()
			p := fromPits(&q)
			c := mangalaGame.play(&p, int(a))
			before := b.Store(me) - b.Store(me.Other())
			b.Apply(a)
			gain := b.Store(me) - b.Store(me.Other()) - before
			after := FromBoard(b)
			if c.gain != gain || c.over != (b.Result() != env.Ongoing) || !c.over && (c.extra != (b.ToMove() == me) || c.p != fromPits(&after)) {
				t.Fatalf("move %d to %s: engine gain %d extra %v over %v pos %v", a.Pit(), b, c.gain, c.extra, c.over, c.p)
			}
		}
	}
}

// stateBoard is a classic position that takes the engine some thousands
// of nodes without a tablebase.
func stateBoard(t *testing.T) *mangala.Board {
	return boardOf(t, Pits{2, 1, 3, 0, 1, 2, 1, 0, 2, 1, 0, 2}, env.White, false)
}

// TestStateResume stops a resumable solve early, resumes it in a fresh
// solver from the saved file, and checks the resumed value against an
// unbroken solve; then a corrupt file and another position's are refused.
func TestStateResume(t *testing.T) {
	b := stateBoard(t)
	plain, _ := New(Config{TTBits: 16})
	want, err := plain.Solve(b, 0)
	if err != nil || !want.Exact() {
		t.Fatalf("unbroken solve: %+v %v", want, err)
	}
	path := filepath.Join(t.TempDir(), "state")
	var logs atomic.Int64
	cfg := Config{TTBits: 16, State: path, Log: func(string) { logs.Add(1) }}
	// Stop the first run after a few thousand nodes on a clock that moves a
	// millisecond a look.
	now := time.Unix(0, 0)
	cfg.Now = func() time.Time { now = now.Add(time.Millisecond); return now }
	first, _ := New(cfg)
	r1, err := first.Solve(b, 3*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Exact() {
		t.Fatalf("the first run finished (%d nodes): the test needs a harder position", r1.Nodes)
	}
	if r1.Lo > want.Lo || r1.Hi < want.Lo {
		t.Fatalf("first run's bounds %d..%d miss the value %d", r1.Lo, r1.Hi, want.Lo)
	}
	cfg.Now = nil
	second, _ := New(cfg)
	r2, err := second.Solve(b, 0)
	if err != nil || !r2.Exact() || r2.Lo != want.Lo {
		t.Fatalf("resumed: %d..%d (%v), want %d", r2.Lo, r2.Hi, err, want.Lo)
	}
	for i, m := range r2.Moves {
		if m != want.Moves[i] {
			t.Errorf("move %d: resumed %+v, unbroken %+v", m.Action.Pit(), m, want.Moves[i])
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := decodeState(data)
	if err != nil || st.nodes < r1.Nodes || len(st.entries) == 0 || logs.Load() == 0 {
		t.Fatalf("saved state: %+v %v (logs %d)", st, err, logs.Load())
	}
	// A solved state resumes to the value at once.
	third, _ := New(cfg)
	if r3, err := third.Solve(b, 0); err != nil || r3.Lo != want.Lo || r3.Nodes != 0 {
		t.Errorf("solved state: %d..%d, %d nodes (%v)", r3.Lo, r3.Hi, r3.Nodes, err)
	}
	data[len(data)/2] ^= 1
	os.WriteFile(path, data, 0o644)
	if _, err := third.Solve(b, 0); !errors.Is(err, ErrState) || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("corrupt state: %v", err)
	}
	os.Remove(path)
	other := boardOf(t, Pits{1, 1, 0, 0, 2, 3, 0, 0, 3, 1, 2, 0}, env.White, false)
	if _, err := third.Solve(other, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := third.Solve(b, 0); !errors.Is(err, ErrState) || !strings.Contains(err.Error(), "saved for") {
		t.Errorf("another position's state: %v", err)
	}
}

// TestStateRoundTrip encodes a state with entries and decodes it.
func TestStateRoundTrip(t *testing.T) {
	tt := newKTable(6)
	tt.store(0x1234_5678_9abc_def1, kval{lo: -3, hi: 5, move: 2, depth: exactDepth, work: 9})
	tt.store(0x0fed_cba9_8765_4321, kval{lo: 1, hi: 1, move: 0, depth: exactDepth, work: 3})
	tt.store(0x0101_0101_0101_0101, kval{lo: 0, hi: 0, move: 1, depth: 4, work: 20}) // heuristic: not saved
	st := savedState{id: "mangala x", nodes: 77, elapsed: time.Minute, roots: []savedRoot{{action: 2, lo: -4, hi: 6, guess: 1}}}
	b := encodeForTest(&st, tt)
	got, err := decodeState(b)
	if err != nil || got.id != st.id || got.nodes != 77 || got.elapsed != time.Minute || len(got.roots) != 1 || got.roots[0] != st.roots[0] || len(got.entries) != 32 {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	for n := range len(b) {
		if _, err := decodeState(b[:n]); err == nil {
			t.Fatalf("a state cut to %d of %d bytes decoded", n, len(b))
		}
	}
}

// encodeForTest returns the bytes save writes for st and tt.
func encodeForTest(st *savedState, tt *ktable) []byte {
	var out []byte
	put := func(p []byte) { out = append(out, p...) }
	put(st.encodeHead())
	tt.appendProven(put)
	sum := sha256Sum(out)
	return append(out, sum[:]...)
}

func FuzzDecodeState(f *testing.F) {
	tt := newKTable(4)
	tt.store(0x1234_5678_9abc_def1, kval{lo: -3, hi: 5, move: 2, depth: exactDepth, work: 9})
	f.Add(encodeForTest(&savedState{id: "kalah 4,4/4,4 0 0 - - w", roots: []savedRoot{{action: 1, lo: -2, hi: 2}}}, tt))
	f.Add([]byte("KMKSTATE"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decodeState(b)
		if err != nil {
			return
		}
		if len(st.entries)%16 != 0 || len(st.roots) > env.MaxActions {
			t.Fatalf("decoded a bad state: %+v", st)
		}
		for _, r := range st.roots {
			if r.lo > r.hi {
				t.Fatalf("bounds %d..%d", r.lo, r.hi)
			}
		}
	})
}

// TestSolveKilled runs a resumable solve in a child process that saves
// every millisecond, kills it with SIGKILL once a saved state holds 5,000
// nodes of work, and checks that the file is whole and that a resumed solve gives
// the value and move values of an unbroken one.
func TestSolveKilled(t *testing.T) {
	p := Pits{2, 1, 3, 0, 1, 2, 1, 0, 2, 1, 0, 2}
	if path := os.Getenv("SOLVE_STATE_CHILD"); path != "" {
		s, _ := New(Config{TTBits: 16, State: path, SaveEvery: time.Millisecond})
		_, err := s.Solve(boardOf(t, p, 0, false), 0)
		t.Fatalf("the child solve should have been killed: %v", err)
	}
	path := filepath.Join(t.TempDir(), "state")
	cmd := exec.Command(os.Args[0], "-test.run=^TestSolveKilled$")
	cmd.Env = append(os.Environ(), "SOLVE_STATE_CHILD="+path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			if st, err := decodeState(b); err == nil && st.nodes >= 5000 {
				break
			}
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no state of 5,000 nodes appeared")
		}
	}
	cmd.Process.Kill()
	err := cmd.Wait()
	data, rerr := os.ReadFile(path)
	st, derr := decodeState(data)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != -1 {
		t.Fatalf("the child was not killed: %v", err)
	}
	if rerr != nil || derr != nil {
		t.Fatalf("the state left by the kill (child: %v): %v %v", err, rerr, derr)
	}
	b := boardOf(t, p, 0, false)
	plain, _ := New(Config{TTBits: 16})
	want, _ := plain.Solve(b, 0)
	resumed, _ := New(Config{TTBits: 16, State: path})
	got, err2 := resumed.Solve(b, 0)
	if err2 != nil || got.Lo != want.Lo || got.Hi != want.Hi || len(got.Moves) != len(want.Moves) {
		t.Fatalf("resumed after the kill (%d nodes saved): %d..%d %v, unbroken %d", st.nodes, got.Lo, got.Hi, err2, want.Lo)
	}
	for i := range got.Moves {
		if got.Moves[i] != want.Moves[i] {
			t.Errorf("move %d: resumed %+v, unbroken %+v", got.Moves[i].Action.Pit(), got.Moves[i], want.Moves[i])
		}
	}
}
