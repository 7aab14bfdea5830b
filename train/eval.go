package train

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"kumalak/agent"
	"kumalak/arena"
	"kumalak/env"
	"kumalak/mcts"
	"kumalak/net"
	"kumalak/rating"
	"kumalak/solve"
	"kumalak/train/ladder"
)

// Names of the in-process network players in evaluation matches.
const (
	candidateName = "candidate"
	bestName      = "best"
)

// evaluate gates the candidate against the best network and, when due,
// measures the best network (after promotion) against the fixed baselines;
// iteration it began at t0.
func (r *Run) evaluate(ctx context.Context, it int, cand *net.Model, t0 time.Time) (EvalMetrics, error) {
	ec := r.cfg.Eval
	em := EvalMetrics{Gate: ec.Gate, Promoted: ec.Gate == "always"}
	nets := map[string]*net.Batcher{candidateName: net.NewBatcher(cand.Params, r.evalBatcher())}
	defer func() {
		for _, b := range nets {
			b.Close()
		}
	}()
	if ec.Gate != "always" {
		nets[bestName] = net.NewBatcher(r.best.Params, r.evalBatcher())
		var sprt *arena.SPRT
		if ec.Gate == "sprt" {
			s := arena.NewSPRT(ec.SPRTElo0, ec.SPRTElo1)
			sprt = &s
		}
		res, err := r.match(ctx, pairing{it: it, kind: GateGames, a: candidateName, b: bestName, games: ec.Games, sprt: sprt}, nets)
		if err != nil {
			return em, err
		}
		v := matchInfo(res)
		em.Versus = &v
		if ec.Gate == "score" {
			em.Promoted = res.Counts.Score() >= ec.Threshold
		} else {
			em.Promoted = res.Verdict == arena.AcceptH1
		}
	}
	final := r.finalEval(it, t0)
	if !final && !r.baselinesDue(it) {
		return em, nil
	}
	games := ec.BaselineGames
	if final {
		games = ec.FinalBaselineGames
	}
	player := candidateName
	if !em.Promoted {
		player = bestName
		if nets[bestName] == nil {
			nets[bestName] = net.NewBatcher(r.best.Params, r.evalBatcher())
		}
	}
	em.Baseline, em.Final = map[string]rating.Match{}, final
	j, err := r.judge()
	if err != nil {
		return em, err
	}
	var tally solve.Tally
	start, rr := r.opt.Now(), r.roundRobin
	for _, b := range ec.Baselines {
		res, err := r.match(ctx, pairing{it: it, kind: BaselineGames, a: player, b: b, games: games, judge: j, tally: &tally}, nets)
		if err != nil {
			return em, err
		}
		em.Baseline[b] = matchInfo(res)
	}
	if j != nil {
		mm := tally.Summary()
		em.Mistakes = &mm
	}
	if ec.AnchorGames > 0 {
		m := cand
		if !em.Promoted {
			m = r.best
		}
		if err := r.rate(ctx, it, player, m, games, final, nets, &em, t0); err != nil {
			return em, err
		}
	}
	if !final && em.Rung == "" { // a new rung's rating games are not every evaluation's, nor the one-off round robin
		r.evalTook = r.opt.Now().Sub(start) - (r.roundRobin - rr)
	}
	return em, nil
}

// finalEval reports whether iteration it, begun at t0, is the run's
// last, whose baseline evaluation plays FinalBaselineGames: the last of
// an iteration count, or, with a budget, the one after which another
// iteration as long as this one so far, a regular evaluation and the
// final one (both as long as the last regular evaluation took, scaled by
// their games: finalTook) would not fit in what is left of the budget.
// So the final evaluation is counted in the budget: the run ends by its
// end, give or take how much one iteration's time varies, rather than
// overrunning it by the final evaluation; and a run whose final
// evaluation is played is finished (done), however much of the budget
// is left.
func (r *Run) finalEval(it int, t0 time.Time) bool {
	if !r.hasFinal() {
		return false
	}
	if r.cfg.Iterations > 0 && it >= r.cfg.Iterations {
		return true
	}
	b := r.cfg.Budget
	return b > 0 && r.state.Elapsed()+2*r.opt.Now().Sub(t0)+r.evalTook+r.finalTook() >= b
}

// hasFinal reports whether the config plays a final evaluation.
func (r *Run) hasFinal() bool {
	ec := r.cfg.Eval
	return ec.FinalBaselineGames > 0 && ec.BaselineEvery > 0 && len(ec.Baselines) > 0
}

// finalTook is how long the final evaluation will take, as far as the
// last regular one tells (0 before any): its time scaled by their games.
func (r *Run) finalTook() time.Duration {
	ec := r.cfg.Eval
	if !r.hasFinal() || ec.BaselineGames == 0 {
		return 0
	}
	return r.evalTook * time.Duration(ec.FinalBaselineGames) / time.Duration(ec.BaselineGames)
}

// baselinesDue reports whether iteration it plays the baselines: the first,
// every BaselineEvery-th, and the last of a run with an iteration count.
func (r *Run) baselinesDue(it int) bool {
	ec := r.cfg.Eval
	if ec.BaselineEvery == 0 || len(ec.Baselines) == 0 {
		return false
	}
	return it == 1 || it%ec.BaselineEvery == 0 || it == r.cfg.Iterations
}

// pairing is one evaluation match of iteration it: its kind (GateGames or
// BaselineGames, which names its records file), the players and the games.
type pairing struct {
	it         int
	kind, a, b string
	games      int
	seed       uint64      // of the openings; 0 = the iteration's evaluation seed
	sprt       *arena.SPRT // ends the match early; nil plays every game
	// judge, when set, judges a's moves into tally.
	judge *solve.Judge
	tally *solve.Tally
}

// match plays p.a against p.b through the arena; names in nets are network
// players searching with the evaluation's simulations. The games are saved
// to Dir.Games.
func (r *Run) match(ctx context.Context, p pairing, nets map[string]*net.Batcher) (arena.Result, error) {
	ec, it, a, b := r.cfg.Eval, p.it, p.a, p.b
	cfg := arena.DefaultConfig()
	cfg.Games, cfg.Parallel, cfg.OpeningPlies, cfg.SPRT = p.games, ec.Parallel, ec.OpeningPlies, p.sprt
	cfg.Seed, cfg.Balanced = cmp.Or(p.seed, r.seed(it, 3)), ec.BalancedOpenings
	cfg.MaxPlies = r.cfg.SelfPlay.MaxPlies
	path := r.dir.Games(it, p.kind)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return arena.Result{}, fmt.Errorf("train: %w", err)
	}
	defer f.Close()
	var records io.Writer = f
	var judged *arena.JudgeLog
	if p.judge != nil {
		judged = arena.NewJudgeLog(f, r.spec, p.judge, a)
		records = judged
	}
	bar := NewBar(r.out, p.games, r.desc(fmt.Sprintf("iter %d %s vs %s", it, a, b)))
	m := arena.Match{
		Spec: r.spec, A: a, B: b, Config: cfg, Records: records,
		NewAgent: func(spec *env.Spec, s string, seed uint64) (agent.Agent, error) {
			if ev, ok := nets[s]; ok {
				sims := ec.Sims
				if rg := ladder.Find(r.rungs, s); rg != nil {
					sims = rg.Sims
				}
				return agent.NewNetwork(spec, ev, r.evalSearch(), mcts.Limits{Sims: sims}, seed)
			}
			return agent.New(spec, s, seed)
		},
		Progress: func(pr arena.Progress) {
			bar.Describe(r.desc(fmt.Sprintf("iter %d %s vs %s  +%d =%d -%d", it, a, b, pr.Counts.W, pr.Counts.D, pr.Counts.L)))
			_ = bar.Set(pr.Done)
		},
		Notation: r.spec.FormatMoves,
	}
	res, err := m.Run(ctx)
	bar.Finish()
	if judged != nil {
		p.tally.Merge(judged.Tally(a))
	}
	if err != nil {
		return res, fmt.Errorf("train: %s match %s vs %s: %w", p.kind, a, b, err)
	}
	return res, nil
}

// evalBatcher is the batcher of evaluation games: with only a few games at
// once, waiting for a minimum batch would only add latency.
func (r *Run) evalBatcher() net.BatcherConfig {
	c := r.cfg.Batcher
	c.MinBatch = 1
	return c
}

// evalSearch is the search of network players in evaluation games: no
// noise (a Gumbel search without its Gumbel draws), the solver on.
func (r *Run) evalSearch() mcts.Config {
	c := r.cfg.SelfPlay.Search
	c.NoiseAlpha, c.NoiseWeight, c.Solver, c.Batch, c.GumbelScale = 0, 0, true, 1, 0
	return c
}

// matchInfo is the record of a match's result, from player A's view.
func matchInfo(res arena.Result) rating.Match { return rating.MatchOf(res.Counts, res.Elo) }

// tablebase returns the config's tablebase, opening it on first use; nil
// without one.
func (r *Run) tablebase() (*solve.Tablebase, error) {
	if r.tb != nil || r.cfg.Tablebase == "" {
		return r.tb, nil
	}
	tb, err := solve.Open(r.cfg.Tablebase, -1)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	r.tb = tb
	return tb, nil
}

// judge returns the judge of the network's moves in baseline games, nil
// without a tablebase.
func (r *Run) judge() (*solve.Judge, error) {
	tb, err := r.tablebase()
	if tb == nil {
		return nil, err
	}
	j, err := solve.NewJudge(solve.JudgeConfig{Tablebase: tb})
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return j, nil
}
