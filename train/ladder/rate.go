package ladder

import (
	"math"
	"slices"

	"kumalak/net"
	"kumalak/rating"
)

// Prior is the virtual draws added against each anchor by the fit.
const Prior = 1

// Rate fits the network's rating on a's scale from its results against
// the anchors (the baselines and the ladder's rungs), its interval
// carrying the anchors' own uncertainty. It returns nil when no result is
// against an anchor; else the rating, the loadings its error takes from
// the anchors' and the fit's own 95% half-width.
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
func Rate(a *net.Anchors, rungs []Rung, results map[string]rating.Match) (r *rating.Rating, load Loadings, fit float64) {
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
	elo, fit := rating.RateAgainst(ratings, points, games, Prior)
	if math.IsNaN(elo) || math.IsInf(elo, 0) {
		return nil, nil, 0
	}
	load = Loadings{}
	total := 0.0
	w := make([]float64, len(names))
	for i, r := range ratings {
		p := 1 / (1 + math.Pow(10, (r-elo)/400))
		w[i] = (games[i] + Prior) * p * (1 - p)
		total += w[i]
	}
	for i, name := range names {
		for src, e := range loadingsOf(a, rungs, name) {
			load[src] += w[i] / total * e
		}
	}
	return &rating.Rating{Elo: elo, Err: math.Sqrt(fit*fit + load.Variance())}, load, fit
}

// Loadings are the parts of a rating's error by independent source (an
// anchor's name: a baseline's round robin error, a rung's own fit): 95%
// half-widths, the error's half-width the root of their sum of squares.
type Loadings map[string]float64

// Variance is the sum of squares of l's sources.
func (l Loadings) Variance() float64 {
	v := 0.0
	for _, e := range l {
		v += e * e
	}
	return v
}

// loadingsOf returns the loadings of anchor name's rating: a rung's own,
// or a baseline's error as its own source (none for the anchor rated 0 or
// an error that is not finite).
func loadingsOf(a *net.Anchors, rungs []Rung, name string) Loadings {
	if rg := Find(rungs, name); rg != nil {
		return rg.Loadings
	}
	e := a.Errors[name]
	if e == 0 || math.IsNaN(e) || math.IsInf(e, 0) {
		return nil
	}
	return Loadings{name: e}
}
