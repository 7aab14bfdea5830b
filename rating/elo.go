package rating

import (
	"fmt"
	"math"
)

// Z95 is the two-sided 95% quantile of the standard normal distribution.
const Z95 = 1.959963984540054

// Counts are game results from one player's view.
type Counts struct {
	W, D, L int
}

// Games returns W+D+L.
func (c Counts) Games() int { return c.W + c.D + c.L }

// Score returns the mean score, a win 1 and a draw 1/2; 0.5 with no games.
func (c Counts) Score() float64 {
	if c.Games() == 0 {
		return 0.5
	}
	return (float64(c.W) + float64(c.D)/2) / float64(c.Games())
}

// Add counts one game scored 1, 0.5 or 0.
func (c *Counts) Add(score float64) {
	switch score {
	case 1:
		c.W++
	case 0:
		c.L++
	default:
		c.D++
	}
}

// Pairs counts game pairs (one opening, colours swapped) by the pair's total
// score from one player's view: index 0 = two losses (0), 1 = a loss and a
// draw (1/2), 2 = a win and a loss or two draws (1), 3 = a win and a draw
// (3/2), 4 = two wins (2). This is fishtest's pentanomial LL, LD, WL+DD, WD, WW.
type Pairs [5]int

// Total returns the number of pairs.
func (p Pairs) Total() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Add counts a pair from its two game scores.
func (p *Pairs) Add(s1, s2 float64) {
	p[int(math.Round(2*(s1+s2)))]++
}

// Elo is an Elo difference with its 95% confidence interval, finite
// whenever there is a game (see eloOf).
type Elo struct {
	Diff, Lo, Hi float64
}

// String writes "+190.8 [+120.3, +280.0]".
func (e Elo) String() string {
	return fmt.Sprintf("%s [%s, %s]", signed(e.Diff), signed(e.Lo), signed(e.Hi))
}

// signed writes an Elo figure with its sign, or "+inf"/"-inf".
func signed(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.1f", x)
}

// EloFromScore returns the logistic Elo difference of a mean score:
// -400·log10(1/s - 1); ±Inf at 1 and 0.
func EloFromScore(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo returns the expected score of an Elo difference:
// 1/(1+10^(-d/400)).
func ScoreFromElo(d float64) float64 { return 1 / (1 + math.Pow(10, -d/400)) }

// EloOfCounts estimates the Elo difference from game results, with the
// interval from the per-game variance of the score (trinomial model).
func EloOfCounts(c Counts) Elo {
	return eloOf([]int{c.L, c.D, c.W})
}

// EloOfPairs estimates the Elo difference from game pairs, with the interval
// from the per-pair variance (pentanomial model), which accounts for the
// correlation of the two games of an opening.
func EloOfPairs(p Pairs) Elo {
	return eloOf(p[:])
}

// eloOf turns the counts of outcomes with scores 0, 1/(k-1), ..., 1 into
// the score's mean and normal interval, then into Elo. The score's bounds
// are kept within 0.5/(n+1) of 0 and 1, the scores of n trials with a
// +0.5 pseudo-count (half a trial won, half lost), so that the Elo figures
// are finite. A clean sweep (or a clean loss) has no variance: its
// estimate is the pseudo-counted score (n+0.5)/(n+1), which is also its
// open bound, and its other bound the exact binomial (Clopper-Pearson)
// limit of n trials all won, 0.025^(1/n).
func eloOf(counts []int) Elo {
	n, mean, variance := moments(counts)
	if n == 0 {
		return Elo{Lo: math.Inf(-1), Hi: math.Inf(1)}
	}
	edge := 0.5 / (n + 1)
	clamp := func(s float64) float64 { return min(max(s, edge), 1-edge) }
	half := Z95 * math.Sqrt(variance/n)
	e := Elo{Diff: EloFromScore(clamp(mean)), Lo: EloFromScore(clamp(mean - half)), Hi: EloFromScore(clamp(mean + half))}
	switch cp := math.Pow(0.025, 1/n); {
	case mean == 1:
		e.Lo = EloFromScore(cp)
	case mean == 0:
		e.Hi = EloFromScore(1 - cp)
	}
	return e
}

// moments returns the number of trials, the mean score and the variance of
// one trial, for counts of outcomes scored i/(len-1).
func moments(counts []int) (n, mean, variance float64) {
	k := float64(len(counts) - 1)
	for i, c := range counts {
		n += float64(c)
		mean += float64(c) * float64(i) / k
	}
	if n == 0 {
		return 0, 0.5, 0
	}
	mean /= n
	for i, c := range counts {
		d := float64(i)/k - mean
		variance += float64(c) * d * d
	}
	return n, mean, variance / n
}

// LOS returns the likelihood of superiority: the chance that the player with
// these results is the stronger, from wins and losses (draws tell nothing).
func LOS(c Counts) float64 {
	if c.W+c.L == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(c.W-c.L)/math.Sqrt(2*float64(c.W+c.L))))
}
