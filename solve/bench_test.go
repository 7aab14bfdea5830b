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

// classicBench are classic positions of 16 to 18 stones for
// BenchmarkClassicEngines.
var classicBench = []Pits{
	{2, 1, 3, 0, 1, 2, 1, 0, 2, 1, 0, 3},
	{3, 0, 2, 1, 2, 1, 0, 2, 1, 3, 1, 1},
	{1, 2, 0, 3, 2, 1, 2, 1, 0, 2, 1, 3},
}

// BenchmarkClassicEngines solves classicBench with the 10-stone tablebase
// by the engine Solve uses for classic mangala (ksearch.go) and by the
// alpha-beta search it replaced (search.go, one slot a bucket, always
// overwritten; still the kale search), each with a fresh 2^18-slot table,
// one thread, and reports the nodes of one pass.
func BenchmarkClassicEngines(b *testing.B) {
	tb := openShared(b, sharedStones)
	b.Run("engine", func(b *testing.B) {
		var nodes uint64
		for b.Loop() {
			for _, p := range classicBench {
				s := newSolver(b, tb)
				r, err := s.Solve(boardOf(b, p, 0, false), 0)
				if err != nil || !r.Exact() {
					b.Fatal(r, err)
				}
				nodes += r.Nodes
			}
		}
		b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	})
	b.Run("alphabeta", func(b *testing.B) {
		var nodes uint64
		for b.Loop() {
			for _, p := range classicBench {
				s := newSolver(b, tb)
				bd := boardOf(b, p, 0, false)
				s.stats = Stats{}
				r := s.solveMoves(bd, 0, nil)
				if !r.Exact() {
					b.Fatal(r)
				}
				nodes += s.stats.Nodes
			}
		}
		b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	})
}
