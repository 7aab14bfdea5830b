package solve

import (
	"context"
	"testing"
)

// BenchmarkBuild builds levels 0..12 into a fresh folder; one op is the
// whole build, and positions/s counts configurations.
func BenchmarkBuild(b *testing.B) {
	for b.Loop() {
		if _, err := Build(context.Background(), BuildConfig{Dir: b.TempDir(), Stones: 12}); err != nil {
			b.Fatal(err)
		}
	}
	n := 0.0
	for s := 0; s <= 12; s++ {
		n += float64(LevelSize(s))
	}
	b.ReportMetric(n*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
}

// BenchmarkSolve solves a 14-stone position with the 10-stone tablebase.
func BenchmarkSolve(b *testing.B) {
	tb := openShared(b, sharedStones)
	p := Pits{2, 1, 0, 3, 1, 0, 1, 2, 0, 2, 1, 1}
	for b.Loop() {
		s := newSolver(b, tb)
		if _, err := s.Solve(boardOf(b, p, 0, false), 0); err != nil {
			b.Fatal(err)
		}
	}
}
