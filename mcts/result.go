package mcts

import (
	"math"

	"kumalak/env"
)

// Proof is what the search has proven about a position, from one player's
// view (the root's mover in Stats and ChildStats).
type Proof int8

// The proofs.
const (
	Unproven Proof = iota
	ProvenWin
	ProvenLoss
	ProvenDraw
)

// String returns "?", "win", "loss" or "draw".
func (p Proof) String() string {
	switch p {
	case ProvenWin:
		return "win"
	case ProvenLoss:
		return "loss"
	case ProvenDraw:
		return "draw"
	}
	return "?"
}

// proofOf returns the proof of a result from p's view.
func proofOf(r env.Result, p env.Player) Proof {
	switch {
	case r == env.Ongoing:
		return Unproven
	case r == env.Draw:
		return ProvenDraw
	case r == env.WinFor(p):
		return ProvenWin
	}
	return ProvenLoss
}

// Stats describes the root.
type Stats struct {
	Mover  env.Player // the player to move at the root
	Visits int        // completed visits, kept across Advance
	Value  float32    // mean value for Mover in [-1, 1]; exact when proven
	Proof  Proof      // from Mover's view
	Depth  int        // plies to the end under the proof, when proven
	Nodes  int        // arena nodes in use
	Full   bool       // the arena filled up during the last Run: the tree stopped growing
	Sims   int        // simulations the last Run added (this search's own work)
	Used   float32    // the arena's use, 0..1 of Config.MaxNodes
}

// ChildStats describes one root action.
type ChildStats struct {
	Action env.Action
	Visits int
	Q      float32 // mean value for the root's mover; exact when proven, 0 when unvisited
	Prior  float32 // root prior, noise included
	Proof  Proof   // from the root mover's view
	Depth  int     // plies to the end under the proof, counted from the child
}

// Root returns the root's statistics.
func (s *Search) Root() Stats {
	r := s.nd(0)
	return Stats{
		Mover: r.mover(), Visits: int(r.n), Value: r.q(r.mover()),
		Proof: proofOf(r.proven(), r.mover()), Depth: int(r.depth()),
		Nodes: int(s.used), Full: s.full, Sims: s.added,
		Used: float32(s.used) / float32(s.cfg.MaxNodes),
	}
}

// RootValue returns the mean value of the root for its mover, in [-1, 1];
// exact when proven.
func (s *Search) RootValue() float32 {
	r := s.nd(0)
	return r.q(r.mover())
}

// Children appends the statistics of every legal root action to dst, in
// action order, and returns it; before any search they are all zero.
func (s *Search) Children(dst []ChildStats) []ChildStats {
	r := s.nd(0)
	if r.kids == 0 || r.flags()&expanded == 0 {
		for _, a := range s.root.Legal(s.w.legal[:0]) {
			dst = append(dst, ChildStats{Action: a})
		}
		return dst
	}
	lo, hi := r.children()
	for c := lo; c < hi; c++ {
		ch := s.nd(c)
		dst = append(dst, ChildStats{
			Action: ch.action, Visits: int(ch.n), Q: ch.q(r.mover()), Prior: ch.prior,
			Proof: proofOf(ch.proven(), r.mover()), Depth: int(ch.depth()),
		})
	}
	return dst
}

// Policy writes the root's policy target into dst[:NumActions], 0 for
// illegal actions: the visit distribution (PUCT), or the improved policy
// softmax(logit(P) + sigma(completed Q)) (Gumbel). A root proven won puts
// it all on the move Choose plays (the shortest win: the search stops at
// the proof, so its visits say little). With Config.ProofTargets, children
// proven lost for the mover get no weight unless every child is lost, and a
// root proven drawn spreads it evenly over the drawing moves. Before any child is visited a PUCT search
// writes the priors; for a terminal or unsearched root, zeros. It panics
// when dst is shorter than NumActions.
func (s *Search) Policy(dst []float32) {
	dst = dst[:s.spec.NumActions]
	clear(dst)
	r := s.nd(0)
	if r.flags()&expanded == 0 {
		return
	}
	lo, hi := r.children()
	proof := proofOf(r.proven(), r.mover())
	switch {
	case proof == ProvenWin:
		dst[s.nd(s.best(0)).action] = 1
		return
	case proof == ProvenDraw && s.cfg.ProofTargets:
		for c := lo; c < hi; c++ {
			if s.nd(c).proven() == env.Draw {
				dst[s.nd(c).action] = 1
			}
		}
		normalize(dst)
		return
	}
	if s.cfg.Kind == Gumbel {
		for i, p := range s.improved(0) {
			dst[s.nd(lo+int32(i)).action] = p
		}
	} else {
		s.visitShares(dst)
	}
	if s.cfg.ProofTargets {
		s.dropLosses(dst)
	}
}

// visitShares writes each root child's share of the children's visits, or
// its prior when none has a visit.
func (s *Search) visitShares(dst []float32) {
	lo, hi := s.nd(0).children()
	var sum float32
	for c := lo; c < hi; c++ {
		sum += float32(s.nd(c).n)
	}
	for c := lo; c < hi; c++ {
		ch := s.nd(c)
		if sum > 0 {
			dst[ch.action] = float32(ch.n) / sum
		} else {
			dst[ch.action] = ch.prior
		}
	}
}

// dropLosses takes the weight of root children proven lost off dst, unless
// every child is lost, and renormalises; when nothing is left it spreads
// the target over the others by prior, or evenly.
func (s *Search) dropLosses(dst []float32) {
	r := s.nd(0)
	lo, hi := r.children()
	if e := s.eligible(true); e == 0 || e == int(r.kids) {
		return
	}
	for c := lo; c < hi; c++ {
		if s.lost(c, r.mover()) {
			dst[s.nd(c).action] = 0
		}
	}
	if normalize(dst) {
		return
	}
	for pass := 0; pass < 2; pass++ {
		for c := lo; c < hi; c++ {
			if ch := s.nd(c); !s.lost(c, r.mover()) {
				dst[ch.action] = ch.prior
				if pass == 1 {
					dst[ch.action] = 1
				}
			}
		}
		if normalize(dst) {
			return
		}
	}
}

// normalize scales dst to sum 1 and reports whether it could (a positive,
// finite sum).
func normalize(dst []float32) bool {
	var sum float32
	for _, p := range dst {
		sum += p
	}
	if !(sum > 0) || math.IsInf(float64(sum), 1) {
		return false
	}
	for i := range dst {
		dst[i] /= sum
	}
	return true
}

// Choose picks the move to play. A proven win is always played, the
// shortest one first; proven losses are avoided while anything else is
// left (and the longest one is played when nothing is). Otherwise, with
// temp 0 it picks the most visited action (ties broken by Q, then prior);
// with temp > 0 it samples actions in proportion to visits^(1/temp), using
// the search's rng. A Gumbel search ignores temp and plays the action that
// sequential halving kept (its Gumbel draws are the exploration). It
// panics when the root was never searched or is terminal.
func (s *Search) Choose(temp float32) env.Action {
	r := s.nd(0)
	if r.flags()&expanded == 0 {
		panic("mcts: Choose on a root that is terminal or was not searched")
	}
	best := s.best(0)
	bp := proofOf(s.nd(best).proven(), r.mover())
	switch {
	case bp == ProvenWin || bp == ProvenLoss:
		return s.nd(best).action
	case s.cfg.Kind == Gumbel:
		return s.nd(s.gumbelWinner()).action
	case temp <= 0:
		return s.nd(best).action
	}
	return s.sample(temp, s.nd(best).action)
}

// sample draws a root action among those not proven lost, with weights
// (visits/maxVisits)^(1/temp); it returns fallback when no action has a
// visit.
func (s *Search) sample(temp float32, fallback env.Action) env.Action {
	r := s.nd(0)
	lo, hi := r.children()
	var maxN int32
	for c := lo; c < hi; c++ {
		if !s.lost(c, r.mover()) {
			maxN = max(maxN, s.nd(c).n)
		}
	}
	if maxN == 0 {
		return fallback
	}
	weight := func(c int32) float64 {
		if s.lost(c, r.mover()) {
			return 0
		}
		return math.Pow(float64(s.nd(c).n)/float64(maxN), 1/float64(temp))
	}
	var total float64
	for c := lo; c < hi; c++ {
		total += weight(c)
	}
	x := total * s.rng.Float64()
	for c := lo; c < hi; c++ {
		if w := weight(c); w > 0 {
			if x -= w; x < 0 {
				return s.nd(c).action
			}
		}
	}
	return fallback
}

// lost reports whether child c is a proven loss for p.
func (s *Search) lost(c int32, p env.Player) bool {
	return proofOf(s.nd(c).proven(), p) == ProvenLoss
}

// best returns the best child of the expanded node idx for its mover:
// proven wins first (shortest), then unproven and drawn children by
// visits, then Q, then prior, then proven losses (longest).
func (s *Search) best(idx int32) int32 {
	lo, hi := s.nd(idx).children()
	b := lo
	for c := lo + 1; c < hi; c++ {
		if s.better(c, b, s.nd(idx).mover()) {
			b = c
		}
	}
	return b
}

// better reports whether child a is a better move than child b for p.
func (s *Search) better(a, b int32, p env.Player) bool {
	na, nb := s.nd(a), s.nd(b)
	ca, cb := rank(proofOf(na.proven(), p)), rank(proofOf(nb.proven(), p))
	switch {
	case ca != cb:
		return ca > cb
	case ca == 2 && na.depth() != nb.depth():
		return na.depth() < nb.depth()
	case ca == 0 && na.depth() != nb.depth():
		return na.depth() > nb.depth()
	case na.n != nb.n:
		return na.n > nb.n
	case na.q(p) != nb.q(p):
		return na.q(p) > nb.q(p)
	}
	return na.prior > nb.prior
}

// rank orders proofs for move choice: win 2, unproven or draw 1, loss 0.
func rank(p Proof) int {
	switch p {
	case ProvenWin:
		return 2
	case ProvenLoss:
		return 0
	}
	return 1
}

// PV appends the principal variation to dst and returns it: from the root,
// the best child (as Choose with temp 0) while it has visits.
func (s *Search) PV(dst []env.Action) []env.Action {
	for idx := int32(0); s.nd(idx).flags()&expanded != 0; {
		c := s.best(idx)
		if s.nd(c).n == 0 {
			break
		}
		dst = append(dst, s.nd(c).action)
		idx = c
	}
	return dst
}
