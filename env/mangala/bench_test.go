package mangala

import (
	"math/rand/v2"
	"testing"

	"kumalak/env"
)

// BenchmarkPerft runs perft 8 from the start; nodes/s counts leaves.
func BenchmarkPerft(b *testing.B) {
	for _, s := range specs {
		b.Run(s.Name+"/d8", func(b *testing.B) {
			st := s.New().(*Board)
			var nodes uint64
			for b.Loop() {
				nodes += st.Perft(8)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkPlayout plays uniformly random games from the start through
// Legal and Apply; one op is one game.
func BenchmarkPlayout(b *testing.B) {
	for _, s := range specs {
		b.Run(s.Name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			start := s.New().(*Board)
			var st Board
			var buf [PitsPerSide]env.Action
			moves := 0
			for b.Loop() {
				st = *start
				for {
					legal := st.Legal(buf[:0])
					if len(legal) == 0 {
						break
					}
					st.Apply(legal[rng.IntN(len(legal))])
					moves++
				}
			}
			b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
			b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
		})
	}
}
