package mcts

import (
	"math"

	"kumalak/env"
)

// prove propagates a new proof at the end of path towards the root: each
// ancestor, from the leaf's parent up, is proven when it can be, and the
// walk stops at the first one that can't (or already was).
func (s *Search) prove(path []int32) {
	for i := len(path) - 2; i >= 0; i-- {
		if !s.tryProve(path[i]) {
			return
		}
	}
}

// tryProve proves idx from its children, comparing players (a child may
// have the same mover, after an extra turn): a win for the mover when some
// child is a proven win for the mover (shortest such), otherwise, once all
// children are proven, a draw when one is a draw (shortest), else a loss
// (longest). It reports whether idx became proven (not when another
// goroutine of a threaded Run proved it first).
func (s *Search) tryProve(idx int32) bool {
	nd := s.nd(idx)
	if nd.proven() != env.Ongoing || nd.kids == 0 {
		return false
	}
	win := env.WinFor(nd.mover())
	winD, drawD, lossD := math.MaxInt, math.MaxInt, -1
	all := true
	lo, hi := nd.children()
	for c := lo; c < hi; c++ {
		ch := s.nd(c)
		d := int(ch.depth())
		switch ch.proven() {
		case env.Ongoing:
			all = false
		case win:
			winD = min(winD, d)
		case env.Draw:
			drawD = min(drawD, d)
		default:
			lossD = max(lossD, d)
		}
	}
	switch {
	case winD != math.MaxInt:
		return nd.setProof(win, plus1(winD))
	case !all:
		return false
	case drawD != math.MaxInt:
		return nd.setProof(env.Draw, plus1(drawD))
	}
	return nd.setProof(env.WinFor(nd.mover().Other()), plus1(lossD))
}

// plus1 returns d+1 as a depth, saturating.
func plus1(d int) uint16 {
	return uint16(min(d+1, math.MaxUint16))
}
