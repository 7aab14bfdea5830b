package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"

	"kumalak/arena"
	"kumalak/net"
)

// anchors returns the run's anchors, playing the round robin the first time.
func (r *Run) anchors(ctx context.Context) (*net.Anchors, error) {
	if r.anch != nil {
		return r.anch, nil
	}
	path := r.dir.Anchors()
	a, err := loadAnchors(path)
	if err != nil {
		return nil, err
	}
	if a != nil && r.rates(a) {
		r.anch = a
		return a, nil
	}
	if a, err = r.rateBaselines(ctx); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if err := writeFile(path, append(b, '\n')); err != nil {
		return nil, err
	}
	r.anch = a
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
func loadAnchors(path string) (*net.Anchors, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	var a net.Anchors
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("train: %s: %w", path, err)
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
	bar := newBar(r.out, ec.AnchorGames*n*(n-1)/2, "rating the baselines")
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

// rateAgainst fits the network's rating on a's scale from its baseline
// results, its interval carrying the anchors' own uncertainty.
//
// The maximum-likelihood rating R is, to first order, the mean of the
// ratings the results against each baseline i imply, weighted by their
// inverse variances, the Fisher weights w_i = n_i p_i (1 - p_i) (n_i games
// plus the prior's, p_i the expected score against baseline i at R). An
// error e_i in anchor i's rating moves R by (w_i / W) e_i, W = sum of w_i.
// The anchors' errors are taken as independent, so with E_fit the fit's
// own 95% half-width and E_i the anchors' (net.Anchors.Errors), the
// reported half-width is
//
//	E = sqrt(E_fit^2 + sum_i (w_i / W)^2 E_i^2).
//
// (The round robin's ratings share the anchor's 0 and are in fact somewhat
// correlated; the sum of squares is the usual approximation.)
func rateAgainst(a *net.Anchors, results map[string]net.Match) *net.Rating {
	var ratings, points, games, errs []float64
	for name, m := range results {
		ra, ok := a.Ratings[name]
		if !ok {
			continue
		}
		ratings = append(ratings, ra)
		points = append(points, float64(m.Wins)+float64(m.Draws)/2)
		games = append(games, float64(m.Games))
		errs = append(errs, a.Errors[name])
	}
	elo, err := arena.RateAgainst(ratings, points, games, ratePrior)
	if math.IsNaN(elo) || math.IsInf(elo, 0) {
		return nil
	}
	return &net.Rating{Elo: elo, Err: withAnchorErrors(elo, err, ratings, games, errs)}
}

// withAnchorErrors adds the anchors' errors errs (95% half-widths, of the
// baselines rated ratings, played games times) to a fit of elo with
// half-width fit, in quadrature (rateAgainst).
func withAnchorErrors(elo, fit float64, ratings, games, errs []float64) float64 {
	w := make([]float64, len(ratings))
	total := 0.0
	for i, r := range ratings {
		if games[i] <= 0 {
			continue
		}
		p := 1 / (1 + math.Pow(10, (r-elo)/400))
		w[i] = (games[i] + ratePrior) * p * (1 - p)
		total += w[i]
	}
	v := fit * fit
	for i, e := range errs {
		if total > 0 && !math.IsNaN(e) && !math.IsInf(e, 0) {
			v += (w[i] / total) * (w[i] / total) * e * e
		}
	}
	return math.Sqrt(v)
}
