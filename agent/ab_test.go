package agent

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/env/envtest"
)

// minimax is plain minimax without pruning, from White's view, scoring
// leaves like the alpha-beta search: the reference it must agree with.
func minimax(s *alphaBeta, st env.State, depth, ply int) int32 {
	sc := st.(env.Scorer)
	if v, ok := s.settled(st, sc, st.ToMove(), ply); ok && ply > 0 { // the root is always searched
		return whiteView(st, v)
	}
	if depth == 0 {
		return whiteView(st, s.eval(st, sc, st.ToMove()))
	}
	var buf [16]env.Action
	best := int32(infScore)
	if st.ToMove() == env.White {
		best = -infScore
	}
	for _, a := range st.Legal(buf[:0]) {
		c := env.Clone(st)
		c.Apply(a)
		v := minimax(s, c, depth-1, ply+1)
		if (st.ToMove() == env.White && v > best) || (st.ToMove() == env.Black && v < best) {
			best = v
		}
	}
	return best
}

func whiteView(st env.State, v int32) int32 {
	if st.ToMove() == env.Black {
		return -v
	}
	return v
}

// randomPosition plays random moves from the start and returns an ongoing
// position, or nil.
func randomPosition(spec *env.Spec, rng *rand.Rand, plies int) env.State {
	st := spec.New()
	var buf [env.MaxActions]env.Action
	for i := 0; i < plies; i++ {
		moves := st.Legal(buf[:0])
		if len(moves) == 0 {
			return nil
		}
		st.Apply(moves[rng.IntN(len(moves))])
	}
	if st.Result() != env.Ongoing {
		return nil
	}
	return st
}

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 9)) }

// TestAlphaBetaMatchesMinimax checks the search value against plain minimax
// on random positions of a game with extra turns, with and without the
// transposition table, and that the chosen move reaches that value.
func TestAlphaBetaMatchesMinimax(t *testing.T) {
	r := rng(1)
	checked := 0
	for i := 0; i < 150; i++ {
		st := randomPosition(envtest.Kalah3, r, r.IntN(20))
		if st == nil || len(st.Legal(nil)) < 2 {
			continue // a forced move is played unsearched
		}
		depth := 1 + i%6
		for _, mib := range []int{0, 1} {
			s := newSearcher(envtest.Kalah3, depth, 0, 0, mib, rng(uint64(i)))
			a, err := s.Move(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			want := minimax(s, st, depth, 0)
			if got := whiteView(st, s.score); got != want {
				t.Fatalf("%s depth %d tt %d: alpha-beta %d, minimax %d", st, depth, mib, got, want)
			}
			c := env.Clone(st)
			c.Apply(a)
			if got := minimax(s, c, depth-1, 1); got != want {
				t.Fatalf("%s depth %d: move %d is worth %d, best %d", st, depth, a.Pit(), got, want)
			}
		}
		checked++
	}
	if checked < 60 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// TestAlphaBetaForcedWin: white wins only by 3, 2, 3 (three extra turns);
// pit 2 first draws. The timed search has time enough for depth 3 on a
// loaded machine under the race detector (20 ms reached only depth 2).
func TestAlphaBetaForcedWin(t *testing.T) {
	st, err := envtest.ParseKalah(envtest.Kalah3, "0,2,1/0,1,1 7 6 - - w 10")
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"ab:depth=3", "ab:depth=8", "ab:depth=8,tt=0", "ab:time=500ms"} {
		ag, err := New(envtest.Kalah3, spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		a, err := ag.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		an := ag.(Analyzer).Analysis()
		if a != 2 || an.Value != 1 || len(an.PV) != 3 || an.PV[1] != 1 || an.PV[2] != 2 {
			t.Errorf("%s: move %d, analysis %+v; want pit 3, value 1, PV 3 2 3", spec, a.Pit(), an)
		}
	}
}

// TestAlphaBetaSolvesEndgames compares a full-depth search with an exact
// solver near the end of toy games.
func TestAlphaBetaSolvesEndgames(t *testing.T) {
	r := rng(2)
	checked := 0
	for i := 0; i < 300; i++ {
		st := randomPosition(envtest.Kalah3, r, 8+r.IntN(12))
		if st == nil || len(st.Legal(nil)) < 2 {
			continue
		}
		want := solveResult(st)
		s := newSearcher(envtest.Kalah3, 20, 0, 0, 1, rng(3))
		a, err := s.Move(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		got := s.ana.Value
		if got != want {
			t.Fatalf("%s: value %v, solver %v", st, got, want)
		}
		c := env.Clone(st)
		c.Apply(a)
		if v := solveResult(c); (c.ToMove() == st.ToMove() && v != want) || (c.ToMove() != st.ToMove() && -v != want) {
			t.Fatalf("%s: move %d does not keep the solved value %v", st, a.Pit(), want)
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// solveResult returns the game value for the mover: 1, 0 or -1.
func solveResult(st env.State) float32 {
	if r := st.Result(); r != env.Ongoing {
		return r.Value(st.ToMove())
	}
	var buf [16]env.Action
	best := float32(-2)
	for _, a := range st.Legal(buf[:0]) {
		c := env.Clone(st)
		c.Apply(a)
		v := solveResult(c)
		if c.ToMove() != st.ToMove() {
			v = -v
		}
		best = max(best, v)
	}
	return best
}

func TestAlphaBetaTimeAndCancel(t *testing.T) {
	ag, err := New(envtest.Kalah3, "ab:time=30ms", 1)
	if err != nil {
		t.Fatal(err)
	}
	st := envtest.Kalah3.New()
	t0 := time.Now()
	if _, err := ag.Move(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	if dt := time.Since(t0); dt > 5*time.Second { // generous, for a loaded machine
		t.Errorf("time=30ms took %v", dt)
	}
	if d := ag.(Analyzer).Analysis().Depth; d < 2 {
		t.Errorf("time=30ms reached depth %d", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ag.Move(ctx, st); err == nil {
		t.Error("cancelled context: no error")
	}
}

func TestAlphaBetaAllocs(t *testing.T) {
	ag, err := New(envtest.Kalah3, "ab:depth=5", 1)
	if err != nil {
		t.Fatal(err)
	}
	st := envtest.Kalah3.New()
	ctx := context.Background()
	n := testing.AllocsPerRun(20, func() {
		if _, err := ag.Move(ctx, st); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per Move, want 0", n)
	}
}
