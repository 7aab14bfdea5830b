package mcts

import (
	"math"
	"math/rand/v2"
)

// rootNoise mixes Dirichlet(NoiseAlpha) noise into the root's priors, once
// per root, as soon as the root has children, unless the current Run is
// quiet: then a later Run on the same root still draws it. A Gumbel search
// has no root noise: its Gumbel draws explore.
func (s *Search) rootNoise() {
	root := s.nd(0)
	if s.noised || s.quiet || root.flags()&expanded == 0 || s.cfg.Kind == Gumbel {
		return
	}
	s.noised = true
	alpha, w := float64(s.cfg.NoiseAlpha), s.cfg.NoiseWeight
	if alpha == 0 || w == 0 || root.kids == 0 {
		return
	}
	eta := s.eta[:root.kids]
	dirichlet(s.rng, alpha, eta)
	lo, hi := root.children()
	for c := lo; c < hi; c++ {
		ch := s.nd(c)
		ch.prior = (1-w)*ch.prior + w*float32(eta[c-lo])
	}
}

// dirichlet fills dst with a draw from the symmetric Dirichlet(alpha)
// distribution. When every gamma draw underflows (tiny alpha), the draw is
// a corner of the simplex, which is the limit of the distribution.
func dirichlet(rng *rand.Rand, alpha float64, dst []float64) {
	var sum float64
	for i := range dst {
		dst[i] = gamma(rng, alpha)
		sum += dst[i]
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		clear(dst)
		dst[rng.IntN(len(dst))] = 1
		return
	}
	for i := range dst {
		dst[i] /= sum
	}
}

// gamma draws from Gamma(alpha, 1) by Marsaglia and Tsang's method ("A
// simple method for generating gamma variables", 2000), boosting alpha < 1
// with a uniform power.
func gamma(rng *rand.Rand, alpha float64) float64 {
	if alpha < 1 {
		return gamma(rng, alpha+1) * math.Pow(1-rng.Float64(), 1/alpha)
	}
	d := alpha - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := 1 - rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
