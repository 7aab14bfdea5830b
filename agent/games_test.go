package agent

import (
	"context"
	"fmt"
	"testing"

	"kumalak/env"
	"kumalak/env/mangala"
	"kumalak/env/togyz"
)

// TestAlphaBetaGamesMatchMinimax runs the minimax cross-check on the real
// games: togyz (many transpositions through swapped move orders) and the
// mangalas (extra turns in mangala).
func TestAlphaBetaGamesMatchMinimax(t *testing.T) {
	for _, spec := range []*env.Spec{togyz.Spec, mangala.Spec, mangala.KaleSpec} {
		r := rng(5)
		checked := 0
		for i := 0; checked < 25 && i < 200; i++ {
			st := randomPosition(spec, r, r.IntN(80))
			if st == nil || len(st.Legal(nil)) < 2 {
				continue
			}
			depth := 1 + checked%4
			want := int32(0)
			for k, mib := range []int{0, 1} {
				s := newSearcher(spec, depth, 0, 0, mib, rng(uint64(i)))
				if _, err := s.Move(context.Background(), st); err != nil {
					t.Fatal(err)
				}
				if k == 0 {
					want = minimax(s, st, depth, 0)
				}
				if got := whiteView(st, s.score); got != want {
					t.Fatalf("%s %s depth %d tt %d: alpha-beta %d, minimax %d", spec.Name, st, depth, mib, got, want)
				}
			}
			checked++
		}
		if checked < 25 {
			t.Errorf("%s: %d positions", spec.Name, checked)
		}
	}
}

// TestAlphaBetaTogyzWins: pit 9 sows into black's pit 1, making 2, and the
// capture takes white's kazan to 82; pit 1 does nothing.
func TestAlphaBetaTogyzWins(t *testing.T) {
	st, err := togyz.Spec.Parse("1,0,0,0,0,0,0,0,1/1,2,2,2,2,3,3,2,3 80 60 - - w")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"ab:depth=1", "ab:depth=5", "greedy", "mcts:sims=50"} {
		ag, err := New(togyz.Spec, s, 1)
		if err != nil {
			t.Fatal(err)
		}
		if a, err := ag.Move(context.Background(), st); err != nil || a != 8 {
			t.Errorf("%s: pit %d, %v; want pit 9", s, a.Pit(), err)
		}
	}
}

// TestAlphaBetaTTSameValue: on togyz positions the table does not change
// the value of a depth-6 search (the move may differ between equal ones).
func TestAlphaBetaTTSameValue(t *testing.T) {
	r := rng(8)
	for i := 0; i < 10; i++ {
		st := randomPosition(togyz.Spec, r, 10+r.IntN(60))
		if st == nil || len(st.Legal(nil)) < 2 {
			continue
		}
		var got []string
		for _, mib := range []int{0, 4} {
			s := newSearcher(togyz.Spec, 6, 0, 0, mib, rng(1))
			if _, err := s.Move(context.Background(), st); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprint(s.score))
		}
		if got[0] != got[1] {
			t.Errorf("%s: without table %s, with %s", st, got[0], got[1])
		}
	}
}

// BenchmarkAlphaBetaTogyz measures nodes per second of a depth-8 search
// from a middle-game togyz position, with a fresh 2 MiB table each time.
func BenchmarkAlphaBetaTogyz(b *testing.B) {
	st := randomPosition(togyz.Spec, rng(3), 20)
	s := newSearcher(togyz.Spec, 8, 0, 0, 2, rng(1))
	ctx := context.Background()
	var nodes int64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Reset()
		if _, err := s.Move(ctx, st); err != nil {
			b.Fatal(err)
		}
		nodes += s.nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
