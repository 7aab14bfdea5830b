package togyz

import (
	"math/rand/v2"
	"testing"

	"kumalak/env"
)

// startPerft is docs/RULES.md's table for togyz from the start position.
var startPerft = []uint64{1, 9, 73, 613, 5199, 43184, 360035, 3003052, 25166174}

func TestPerftStart(t *testing.T) {
	maxDepth := 8
	if testing.Short() {
		maxDepth = 6
	}
	for d := 0; d <= maxDepth; d++ {
		if got := New().Perft(d); got != startPerft[d] {
			t.Errorf("perft(start, %d) = %d, want %d", d, got, startPerft[d])
		}
	}
}

// perftPositions have tuzdyks, large pits, and positions near the end.
var perftPositions = []string{
	"0,12,0,0,5,9,10,0,1/20,2,0,0,4,7,0,3,1 33 55 4 3 b",
	"2,2,1,1,0,1,1,1,1/2,2,0,2,2,2,2,2,2 61 75 3 5 w",
	"30,1,0,2,2,0,3,0,1/3,2,1,0,19,2,0,2,2 40 52 - 6 w",
	"1,0,2,3,1,0,2,1,1/0,2,0,0,3,1,2,2,40 70 31 4 - b",
	"0,0,0,0,0,0,7,0,0/1,1,1,2,5,5,5,5,5 60 65 - 4 w",
	"1,0,0,0,0,0,0,0,3/0,2,0,0,0,0,0,0,1 77 78 - - w",
}

func TestPerftAgainstNaive(t *testing.T) {
	depth := 6
	if testing.Short() {
		depth = 5
	}
	for _, s := range perftPositions {
		b := mustParse(t, s)
		for d := 0; d <= depth; d++ {
			fast, slow, naive := b.Perft(d), env.SlowPerft(b, d), naivePerft(naiveParse(s), d)
			if fast != naive || slow != naive {
				t.Errorf("perft(%d) = %d, interface perft %d, naive %d, for\n%s", d, fast, slow, naive, b.Draw())
			}
		}
	}
	if got, want := New().Perft(5), naivePerft(naiveParse(New().String()), 5); got != want {
		t.Errorf("perft(start, 5) = %d, naive %d", got, want)
	}
}

// TestRandomGamesAgainstNaive plays random games with both implementations
// in step and compares every position and result.
func TestRandomGamesAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 400
	if testing.Short() {
		games = 100
	}
	for g := 0; g < games; g++ {
		b := New()
		n := naiveParse(b.String())
		for ply := 0; ; ply++ {
			moves := b.Legal(nil)
			want := n.moves()
			if len(moves) != len(want) {
				t.Fatalf("game %d ply %d: legal %v, naive %v\n%s", g, ply, moves, want, b.Draw())
			}
			if len(moves) == 0 {
				break
			}
			a := moves[rng.IntN(len(moves))]
			before := b.String()
			b.Apply(a)
			n.play(a.Pit())
			if b.String() != n.String() || b.Result().String() != n.result() {
				t.Fatalf("game %d ply %d: %s pit %d gives\n%s %s, naive\n%s %s",
					g, ply, before, a.Pit(), b, b.Result(), n.String(), n.result())
			}
		}
	}
}

func BenchmarkPerft(b *testing.B) {
	const depth = 7
	start := New()
	var nodes uint64
	for b.Loop() {
		nodes += start.Perft(depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkPlayout(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var buf [PitsPerSide]env.Action
	var moves uint64
	st := New()
	for b.Loop() {
		*st = Start()
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
}

func BenchmarkObserve(b *testing.B) {
	st := mustParse(b, perftPositions[0])
	obs := make([]float32, ObsLen)
	for b.Loop() {
		st.Observe(obs)
	}
}

func BenchmarkHash(b *testing.B) {
	st := mustParse(b, perftPositions[0])
	var h uint64
	for b.Loop() {
		h ^= st.Hash()
	}
	_ = h
}
