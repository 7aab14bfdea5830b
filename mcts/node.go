package mcts

import (
	"slices"

	"kumalak/env"
)

// node is one position of the tree and the edge that leads to it: the
// action from its parent and the parent's prior for it. Children of a node
// lie next to each other in the arena: first..first+kids-1.
type node struct {
	w      float32    // sum of the values backed up through this node, from White's view
	prior  float32    // parent's prior for action (root noise mixed in at the root)
	v      float32    // the node's own value when first valued (evaluator, rollouts or result), from White's view
	n      int32      // completed visits
	vl     int32      // visits in flight (virtual loss), only inside Run
	first  int32      // index of the first child; valid when kids > 0
	kids   uint16     // number of children (the legal actions); 0 until opened
	depth  uint16     // plies to the end of the game under the proof, when proven
	action env.Action // the move from the parent
	mover  env.Player // the player to move here, valid once reached
	flags  uint8
	proven env.Result // Ongoing, or the game's result under perfect play (terminal or solved)
}

// Node flags.
const (
	reached  uint8 = 1 << iota // the position was visited: mover (and proven, if terminal) is set
	expanded                   // children exist and have priors
	pending                    // children exist, evaluation in flight (inside Run only)
)

// sign converts a White-view value to p's view and back.
func sign(p env.Player) float32 {
	if p == env.White {
		return 1
	}
	return -1
}

// q returns the mean value of nd for player p, exact when proven, 0 when
// unvisited.
func (nd *node) q(p env.Player) float32 {
	switch {
	case nd.proven != env.Ongoing:
		return nd.proven.Value(p)
	case nd.n == 0:
		return 0
	}
	return sign(p) * nd.w / float32(nd.n)
}

// children returns the index range of nd's children.
func (nd *node) children() (lo, hi int32) {
	return nd.first, nd.first + int32(nd.kids)
}

// childOf returns the index of idx's child for action a, or -1.
func (s *Search) childOf(idx int32, a env.Action) int32 {
	lo, hi := s.nodes[idx].children()
	for c := lo; c < hi; c++ {
		if s.nodes[c].action == a {
			return c
		}
	}
	return -1
}

// compact makes the subtree under c the whole tree, with c as the root at
// index 0, copying it breadth-first into the spare arena (children stay
// contiguous) and swapping the arenas.
func (s *Search) compact(c int32) {
	dst := append(s.spare[:0], s.nodes[c])
	for i := 0; i < len(dst); i++ {
		if dst[i].kids == 0 {
			continue
		}
		lo, hi := dst[i].children()
		dst[i].first = int32(len(dst))
		dst = append(dst, s.nodes[lo:hi]...)
	}
	dst[0].prior = 1
	s.spare, s.nodes = s.nodes[:0], dst
}

// grow appends fresh children for the actions in legal and returns the
// index of the first; the caller has checked the capacity.
func (s *Search) grow(legal []env.Action) int32 {
	first := len(s.nodes)
	s.nodes = slices.Grow(s.nodes, len(legal))[:first+len(legal)]
	for i, a := range legal {
		s.nodes[first+i] = node{action: a}
	}
	return int32(first)
}
