package mcts

import (
	"math"
	"math/bits"

	"kumalak/env"
)

// gumbelRoot is a Gumbel search's state for one Run at the current root:
// the Gumbel draws and the visits the root's children had when the Run
// began, both by child offset (child first+i at index i).
type gumbelRoot struct {
	g    []float32 // GumbelScale * Gumbel(0, 1) draw of each root child
	base []int32   // visits of each root child when the Run began
	lp   []float32 // logit of each root child's prior, valid when lpOK
	lpOK bool      // lp holds the current root's logits
	n    int       // simulations planned for sequential halving
	m    int       // actions considered; 0 until the root has children
}

func newGumbelRoot(na int) gumbelRoot {
	return gumbelRoot{g: make([]float32, na), base: make([]int32, na), lp: make([]float32, na)}
}

// clear forgets the draws (a new root).
func (gr *gumbelRoot) clear() {
	clear(gr.g)
	clear(gr.base)
	gr.n, gr.m, gr.lpOK = 0, 0, false
}

// planGumbel starts a Run's sequential halving over n more simulations:
// fresh Gumbel draws, and the children's visits so far as the base from
// which the halving counts. When the root is not open yet, its own
// evaluation takes the first simulation.
func (s *Search) planGumbel(n int) {
	gr := &s.g
	r := s.nd(0)
	clear(gr.base)
	if r.flags()&expanded != 0 {
		lo, hi := r.children()
		for c := lo; c < hi; c++ {
			gr.base[c-lo] = s.nd(c).n
		}
	} else {
		n--
	}
	gr.n, gr.m, gr.lpOK = max(n, 0), 0, false
	for i := range gr.g {
		gr.g[i] = -s.cfg.GumbelScale * float32(math.Log(s.rng.ExpFloat64()))
	}
}

// consideredVisit returns, for sequential halving of n simulations over m
// actions, the number of visits (counted from the plan's start) that the
// action given simulation k (0-based) must already have: phase by phase,
// every action still considered gets max(1, n/(ceil(log2 m)*considered))
// visits, one round at a time, then the better half goes on (at least 2).
// Mctx's get_sequence_of_considered_visits computes the same sequence.
func consideredVisit(m, n, k int) int {
	if m <= 1 {
		return k
	}
	log2m := bits.Len(uint(m - 1)) // ceil(log2 m)
	base, num := 0, m
	for {
		if num == 2 { // every later phase also gives both one visit a round
			return base + k/2
		}
		extra := max(1, n/(log2m*num))
		if k < extra*num {
			return base + k/num
		}
		k -= extra * num
		base += extra
		num = max(2, num/2)
	}
}

// pickRoot returns the root child for the next simulation of a Gumbel
// search: among the children whose visits since the plan equal the
// schedule's considered visit, the one with the highest
// g + logit + sigma(completed Q). The first round of the first phase thus
// takes the top m by g + logit (Gumbel-top-k); each later phase keeps the
// better half. Visits in flight count as visits. With Solver, proven
// losses are never picked.
func (s *Search) pickRoot() int32 {
	gr := &s.g
	r := s.nd(0)
	lo, hi := r.children()
	if gr.m == 0 {
		gr.m = min(s.cfg.GumbelM, s.eligible(s.cfg.Solver))
	}
	k := 0
	for c := lo; c < hi; c++ {
		k += int(s.nd(c).n + s.nd(c).vl - gr.base[c-lo])
	}
	return s.halvingPick(consideredVisit(gr.m, gr.n, k), s.cfg.Solver, true)
}

// gumbelWinner returns the root child a Gumbel search plays: of the
// children not proven lost (when some are not), among those with the most
// visits since the plan, the highest g + logit + sigma(completed Q).
func (s *Search) gumbelWinner() int32 {
	return s.halvingPick(-1, s.eligible(true) > 0, false)
}

// halvingPick returns the root child that scores highest among those with
// target visits since the plan (or, when none has, the most), skipping
// proven losses when skipLost; inFlight counts visits in flight.
func (s *Search) halvingPick(target int, skipLost, inFlight bool) int32 {
	gr := &s.g
	r := s.nd(0)
	lo, hi := r.children()
	maxN := s.completedQ(0)
	if !gr.lpOK { // the root's priors no longer change (no root noise)
		for c := lo; c < hi; c++ {
			gr.lp[c-lo] = logit(s.nd(c).prior)
		}
		gr.lpOK = true
	}
	best, top := int32(-1), lo
	bestScore, topScore, topN := float32(math.Inf(-1)), float32(math.Inf(-1)), int32(-1)
	for c := lo; c < hi; c++ {
		ch := s.nd(c)
		if skipLost && s.lost(c, r.mover()) {
			continue
		}
		nv := ch.n - gr.base[c-lo]
		if inFlight {
			nv += ch.vl
		}
		sc := gr.g[c-lo] + gr.lp[c-lo] + s.sigma(s.cq[c-lo], maxN)
		if int(nv) == target && sc > bestScore {
			best, bestScore = c, sc
		}
		if nv > topN || nv == topN && sc > topScore {
			top, topScore, topN = c, sc, nv
		}
	}
	if best >= 0 {
		return best
	}
	return top
}

// eligible counts the root's children, those proven lost for the root's
// mover left out when skipLost.
func (s *Search) eligible(skipLost bool) int {
	r := s.nd(0)
	lo, hi := r.children()
	n := 0
	for c := lo; c < hi; c++ {
		if !skipLost || !s.lost(c, r.mover()) {
			n++
		}
	}
	return n
}

// logit returns log(p), floored at -1e9 for a zero prior.
func logit(p float32) float32 {
	if p <= 0 {
		return -1e9
	}
	return float32(math.Log(float64(p)))
}

// sigma is the paper's monotone transformation of a completed Q in [0, 1]:
// (CVisit + maxN) * CScale * q.
func (s *Search) sigma(q float32, maxN int32) float32 {
	return (s.cfg.CVisit + float32(maxN)) * s.cfg.CScale * q
}

// completedQ fills s.cq[:kids] with the completed Q of each child of the
// expanded node idx, from idx's mover's view, rescaled from [-1, 1] to
// [0, 1]: a visited (or proven) child's own Q, and for the others the
// value mix
//
//	v_mix = (v + sum_b N(b) * sum_{a visited} P(a) Q(a) / sum_{a visited} P(a)) / (1 + sum_b N(b))
//
// where v is idx's own value. It returns the children's largest visit
// count.
func (s *Search) completedQ(idx int32) int32 {
	nd := s.nd(idx)
	p := nd.mover()
	lo, hi := nd.children()
	var maxN, sumN int32
	var sumP, sumPQ float32
	for c := lo; c < hi; c++ {
		ch := s.nd(c)
		maxN = max(maxN, ch.n)
		if ch.n > 0 {
			sumN += ch.n
			sumP += ch.prior
			sumPQ += ch.prior * ch.q(p)
		}
	}
	vmix := sign(p) * nd.v
	if sumN > 0 && sumP > 0 {
		vmix = (vmix + float32(sumN)*sumPQ/sumP) / float32(1+sumN)
	}
	for c := lo; c < hi; c++ {
		ch := s.nd(c)
		q := vmix
		if ch.n > 0 || ch.proven() != env.Ongoing {
			q = ch.q(p)
		}
		s.cq[c-lo] = (max(-1, min(1, q)) + 1) / 2
	}
	return maxN
}

// improved fills s.pi[:kids] with the improved policy at the expanded node
// idx, softmax(logit(P) + sigma(completed Q)), and returns s.pi[:kids].
func (s *Search) improved(idx int32) []float32 {
	maxN := s.completedQ(idx)
	lo, hi := s.nd(idx).children()
	pi := s.pi[:hi-lo]
	top := float32(math.Inf(-1))
	for i := range pi {
		pi[i] = s.sigma(s.cq[i], maxN)
		top = max(top, pi[i])
	}
	var sum float32
	for i := range pi {
		pi[i] = s.nd(lo+int32(i)).prior * float32(math.Exp(float64(pi[i]-top)))
		sum += pi[i]
	}
	for i := range pi {
		if sum > 0 {
			pi[i] /= sum
		} else {
			pi[i] = 1 / float32(len(pi))
		}
	}
	return pi
}

// pickImproved is the paper's deterministic selection below the root: the
// child maximising pi'(a) - N(a) / (1 + sum_b N(b)), pi' the improved
// policy, visits in flight counted as visits. With Solver, proven losses
// are never picked.
func (s *Search) pickImproved(idx int32) int32 {
	pi := s.improved(idx)
	nd := s.nd(idx)
	lo, hi := nd.children()
	var total int32
	for c := lo; c < hi; c++ {
		total += s.nd(c).n + s.nd(c).vl
	}
	best, bestScore := lo, float32(math.Inf(-1))
	for c := lo; c < hi; c++ {
		ch := s.nd(c)
		if s.cfg.Solver && s.lost(c, nd.mover()) {
			continue
		}
		if sc := pi[c-lo] - float32(ch.n+ch.vl)/float32(1+total); sc > bestScore {
			best, bestScore = c, sc
		}
	}
	return best
}
