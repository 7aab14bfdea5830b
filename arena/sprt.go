package arena

import (
	"math"
	"strconv"
	"strings"

	"kumalak/rating"
)

// SPRT is a sequential probability ratio test of H0: the Elo difference is
// Elo0, against H1: it is Elo1 (logistic Elo), with error rates Alpha (of
// accepting H1 when H0 holds) and Beta (the reverse). The log-likelihood
// ratio is fishtest's generalized one (GSPRT): the results' distribution
// is fitted by maximum likelihood under each hypothesis's expected score.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// NewSPRT returns the test of elo0 against elo1 with alpha = beta = 0.05.
func NewSPRT(elo0, elo1 float64) SPRT {
	return SPRT{Elo0: elo0, Elo1: elo1, Alpha: 0.05, Beta: 0.05}
}

// ParseSPRT reads the bounds "elo0,elo1" (e.g. "0,10") of a test with
// error rates alpha and beta, and validates it. Its errors are
// ValueErrors.
func ParseSPRT(bounds string, alpha, beta float64) (SPRT, error) {
	a, b, ok := strings.Cut(bounds, ",")
	e0, err0 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	e1, err1 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if !ok || err0 != nil || err1 != nil {
		return SPRT{}, invalid("sprt %q: want elo0,elo1, e.g. 0,10", bounds)
	}
	s := SPRT{Elo0: e0, Elo1: e1, Alpha: alpha, Beta: beta}
	return s, s.Validate()
}

// Validate names the first bad field.
func (s SPRT) Validate() error {
	switch {
	case !(s.Elo0 < s.Elo1) || math.IsInf(s.Elo1, 0) || math.IsInf(s.Elo0, 0):
		return invalid("sprt elo0 %g must be below elo1 %g", s.Elo0, s.Elo1)
	case math.Abs(s.Elo0) > 2000 || math.Abs(s.Elo1) > 2000:
		return invalid("sprt elo bounds %g, %g out of range -2000..2000", s.Elo0, s.Elo1)
	case !(s.Alpha > 0 && s.Alpha < 0.5):
		return invalid("sprt alpha %g out of range (0, 0.5)", s.Alpha)
	case !(s.Beta > 0 && s.Beta < 0.5):
		return invalid("sprt beta %g out of range (0, 0.5)", s.Beta)
	}
	return nil
}

// Bounds returns the log-likelihood ratios at which the test stops:
// log(Beta/(1-Alpha)) accepts H0, log((1-Beta)/Alpha) accepts H1.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Verdict is the state of an SPRT.
type Verdict int8

// The verdicts.
const (
	Inconclusive Verdict = iota // neither bound reached
	AcceptH0                    // the difference is Elo0 or less
	AcceptH1                    // the difference is Elo1 or more
)

// String returns "inconclusive", "H0 accepted" or "H1 accepted".
func (v Verdict) String() string {
	switch v {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "inconclusive"
}

// Verdict returns the verdict for a log-likelihood ratio.
func (s SPRT) Verdict(llr float64) Verdict {
	lo, hi := s.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Inconclusive
}

// LLRCounts returns the log-likelihood ratio of game results (trinomial).
func (s SPRT) LLRCounts(c rating.Counts) float64 { return s.llr([]int{c.L, c.D, c.W}) }

// LLRPairs returns the log-likelihood ratio of game pairs (pentanomial).
func (s SPRT) LLRPairs(p rating.Pairs) float64 { return s.llr(p[:]) }

// llr is fishtest's LLR_logistic: counts of outcomes scored i/(len-1), a
// zero count replaced by 1e-3, and N times the mean log ratio of the two
// maximum-likelihood distributions with expected scores s0 and s1.
func (s SPRT) llr(counts []int) float64 {
	n := 0
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return 0
	}
	k := len(counts)
	vals, probs := make([]float64, k), make([]float64, k)
	total := 0.0
	for i, c := range counts {
		vals[i] = float64(i) / float64(k-1)
		probs[i] = float64(c)
		if c == 0 {
			probs[i] = 1e-3
		}
		total += probs[i]
	}
	for i := range probs {
		probs[i] /= total
	}
	x0 := secular(vals, probs, rating.ScoreFromElo(s.Elo0))
	x1 := secular(vals, probs, rating.ScoreFromElo(s.Elo1))
	s0, s1 := rating.ScoreFromElo(s.Elo0), rating.ScoreFromElo(s.Elo1)
	sum := 0.0
	for i, p := range probs {
		// The fitted probabilities are p/(1+x(a-s)); their log ratio:
		sum += p * (math.Log1p(x0*(vals[i]-s0)) - math.Log1p(x1*(vals[i]-s1)))
	}
	return total * sum
}

// secular solves sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0 for x by
// bisection on the interval where every 1 + x (a_i - s) is positive; the
// left side falls as x grows. It needs min a < s < max a.
func secular(vals, probs []float64, s float64) float64 {
	lo, hi := -1/(vals[len(vals)-1]-s), -1/(vals[0]-s)
	f := func(x float64) float64 {
		sum := 0.0
		for i, a := range vals {
			sum += probs[i] * (a - s) / (1 + x*(a-s))
		}
		return sum
	}
	for i := 0; i < 200; i++ {
		mid := lo + (hi-lo)/2
		if mid == lo || mid == hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}
