package train

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"kumalak/arena"
	"kumalak/net"
	"kumalak/rating"
	"kumalak/train/ladder"
)

// The evaluation's rating: the baselines rated once by a round robin (the
// anchors), and the ladder of frozen networks above them (package ladder
// holds its file and arithmetic; here are the games it plays).

// anchors returns the run's anchors, playing the round robin the first
// time, and reads the ladder with them (checking its rungs' models).
func (r *Run) anchors(ctx context.Context) (*net.Anchors, error) {
	if r.anch != nil {
		return r.anch, nil
	}
	f, err := ladder.Load(r.dir.Anchors())
	if err != nil {
		return nil, err
	}
	if f != nil && r.rates(&f.Anchors) {
		if err := ladder.Check(r.dir.String(), f.Ladder); err != nil {
			return nil, err
		}
		r.anch, r.rungs = &f.Anchors, f.Ladder
		return r.anch, nil
	}
	if f != nil && len(f.Ladder) > 0 {
		fmt.Fprintf(r.log, "ladder: the config rates other baselines: the %d rungs rated on the old ones are dropped\n", len(f.Ladder))
	}
	a, err := r.rateBaselines(ctx)
	if err != nil {
		return nil, err
	}
	r.anch, r.rungs = a, nil
	if err := r.saveAnchors(); err != nil {
		return nil, err
	}
	return a, nil
}

// rates reports whether a, read from the run folder, rates the config's
// anchor and baselines (a config edited before a resume may name others:
// then the round robin is played again).
func (r *Run) rates(a *net.Anchors) bool {
	ec := r.cfg.Eval
	if a.ZeroName() != ec.zero() {
		return false
	}
	for _, b := range ec.Baselines {
		if _, ok := a.Ratings[b]; !ok {
			return false
		}
	}
	return true
}

// rateBaselines plays the round robin of the baselines, and of random when
// it is the anchor.
func (r *Run) rateBaselines(ctx context.Context) (*net.Anchors, error) {
	ec := r.cfg.Eval
	zero := ec.zero()
	var players []string
	if zero == "random" {
		players = append(players, "random")
	}
	for _, b := range ec.Baselines {
		if !slices.Contains(players, b) {
			players = append(players, b)
		}
	}
	a := &net.Anchors{Zero: zero, Ratings: map[string]float64{zero: 0}, Errors: map[string]float64{zero: 0}, Games: ec.AnchorGames}
	if len(players) == 1 {
		return a, nil // the anchor alone: nothing to play
	}
	cfg := arena.DefaultConfig()
	cfg.Games, cfg.Parallel, cfg.OpeningPlies, cfg.Seed = ec.AnchorGames, ec.Parallel, ec.OpeningPlies, r.cfg.Seed
	cfg.MaxPlies, cfg.Balanced = r.cfg.SelfPlay.MaxPlies, ec.BalancedOpenings
	n := len(players)
	defer func(t time.Time) { r.roundRobin += r.opt.Now().Sub(t) }(r.opt.Now())
	bar := NewBar(r.out, ec.AnchorGames*n*(n-1)/2, r.desc("rating the baselines"))
	t := arena.Tournament{Spec: r.spec, Players: players, Anchor: zero, Config: cfg, Prior: 1,
		Progress: func(p arena.Progress) { _ = bar.Set(p.Done) }}
	res, err := t.Run(ctx)
	bar.Finish()
	if err != nil {
		return nil, fmt.Errorf("train: rating the baselines: %w", err)
	}
	for _, s := range res.Standings {
		a.Ratings[s.Player], a.Errors[s.Player] = s.Elo, s.Err
	}
	fmt.Fprintf(r.log, "baselines rated (%s = 0): %s\n", a.ZeroName(), a)
	return a, nil
}

// saveAnchors writes the anchors and the ladder, atomically.
func (r *Run) saveAnchors() error {
	f := ladder.File{Anchors: *r.anch, Ladder: r.rungs}
	return f.Save(r.dir.Anchors())
}

// pruneLadder drops the rungs that an iteration after the checkpoint froze
// (a run killed after freezing one but before its checkpoint), as the
// rest of that iteration's output is dropped.
func (r *Run) pruneLadder() error {
	f, err := ladder.Load(r.dir.Anchors())
	if err != nil || f == nil {
		return err
	}
	dropped, err := f.Prune(r.dir.String(), r.state.Iteration)
	if err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	if !dropped {
		return nil
	}
	r.anch, r.rungs = &f.Anchors, f.Ladder
	err = r.saveAnchors()
	r.anch, r.rungs = nil, nil // anchors() reads them again, checked
	return err
}

// topRungs returns the eval.ladder_play highest-rated rungs, highest first.
func (r *Run) topRungs() []ladder.Rung { return ladder.Top(r.rungs, r.cfg.Eval.LadderPlay) }

// addRung makes the rung named name a network player of nets (at its own
// simulations, see match), when it is not one already.
func (r *Run) addRung(name string, nets map[string]*net.Batcher) error {
	rg := ladder.Find(r.rungs, name)
	if rg == nil || nets[name] != nil {
		return nil
	}
	b, err := rg.Model(r.dir.String())
	if err != nil {
		return err
	}
	m, err := net.Unmarshal(b)
	if err == nil {
		err = m.Meta.Fits(r.spec.Name, r.spec.ObsVersion)
	}
	if err != nil {
		return fmt.Errorf("train: ladder rung %s: %s: %w", name, rg.File, err)
	}
	nets[name] = net.NewBatcher(m.Params, r.evalBatcher())
	return nil
}

// rate rates the evaluated network (player, model m) on the anchors'
// scale from its baseline games and games against the top rungs, which it
// plays now (games each). Unless the evaluation is the run's final one, a
// network that rates eval.ladder_step above every anchor is then frozen
// as a new rung (climb). The iteration began at t0.
func (r *Run) rate(ctx context.Context, it int, player string, m *net.Model, games int, final bool, nets map[string]*net.Batcher, em *EvalMetrics, t0 time.Time) error {
	a, err := r.anchors(ctx)
	if err != nil {
		return err
	}
	results := map[string]rating.Match{}
	for k, v := range em.Baseline {
		results[k] = v
	}
	for _, rg := range r.topRungs() {
		if err := r.addRung(rg.Name, nets); err != nil {
			return err
		}
		res, err := r.match(ctx, pairing{it: it, kind: LadderGames, a: player, b: rg.Name, games: games}, nets)
		if err != nil {
			return err
		}
		if em.Ladder == nil {
			em.Ladder = map[string]rating.Match{}
		}
		em.Ladder[rg.Name] = matchInfo(res)
		results[rg.Name] = matchInfo(res)
	}
	em.Rating, _, _ = ladder.Rate(a, r.rungs, results)
	if final || em.Rating == nil || !r.climbs(a, em.Rating.Elo) || ladder.Find(r.rungs, ladder.RungName(m.Meta.Iteration)) != nil {
		return nil
	}
	return r.climb(ctx, it, player, m, nets, results, em, t0)
}

// climbs reports whether a network rated elo becomes a rung: the ladder
// has room and elo is eval.ladder_step above every anchor.
func (r *Run) climbs(a *net.Anchors, elo float64) bool {
	return len(r.rungs) < r.cfg.Eval.LadderRungs && ladder.Above(a, elo, r.cfg.Eval.LadderStep)
}

// climb freezes the evaluated network (player, model m) as a rung: it
// saves its model under ladder/, plays eval.ladder_games against each of
// the eval.ladder_opponents anchors rated nearest it and the anchor rated
// 0, rates it from those games and the evaluation's (results), and adds
// it to the anchors. The anchor rated 0 has no error: a rung rated only
// against the rungs below it would inherit their errors, which would add
// up along the ladder.
func (r *Run) climb(ctx context.Context, it int, player string, m *net.Model, nets map[string]*net.Batcher, results map[string]rating.Match, em *EvalMetrics, t0 time.Time) error {
	ec, a := r.cfg.Eval, r.anch
	name := ladder.RungName(m.Meta.Iteration)
	games := map[string]rating.Match{}
	for k, v := range results {
		games[k] = v
	}
	for _, opp := range ladder.Opponents(a, em.Rating.Elo, ec.LadderOpponents) {
		if err := r.addRung(opp, nets); err != nil {
			return err
		}
		res, err := r.match(ctx, pairing{it: it, kind: LadderGames, a: player, b: opp, games: ec.LadderGames, seed: r.seed(it, 4)}, nets)
		if err != nil {
			return err
		}
		games[opp] = ladder.AddMatches(games[opp], matchInfo(res))
	}
	rt, load, fit := ladder.Rate(a, r.rungs, games)
	if rt == nil {
		return nil
	}
	file := ladder.RungFile(name)
	b, err := net.Marshal(m)
	if err != nil {
		return fmt.Errorf("train: ladder rung %s: %w", name, err)
	}
	if err := os.MkdirAll(r.dir.Ladder(), 0o755); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := writeFile(r.dir.file(file), b); err != nil {
		return err
	}
	load[name] = fit
	rg := ladder.Rung{Name: name, Iteration: m.Meta.Iteration, Frozen: it, ElapsedSec: r.state.ElapsedSec + r.opt.Now().Sub(t0).Seconds(),
		File: file, SHA256: ladder.Sum(b), Sims: ec.Sims, Elo: rt.Elo, Err: rt.Err, Games: rating.ClampMatches(games), Loadings: load}
	a.Ratings[name], a.Errors[name] = rg.Elo, rg.Err
	r.rungs = append(r.rungs, rg)
	if err := r.saveAnchors(); err != nil {
		return err
	}
	em.Rating, em.Rung = rt, name
	fmt.Fprintf(r.log, "ladder: %s frozen as rung %d, rated %s ± %.0f from %d games\n", name, len(r.rungs), signed(rg.Elo), rg.Err, ladder.Games(games))
	return nil
}
