package mcts

import (
	"unsafe"

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
	vl     int32      // visits in flight (virtual loss), only inside Run; a mark inside compact
	first  int32      // index of the first child; valid when kids > 0
	kids   uint16     // number of children (the legal actions); 0 until opened
	depth  uint16     // plies to the end of the game under the proof, when proven
	action env.Action // the move from the parent
	mover  env.Player // the player to move here, valid once reached
	flags  uint8
	proven env.Result // Ongoing, or the game's result under perfect play (terminal or solved)
}

// NodeBytes is the size of one tree node: a tree of h MiB holds
// h<<20/NodeBytes nodes (Config.MaxNodes).
const NodeBytes = int(unsafe.Sizeof(node{}))

// Node flags.
const (
	reached  uint8 = 1 << iota // the position was visited: mover (and proven, if terminal) is set
	expanded                   // children exist and have priors
	pending                    // evaluation in flight (inside Run only); children exist unless the arena was full
	valued                     // v holds the evaluator's value although the node has no children (the arena was full)
)

// The arena is a list of chunks of chunkSize nodes (the first grows up to
// that size by doubling), so that it grows without copying a large tree
// and its memory never exceeds MaxNodes nodes plus one small chunk in
// flight. A node's children never straddle two chunks.
const (
	chunkBits = 16
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
)

// nd returns the node at index i.
func (s *Search) nd(i int32) *node {
	return &s.chunks[i>>chunkBits][i&chunkMask]
}

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
	lo, hi := s.nd(idx).children()
	for c := lo; c < hi; c++ {
		if s.nd(c).action == a {
			return c
		}
	}
	return -1
}

// place returns where k nodes go when the arena's next free index is at:
// at itself, or the start of the next chunk when they do not fit in at's.
func place(at int32, k int) int32 {
	if int(at&chunkMask)+k > chunkSize {
		return (at | chunkMask) + 1
	}
	return at
}

// alloc reserves k contiguous nodes (k <= chunkSize) and returns the index
// of the first; it reports false, reserving nothing, when the arena would
// exceed MaxNodes. The nodes hold stale data: the caller writes them.
func (s *Search) alloc(k int) (int32, bool) {
	at := place(s.used, k)
	end := at + int32(k)
	if int(end) > s.cfg.MaxNodes {
		return 0, false
	}
	ci := int(at >> chunkBits)
	for ci >= len(s.chunks) {
		s.chunks = append(s.chunks, nil)
	}
	if need := int((end-1)&chunkMask) + 1; need > len(s.chunks[ci]) {
		s.growChunk(ci, need)
	}
	s.used = end
	return at, true
}

// growChunk makes chunk ci hold at least need nodes: a later chunk is made
// at its full size (within MaxNodes), the first doubles up to it.
func (s *Search) growChunk(ci, need int) {
	limit := min(chunkSize, s.cfg.MaxNodes-ci<<chunkBits)
	size := limit
	if ci == 0 {
		size = min(limit, max(need, 2*len(s.chunks[0]), 1024))
	}
	c := make([]node, size)
	copy(c, s.chunks[ci])
	s.chunks[ci] = c
}

// compact makes the subtree under c the whole tree, with c as the root at
// index 0, in place: the kept nodes slide down in arena order, each family
// of children staying contiguous (and within a chunk), and what the move
// made unreachable is free again. A kept node's vl marks, while its family
// waits to be moved, the new index of its parent plus one.
func (s *Search) compact(c int32) {
	old := s.used
	root := *s.nd(c)
	root.prior, root.vl = 1, 0
	*s.nd(0) = root
	at := int32(1)
	if root.kids > 0 {
		s.nd(root.first).vl = 1
	}
	for j := c + 1; j < old; {
		m := s.nd(j).vl
		if m == 0 { // unreachable, or padding at a chunk's end
			j++
			continue
		}
		s.nd(j).vl = 0
		parent := m - 1
		k := int32(s.nd(parent).kids)
		p := place(at, int(k))
		for i := range k {
			nd := *s.nd(j + i)
			nd.vl = 0
			*s.nd(p + i) = nd
			if nd.kids > 0 {
				s.nd(nd.first).vl = p + i + 1
			}
		}
		s.nd(parent).first = p
		at = p + k
		j += k
	}
	s.used = at
}

// grow appends fresh children for the actions in legal and returns the
// index of the first, or false when the arena is full.
func (s *Search) grow(legal []env.Action) (int32, bool) {
	first, ok := s.alloc(len(legal))
	if !ok {
		return 0, false
	}
	for i, a := range legal {
		*s.nd(first + int32(i)) = node{action: a}
	}
	return first, true
}
