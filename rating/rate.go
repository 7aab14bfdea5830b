package rating

import "math"

// eloScale is ln(10)/400: the slope of the logistic Elo curve's exponent.
const eloScale = math.Ln10 / 400

// RateAgainst fits the logistic Elo rating of one player from its results
// against opponents of known, fixed ratings: against opponent i, rated
// ratings[i], it scored points[i] (a draw counting 1/2) in games[i] games.
// prior virtual draws are added against every opponent it played, so a
// clean sweep still gets a finite rating. It returns the maximum-likelihood
// rating and the half-width of its 95% interval, from the Fisher
// information. With no games it returns NaN.
func RateAgainst(ratings, points, games []float64, prior float64) (elo, err float64) {
	var s, n []float64
	var r []float64
	for i := range ratings {
		if games[i] <= 0 {
			continue
		}
		r = append(r, ratings[i])
		s = append(s, points[i]+prior/2)
		n = append(n, games[i]+prior)
	}
	if len(r) == 0 {
		return math.NaN(), math.NaN()
	}
	// The score surplus falls as the rating rises: bisect for its root.
	surplus := func(x float64) float64 {
		f := 0.0
		for i := range r {
			f += s[i] - n[i]*expected(x, r[i])
		}
		return f
	}
	lo, hi := -10000.0, 10000.0
	if surplus(lo) <= 0 {
		return math.Inf(-1), math.Inf(1)
	}
	if surplus(hi) >= 0 {
		return math.Inf(1), math.Inf(1)
	}
	for hi-lo > 1e-6 {
		mid := (lo + hi) / 2
		if surplus(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	elo = (lo + hi) / 2
	info := 0.0
	for i := range r {
		p := expected(elo, r[i])
		info += n[i] * p * (1 - p) * eloScale * eloScale
	}
	return elo, 1.959963984540054 / math.Sqrt(info)
}

// expected is the expected score of a player rated x against one rated y.
func expected(x, y float64) float64 { return 1 / (1 + math.Pow(10, (y-x)/400)) }
