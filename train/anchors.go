package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"time"

	"kumalak/arena"
	"kumalak/net"
	"kumalak/rating"
)

// anchors returns the run's anchors, playing the round robin the first
// time, and reads the ladder with them (checking its rungs' models).
func (r *Run) anchors(ctx context.Context) (*net.Anchors, error) {
	if r.anch != nil {
		return r.anch, nil
	}
	f, err := loadAnchors(r.dir.Anchors())
	if err != nil {
		return nil, err
	}
	if f != nil && r.rates(&f.Anchors) {
		if err := checkLadder(r.dir, f.Ladder); err != nil {
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

// loadAnchors reads an anchors file; it returns nil, nil when there is none.
func loadAnchors(path string) (*ladderFile, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	var a ladderFile
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("train: %s: %w", path, err)
	}
	if a.Ratings == nil {
		return nil, fmt.Errorf("train: %s: no ratings", path)
	}
	if a.Errors == nil {
		a.Errors = map[string]float64{}
	}
	for _, rg := range a.Ladder {
		if _, ok := a.Ratings[rg.Name]; !ok || rg.File == "" || rg.Sims < 1 {
			return nil, fmt.Errorf("train: %s: ladder rung %q is not rated, or has no model or simulations", path, rg.Name)
		}
	}
	return &a, nil
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
	bar := newBar(r.out, ec.AnchorGames*n*(n-1)/2, r.desc("rating the baselines"))
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

// ratePrior is the virtual draws added against each baseline by the fit.
const ratePrior = 1

// rateAgainst fits the network's rating on a's scale from its results
// against the anchors (the baselines and the ladder's rungs), its
// interval carrying the anchors' own uncertainty. It returns nil when no
// result is against an anchor; else the rating, the loadings its error
// takes from the anchors' and the fit's own 95% half-width.
//
// The maximum-likelihood rating R is, to first order, the mean of the
// ratings the results against each anchor i imply, weighted by their
// inverse variances, the Fisher weights w_i = n_i p_i (1 - p_i) (n_i games
// plus the prior's, p_i the expected score against anchor i at R). An
// error e_i in anchor i's rating moves R by (w_i / W) e_i, W = sum of w_i.
// Each anchor's error is a sum of independent sources (its loadings L_i,
// 95% half-widths by source: a baseline is its own source, with its round
// robin error; a rung is its own fit plus the loadings of the anchors it
// was rated against, scaled by their weights), so with E_fit the fit's
// own 95% half-width the reported half-width is
//
//	E = sqrt(E_fit^2 + sum_s (sum_i (w_i / W) L_i[s])^2),
//
// which counts the correlation of rungs rated against the same anchors.
// With baselines only it is sqrt(E_fit^2 + sum_i (w_i / W)^2 E_i^2). (The
// round robin's ratings share the anchor's 0 and are in fact somewhat
// correlated; taking them as independent sources is the usual
// approximation.)
func rateAgainst(a *net.Anchors, rungs []Rung, results map[string]rating.Match) (r *rating.Rating, load loadings, fit float64) {
	names := make([]string, 0, len(results))
	for name := range results {
		if _, ok := a.Ratings[name]; ok && results[name].Games > 0 {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	ratings, points, games := make([]float64, len(names)), make([]float64, len(names)), make([]float64, len(names))
	for i, name := range names {
		m := results[name]
		ratings[i] = a.Ratings[name]
		points[i] = float64(m.Wins) + float64(m.Draws)/2
		games[i] = float64(m.Games)
	}
	elo, fit := rating.RateAgainst(ratings, points, games, ratePrior)
	if math.IsNaN(elo) || math.IsInf(elo, 0) {
		return nil, nil, 0
	}
	load = loadings{}
	total := 0.0
	w := make([]float64, len(names))
	for i, r := range ratings {
		p := 1 / (1 + math.Pow(10, (r-elo)/400))
		w[i] = (games[i] + ratePrior) * p * (1 - p)
		total += w[i]
	}
	for i, name := range names {
		for src, e := range loadingsOf(a, rungs, name) {
			load[src] += w[i] / total * e
		}
	}
	return &rating.Rating{Elo: elo, Err: math.Sqrt(fit*fit + load.variance())}, load, fit
}

// loadings are the parts of a rating's error by independent source (an
// anchor's name: a baseline's round robin error, a rung's own fit): 95%
// half-widths, the error's half-width the root of their sum of squares.
type loadings map[string]float64

// variance is the sum of squares of l's sources.
func (l loadings) variance() float64 {
	v := 0.0
	for _, e := range l {
		v += e * e
	}
	return v
}

// loadingsOf returns the loadings of anchor name's rating: a rung's own,
// or a baseline's error as its own source (none for the anchor rated 0 or
// an error that is not finite).
func loadingsOf(a *net.Anchors, rungs []Rung, name string) loadings {
	for _, r := range rungs {
		if r.Name == name {
			return r.Loadings
		}
	}
	e := a.Errors[name]
	if e == 0 || math.IsNaN(e) || math.IsInf(e, 0) {
		return nil
	}
	return loadings{name: e}
}
