package agent

import (
	"context"
	"math"
	"slices"
	"testing"

	"kumalak/env"
	"kumalak/env/mangala"
	"kumalak/env/togyz"
)

// TestABForcedWinIsAWin: a position with one legal move is still
// searched, so a move that wins at once shows as a win, not 50%.
func TestABForcedWinIsAWin(t *testing.T) {
	st, err := mangala.Spec.Parse("0,0,0,0,0,1/4,4,4,4,4,4 20 3 - - w")
	if err != nil {
		t.Fatal(err)
	}
	var buf [8]env.Action
	if n := len(st.Legal(buf[:0])); n != 1 {
		t.Fatalf("%d legal moves, want 1", n)
	}
	a, _ := New(mangala.Spec, "ab:depth=4", 1)
	if _, err := a.Move(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	an := a.(Analyzer).Analysis()
	if an.WinProb != 1 || an.Value != 1 || an.Mate != 1 || an.WDL != [3]float32{1, 0, 0} {
		t.Errorf("forced win: %+v", an)
	}
}

// TestABReport: values come from the calibration (not a tanh), the line
// is as long as the depth even through table hits, and seldepth and
// hashfull are filled.
func TestABReport(t *testing.T) {
	s := newSearcher(togyz.Spec, 7, 0, 50, 1, rng(3))
	st := togyz.Spec.New()
	for k := range 2 { // the second search hits the table from the first
		if _, err := s.Move(context.Background(), st); err != nil {
			t.Fatal(err)
		}
		an := s.Analysis()
		if an.Depth != 7 || len(an.PV) != 7 || (k == 0 && (an.SelDepth < 7 || an.HashFull <= 0)) {
			t.Errorf("depth %d, line %v, seldepth %d, hashfull %d", an.Depth, an.PV, an.SelDepth, an.HashFull)
		}
		p, ok := WinProb("togyz", float64(an.Score))
		if !ok || math.Abs(p-float64(an.WinProb)) > 1e-6 || !an.HasWDL {
			t.Errorf("winprob %v, calibration says %v", an.WinProb, p)
		}
		if w := an.WDL; math.Abs(float64(w[0]-w[2]-an.Value)) > 1e-6 {
			t.Errorf("value %v, wdl %v", an.Value, w)
		}
	}
}

// TestABMultiPV: with MultiPV n the n best moves come with exact scores,
// best first, the first being the move played; the scores agree with a
// search of each move alone.
func TestABMultiPV(t *testing.T) {
	s := newSearcher(mangala.Spec, 4, 0, 50, 0, rng(5))
	if err := s.SetMultiPV(3); err != nil {
		t.Fatal(err)
	}
	if s.SetMultiPV(0) == nil || s.SetMultiPV(MaxMultiPV+1) == nil {
		t.Error("multipv out of range accepted")
	}
	st := mangala.Spec.New()
	a, err := s.Move(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	lines := slices.Clone(s.Analysis().Lines)
	if len(lines) != 3 || lines[0].PV[0] != a {
		t.Fatalf("lines %+v, move %v", lines, a)
	}
	for k, l := range lines {
		if k > 0 && l.Score > lines[k-1].Score {
			t.Errorf("line %d scores %v above line %d's %v", k, l.Score, k-1, lines[k-1].Score)
		}
		// The score of the line's first move, searched alone to depth 3.
		c := env.Clone(st)
		c.Apply(l.PV[0])
		one := newSearcher(mangala.Spec, 4, 0, 50, 0, rng(1))
		one.begin(context.Background())
		v := one.child(st.ToMove(), c, 3, 1, -infScore, infScore)
		if got, want := l.Score, float32(v)/stoneUnit; got != want {
			t.Errorf("line %d (%v): score %v, alone %v", k, l.PV, got, want)
		}
	}
}

// TestABMultiPVAllocs: the lines of MultiPV reuse their buffers.
func TestABMultiPVAllocs(t *testing.T) {
	s := newSearcher(mangala.Spec, 5, 0, 50, 1, rng(2))
	if err := s.SetMultiPV(3); err != nil {
		t.Fatal(err)
	}
	st := mangala.Spec.New()
	if _, err := s.Move(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(10, func() {
		if _, err := s.Move(context.Background(), st); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 || len(s.Analysis().Lines) != 3 {
		t.Errorf("%v allocations per Move, %d lines", n, len(s.Analysis().Lines))
	}
}
