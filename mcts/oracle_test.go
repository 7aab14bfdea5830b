package mcts_test

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"kumalak/env"
	"kumalak/env/mangala"
	"kumalak/mcts"
	"kumalak/solve"
	"kumalak/solve/solvetest"
)

var _ mcts.Oracle = (*solve.Tablebase)(nil)

func TestMain(m *testing.M) { os.Exit(solvetest.Main(m)) }

// endgame plays random moves from the start until at most stones are on
// the board, and returns the position, still running.
func endgame(rng *rand.Rand, stones int) *mangala.Board {
	var buf [6]env.Action
	for {
		b := mangala.New(false)
		for b.Result() == env.Ongoing && onBoard(b) > stones {
			legal := b.Legal(buf[:0])
			b.Apply(legal[rng.IntN(len(legal))])
		}
		if b.Result() == env.Ongoing {
			return b
		}
	}
}

func onBoard(b *mangala.Board) int {
	return mangala.Stones - b.Store(env.White) - b.Store(env.Black)
}

// TestOracleProvesRoot: with a tablebase as its oracle, the search proves
// tablebase positions with the tablebase's result, from few simulations.
func TestOracleProvesRoot(t *testing.T) {
	tb := solvetest.Open(t)
	rng := rand.New(rand.NewPCG(1, 2))
	cfg := mcts.DefaultConfig()
	cfg.Rollouts = 1
	for i := range 30 {
		b := endgame(rng, 8)
		want, ok := tb.Exact(b)
		if !ok {
			t.Fatalf("%s: not in the tablebase", b)
		}
		s := mcts.New(mangala.Spec, nil, cfg, rand.New(rand.NewPCG(uint64(i), 0)))
		s.SetOracle(tb)
		s.Reset(b)
		if err := s.Run(context.Background(), mcts.Limits{Sims: 10000}); err != nil {
			t.Fatal(err)
		}
		r := s.Root()
		wantProof := map[float32]mcts.Proof{1: mcts.ProvenWin, 0: mcts.ProvenDraw, -1: mcts.ProvenLoss}[want]
		if r.Proof != wantProof || r.Value != want {
			t.Fatalf("%s: root %v value %v after %d visits, tablebase %v", b, r.Proof, r.Value, r.Visits, want)
		}
		if r.Visits > 200 {
			t.Errorf("%s: %d visits to prove a tablebase position", b, r.Visits)
		}
		// The root moves along a proven child: the search starts afresh.
		a := s.Choose(0)
		b.Apply(a)
		s.Advance(a, b)
		if b.Result() == env.Ongoing && s.Root().Proof != mcts.Unproven {
			t.Fatalf("%s: the new root is proven before any search", b)
		}
	}
}
