package mcts

import (
	"testing"

	"kumalak/env"
)

// TestSolverMatchesMinimax checks proven values against exact minimax over
// many kala3 positions (with extra turns): every proof the search makes,
// at the root and at each root child, is the true value.
func TestSolverMatchesMinimax(t *testing.T) {
	pos, val := endgames(40, 1)
	memo := map[kala]solved{}
	proven := 0
	for i, k := range pos {
		s := newTest(kala3, Uniform{}, DefaultConfig(), uint64(i))
		s.Reset(k)
		if err := s.Run(ctx, Limits{Sims: 20000}); err != nil {
			t.Fatal(err)
		}
		checkTree(t, s)
		root := s.Root()
		if root.Proof != Unproven {
			proven++
			if want := proofOf(val[i].Result, k.ToMove()); root.Proof != want {
				t.Fatalf("%s: root proven %v, minimax says %v", k, root.Proof, want)
			}
			if root.Depth < val[i].Depth {
				t.Errorf("%s: proof in %d plies, but the shortest win takes %d", k, root.Depth, val[i].Depth)
			}
		}
		for _, c := range s.Children(nil) {
			if c.Proof == Unproven {
				continue
			}
			next := *k
			next.Apply(c.Action)
			if want := proofOf(minimax(&next, memo).Result, k.ToMove()); c.Proof != want {
				t.Fatalf("%s: move %d proven %v, minimax says %v", k, c.Action, c.Proof, want)
			}
		}
		if a := s.Choose(0); root.Proof == ProvenWin {
			next := *k
			next.Apply(a)
			if minimax(&next, memo).Result != env.WinFor(k.ToMove()) {
				t.Errorf("%s: root proven won but Choose plays losing move %d", k, a)
			}
		}
	}
	if proven < len(pos)*3/4 {
		t.Errorf("only %d of %d won endgames proven", proven, len(pos))
	}
}

// TestSolverPlaysOutWin plays proven-won kala3 endgames to the end against
// a perfect defender (longest resistance), reusing the tree: the win must
// come within the plies the first proof promised.
func TestSolverPlaysOutWin(t *testing.T) {
	pos, _ := endgames(12, 2)
	memo := map[kala]solved{}
	for i, start := range pos {
		k := *start
		winner := k.ToMove()
		s := newTest(kala3, Uniform{}, DefaultConfig(), uint64(i))
		s.Reset(&k)
		if err := s.Run(ctx, Limits{Sims: 50000}); err != nil {
			t.Fatal(err)
		}
		if s.Root().Proof != ProvenWin {
			t.Fatalf("%s: root %+v, want a proven win", &k, s.Root())
		}
		promised := s.Root().Depth
		plies := 0
		for ; k.Result() == env.Ongoing; plies++ {
			var a env.Action
			if k.ToMove() == winner {
				if err := s.Run(ctx, Limits{Sims: 1000}); err != nil {
					t.Fatal(err)
				}
				if s.Root().Proof != ProvenWin {
					t.Fatalf("%s: won position lost its proof: %+v", &k, s.Root())
				}
				a = s.Choose(0)
			} else {
				a = defend(&k, memo)
			}
			k.Apply(a)
			s.Advance(a, &k)
		}
		if k.Result() != env.WinFor(winner) || plies > promised {
			t.Errorf("%s: ended %v after %d plies, promised a win for %v in %d", start, k.Result(), plies, winner, promised)
		}
	}
}

// defend returns the move that loses slowest (or does not lose) by minimax.
func defend(k *kala, memo map[kala]solved) env.Action {
	var buf [6]env.Action
	best, bestRank := env.Action(0), -1
	for _, a := range k.Legal(buf[:0]) {
		c := *k
		c.Apply(a)
		v := minimax(&c, memo)
		v.Depth++
		if r := v.Rank(k.ToMove()); r > bestRank {
			best, bestRank = a, r
		}
	}
	return best
}

// TestSolverStopsAtProof: a proven root ends Run early, and a terminal root
// is not searched at all.
func TestSolverStopsAtProof(t *testing.T) {
	pos, _ := endgames(1, 3)
	s := newTest(kala3, Uniform{}, DefaultConfig(), 1)
	s.Reset(pos[0])
	if err := s.Run(ctx, Limits{Sims: 1000000}); err != nil {
		t.Fatal(err)
	}
	if r := s.Root(); r.Proof != ProvenWin || r.Visits >= 1000000 || r.Value != 1 {
		t.Errorf("root %+v, want proven win found early with value 1", r)
	}
	// The policy target of a proven win is the winning move alone.
	pol := make([]float32, kala3.NumActions)
	s.Policy(pol)
	if a := s.Choose(0); pol[a] != 1 {
		t.Errorf("policy %v of a proven win, want 1 on the move played (%d)", pol, a)
	}
	s.Reset(mustKala(kala3, "0,0,0/1,2,0 5 10 - - w"))
	if err := s.Run(ctx, Limits{Sims: 10}); err != nil {
		t.Fatal(err)
	}
	if r := s.Root(); r.Visits != 0 || r.Proof != ProvenLoss || r.Value != -1 {
		t.Errorf("terminal root %+v, want unvisited proven loss", r)
	}
}

// TestExtraTurnWin: in these positions every winning move is an extra
// turn and some moves lose; the search must see that the child has the
// same mover.
func TestExtraTurnWin(t *testing.T) {
	memo := map[kala]solved{}
	for _, pos := range []string{"1,1,1/0,2,7 4 2 - - w", "1,4,0/3,0,2 4 4 - - b"} {
		k := mustKala(kala3, pos)
		m := k.ToMove()
		if v := minimax(k, memo); v.Result != env.WinFor(m) || !extraTurnWinsOnly(k, memo) {
			t.Fatalf("test position %s: minimax %v, want wins by extra turns only", k, v.Result)
		}
		for _, solver := range []bool{true, false} {
			cfg := DefaultConfig()
			cfg.Solver = solver
			s := newTest(kala3, Uniform{}, cfg, 1)
			s.Reset(k)
			if err := s.Run(ctx, Limits{Sims: 20000}); err != nil {
				t.Fatal(err)
			}
			a := s.Choose(0)
			next := *k
			next.Apply(a)
			if next.ToMove() != m || minimax(&next, memo).Result != env.WinFor(m) {
				t.Errorf("%s solver %v: chose %d (%v), want the extra-turn win", pos, solver, a, s.Children(nil))
			}
			if solver && s.Root().Proof != ProvenWin {
				t.Errorf("%s: root %+v, want proven win", pos, s.Root())
			}
		}
	}
}

// extraTurnWinsOnly reports whether every winning move of k gives its
// mover another turn, and some move does not win.
func extraTurnWinsOnly(k *kala, memo map[kala]solved) bool {
	var buf [6]env.Action
	others := false
	for _, a := range k.Legal(buf[:0]) {
		c := *k
		c.Apply(a)
		win := minimax(&c, memo).Result == env.WinFor(k.ToMove())
		if win && c.ToMove() != k.ToMove() {
			return false
		}
		others = others || !win
	}
	return others
}

func TestRolloutsFindWin(t *testing.T) {
	pos, _ := endgames(10, 4)
	memo := map[kala]solved{}
	cfg := DefaultConfig()
	cfg.Solver, cfg.Rollouts = false, 4
	wins := 0
	for i, k := range pos {
		s := newTest(kala3, nil, cfg, uint64(i))
		s.Reset(k)
		if err := s.Run(ctx, Limits{Sims: 3000}); err != nil {
			t.Fatal(err)
		}
		checkTree(t, s)
		next := *k
		next.Apply(s.Choose(0))
		if minimax(&next, memo).Result == env.WinFor(k.ToMove()) {
			wins++
		}
	}
	if wins < 9 {
		t.Errorf("pure MCTS kept the win in %d of %d endgames", wins, len(pos))
	}
}
