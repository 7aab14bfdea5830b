package selfplay

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"kumalak/data"
	"kumalak/env"
	"kumalak/env/envtest"
	"kumalak/mcts"
)

// A position with one legal move is played at once: no search, no sample.
func TestForcedMovesNotRecorded(t *testing.T) {
	games, st := collect(t, &toyEval{}, testConfig(), 24, 11)
	forced := 0
	for _, g := range games {
		states := replay(&g)
		n := 0
		for ply, a := range g.Moves {
			if len(states[ply].Legal(nil)) == 1 {
				n++
				if g.Full[ply] {
					t.Fatalf("game %d ply %d (move %d): forced move marked as a full search", g.Index, ply, a)
				}
				if slices.ContainsFunc(g.Samples, func(s data.Sample) bool { return int(s.Ply) == ply }) {
					t.Fatalf("game %d ply %d: forced move recorded", g.Index, ply)
				}
			}
		}
		if g.Forced != n {
			t.Fatalf("game %d: Forced %d, replay finds %d", g.Index, g.Forced, n)
		}
		forced += n
	}
	if forced == 0 || st.Forced != forced {
		t.Fatalf("%d forced moves, stats say %d: the test proves nothing", forced, st.Forced)
	}
	if want := float64(st.Positions) / float64(st.Samples); st.SimsPerSample() != want {
		t.Fatalf("sims per sample %v, want %v", st.SimsPerSample(), want)
	}
}

// Games reach out in index order even when later games finish first, and
// a seed reproduces the samples in order, whatever the workers' timing.
func TestGameOrder(t *testing.T) {
	cfg := testConfig()
	cfg.Games = 6
	cfg.FullFraction = 0.5
	run := func() []data.Sample {
		var order []int
		var samples []data.Sample
		ev := &toyEval{delay: 50 * time.Microsecond}
		_, err := Run(context.Background(), toySpec, ev, cfg, 30, 12, func(g GameResult) {
			order = append(order, g.Index)
			samples = append(samples, g.Samples...)
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range order {
			if x != i {
				t.Fatalf("delivery order %v, want 0, 1, 2, ...", order)
			}
		}
		return trimSamples(samples)
	}
	a, b := run(), run()
	if len(a) == 0 || !slices.EqualFunc(a, b, func(x, y data.Sample) bool { return x.Equal(&y) }) {
		t.Fatal("two runs with the same seed wrote different samples")
	}
}

func TestAgree(t *testing.T) {
	for _, tc := range []struct{ score, outcome, want float32 }{
		{0.25, 1, 0.25},
		{-0.25, 1, 0.1},
		{0, 1, 0.1},
		{0.25, -1, -0.1},
		{-0.5, -1, -0.5},
		{0.3, 0, 0},
		{-0.3, 0, 0},
	} {
		if got := agree(tc.score, tc.outcome, 10); got != tc.want {
			t.Errorf("agree(%v, %v) = %v, want %v", tc.score, tc.outcome, got, tc.want)
		}
	}
}

// In resigned games (white resigns early, often ahead in stones) every
// score target has the sign of the outcome.
func TestResignedScoresAgree(t *testing.T) {
	cfg := testConfig()
	cfg.ResignThreshold, cfg.ResignPlies, cfg.ResignOffFraction = 0.8, 1, 0
	cfg.FullSims, cfg.CheapSims = 4, 2
	games, st := collect(t, whiteLost{}, cfg, 20, 13)
	if st.Resigned != 20 {
		t.Fatalf("%d of 20 games resigned", st.Resigned)
	}
	for _, g := range games {
		for _, s := range g.Samples {
			if s.Score*s.Outcome <= 0 {
				t.Fatalf("game %d ply %d: score %v against outcome %v", g.Index, s.Ply, s.Score, s.Outcome)
			}
		}
	}
}

// Gumbel self-play needs no Dirichlet noise and no temperature: without
// either, PUCT plays the same game every time (the evaluator is
// deterministic), while the Gumbel draws make games differ, and every
// target is a proper distribution over the legal moves.
func TestGumbelSelfPlayExplores(t *testing.T) {
	openings := func(kind mcts.Kind) int {
		cfg := testConfig()
		cfg.Search.Kind, cfg.Search.NoiseAlpha, cfg.Search.GumbelM = kind, 0, 3
		cfg.TempPlies, cfg.FullSims = 0, 12
		games, _ := collect(t, &toyEval{}, cfg, 16, 14)
		seen := map[string]bool{}
		for _, g := range games {
			seen[fmtMoves(g.Moves[:min(4, len(g.Moves))])] = true
			for _, s := range g.Samples {
				var sum float64
				for a, p := range s.Policy {
					if p < 0 || (s.Legal>>a&1 == 0 && p != 0) {
						t.Fatalf("%s: policy %v with legal %b", kind, s.Policy, s.Legal)
					}
					sum += float64(p)
				}
				if math.Abs(sum-1) > 1e-5 {
					t.Fatalf("%s: policy %v sums to %v", kind, s.Policy, sum)
				}
			}
		}
		return len(seen)
	}
	if n := openings(mcts.PUCT); n != 1 {
		t.Fatalf("PUCT without noise or temperature: %d different openings, want 1", n)
	}
	if n := openings(mcts.Gumbel); n < 2 {
		t.Fatalf("Gumbel without noise or temperature: %d different openings in 16 games, want several", n)
	}
}

// With HonestBudget, a search's budget counts the visits kept from the last
// move: no search adds more than its budget, and reuse makes some add less.
func TestHonestBudget(t *testing.T) {
	cfg := testConfig()
	cfg.HonestBudget = true
	cfg.FullFraction = 0.5
	cfg.Search.Solver = false
	w := newWorker(toySpec, &toyEval{}, cfg, func(int64, int64) {})
	if l := w.limits(true); l.Visits != cfg.FullSims || l.Sims != 0 || l.NoNoise {
		t.Fatalf("full limits %+v", l)
	}
	if l := w.limits(false); l.Visits != cfg.CheapSims || l.Sims != 0 || !l.NoNoise {
		t.Fatalf("cheap limits %+v", l)
	}
	games, st := collect(t, &toyEval{}, cfg, 20, 15)
	var searched int
	for _, g := range games {
		searched += g.Plies() - g.Forced
	}
	plain := testConfig()
	plain.FullFraction, plain.Search.Solver = 0.5, false
	_, pst := collect(t, &toyEval{}, plain, 20, 15)
	if st.Positions >= pst.Positions {
		t.Fatalf("honest budget searched %d positions, plain %d: reuse saved nothing", st.Positions, pst.Positions)
	}
	if max := int64(searched * cfg.FullSims); st.Positions > max {
		t.Fatalf("%d positions in %d searches of at most %d", st.Positions, searched, cfg.FullSims)
	}
}

// Samples carry the search's proof-aware target (mcts.Search.Policy): with
// the solver on, a position of "take" with a winning move puts no weight on
// its losing moves.
// (The Gumbel search solves "take" from the start and plays one game; its
// proof-aware targets are tested in mcts.)
func TestTargetsAvoidProvenLosses(t *testing.T) {
	cfg := testConfig()
	cfg.FullSims = 200
	games, _ := collect(t, &toyEval{}, cfg, 40, 16)
	if n := avoidsLosses(t, games); n < 3 {
		t.Fatalf("%d endgame samples with a losing move: the test proves little", n)
	}
}

// With Search.ProofTargets off the targets are the plain visit shares, and
// some of them weigh a move proven lost: the switch is what removes them.
func TestProofTargetsOff(t *testing.T) {
	cfg := testConfig()
	cfg.FullSims = 200
	cfg.Search.ProofTargets = false
	games, _ := collect(t, &toyEval{}, cfg, 40, 16)
	weighed := 0
	endgames(games, func(g *GameResult, s data.Sample, st *envtest.Kalah, win bool, lose []int) {
		for _, a := range lose {
			if s.Policy[a] > 0 {
				weighed++
			}
		}
	})
	if weighed == 0 {
		t.Fatal("no target weighs a losing move with proof_targets off: the switch changes nothing")
	}
}

// avoidsLosses checks the samples of games and returns how many had both a
// losing and a winning move.
func avoidsLosses(t *testing.T, games []GameResult) int {
	t.Helper()
	checked := 0
	endgames(games, func(g *GameResult, s data.Sample, st *envtest.Kalah, win bool, lose []int) {
		if len(lose) == 0 || !win {
			return
		}
		checked++
		for _, a := range lose {
			if s.Policy[a] != 0 {
				t.Fatalf("game %d ply %d (%s): target %v weighs losing move %d", g.Index, s.Ply, st, s.Policy, a)
			}
		}
	})
	return checked
}

// endgames calls f with every sample of games whose position has at most
// 10 stones on the board, whether one of its moves wins, and its losing
// moves (exact minimax).
func endgames(games []GameResult, f func(g *GameResult, s data.Sample, st *envtest.Kalah, win bool, lose []int)) {
	memo := map[envtest.Kalah]envtest.Solved{}
	for i := range games {
		g := &games[i]
		states := replay(g)
		for _, s := range g.Samples {
			st := states[s.Ply].(*envtest.Kalah)
			if onBoard(st) > 10 {
				continue
			}
			win, lose := false, []int{}
			for _, a := range st.Legal(nil) {
				next := *st
				next.Apply(a)
				switch v := envtest.Solve(&next, memo).Result.Value(st.ToMove()); {
				case v > 0:
					win = true
				case v < 0:
					lose = append(lose, int(a))
				}
			}
			f(g, s, st, win, lose)
		}
	}
}

// onBoard returns the stones in k's pits.
func onBoard(k *envtest.Kalah) int {
	return k.Spec().Stones - k.Store(env.White) - k.Store(env.Black)
}
