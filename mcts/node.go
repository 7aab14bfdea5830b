package mcts

import (
	"math"
	"sync/atomic"
	"unsafe"

	"kumalak/env"
)

// node is one position of the tree and the edge that leads to it: the
// action from its parent and the parent's prior for it. Children of a node
// lie next to each other in the arena: first..first+kids-1.
//
// A threaded Run descends the tree on several goroutines at once: n, vl
// and w change by atomic adds there (see add), and the flags, the mover,
// the proof and its depth share one word, meta, read by atomic loads and
// changed by compare-and-swap. The other fields are written by the one
// goroutine that opened the node (its pending flag claimed) before the
// expanded or valued flag publishes them, and only read after.
type node struct {
	w      float32    // sum of the values backed up through this node, from White's view
	prior  float32    // parent's prior for action (root noise mixed in at the root)
	v      float32    // the node's own value when first valued (evaluator, rollouts or result), from White's view
	n      int32      // completed visits
	vl     int32      // visits in flight (virtual loss), only inside Run; a mark inside compact
	first  int32      // index of the first child; valid when kids > 0
	kids   uint16     // number of children (the legal actions); 0 until opened
	action env.Action // the move from the parent
	_      uint8
	meta   uint32 // flags (bits 0-7), mover (8-11), proven (12-15), proof depth (16-31)
}

// packMeta returns the meta word of a node.
func packMeta(flags uint8, mover env.Player, proven env.Result, depth uint16) uint32 {
	return uint32(flags) | uint32(mover)&15<<8 | uint32(proven)&15<<12 | uint32(depth)<<16
}

// metaOf returns nd's meta word.
func (nd *node) metaOf() uint32 { return atomic.LoadUint32(&nd.meta) }

// flags returns nd's flags.
func (nd *node) flags() uint8 { return uint8(nd.metaOf()) }

// mover returns the player to move at nd, valid once reached.
func (nd *node) mover() env.Player { return env.Player(nd.metaOf() >> 8 & 15) }

// proven returns Ongoing, or the game's result under perfect play from nd
// (terminal or solved).
func (nd *node) proven() env.Result { return env.Result(nd.metaOf() >> 12 & 15) }

// depth returns the plies to the end of the game under nd's proof, when
// proven.
func (nd *node) depth() uint16 { return uint16(nd.metaOf() >> 16) }

// setFlags sets the flags on and clears those off: a plain write in a
// sequential search, compare-and-swap when shared (a threaded Run).
func (nd *node) setFlags(on, off uint8, shared bool) {
	if !shared {
		nd.meta = nd.meta&^uint32(off) | uint32(on)
		return
	}
	for {
		m := nd.metaOf()
		if atomic.CompareAndSwapUint32(&nd.meta, m, m&^uint32(off)|uint32(on)) {
			return
		}
	}
}

// claim sets pending on nd when neither pending nor expanded is set, and
// reports whether it did: the caller then owns the node's opening.
func (nd *node) claim() bool {
	for {
		m := nd.metaOf()
		if m&uint32(pending|expanded) != 0 {
			return false
		}
		if atomic.CompareAndSwapUint32(&nd.meta, m, m|uint32(pending)) {
			return true
		}
	}
}

// setProof records nd's proof, keeping its flags and mover; it reports
// false, recording nothing, when nd was proven meanwhile.
func (nd *node) setProof(r env.Result, depth uint16) bool {
	for {
		m := nd.metaOf()
		if env.Result(m>>12&15) != env.Ongoing {
			return false
		}
		if atomic.CompareAndSwapUint32(&nd.meta, m, packMeta(uint8(m), env.Player(m>>8&15), r, depth)) {
			return true
		}
	}
}

// add adds d visits valued v and dv visits in flight to nd: plain adds in a
// sequential search, atomic ones when shared (a threaded Run).
func (nd *node) add(d int32, v float32, dv int32, shared bool) {
	if !shared {
		nd.n += d
		nd.w += v
		nd.vl += dv
		return
	}
	if d != 0 {
		atomic.AddInt32(&nd.n, d)
	}
	if v != 0 {
		wp := (*uint32)(unsafe.Pointer(&nd.w))
		for {
			old := atomic.LoadUint32(wp)
			if atomic.CompareAndSwapUint32(wp, old, math.Float32bits(math.Float32frombits(old)+v)) {
				break
			}
		}
	}
	if dv != 0 {
		atomic.AddInt32(&nd.vl, dv)
	}
}

// stats returns nd's visits, visits in flight and value sum: by atomic
// loads when shared (a threaded Run changes them as they are read).
func (nd *node) stats(shared bool) (n, vl int32, w float32) {
	if !shared {
		return nd.n, nd.vl, nd.w
	}
	return atomic.LoadInt32(&nd.n), atomic.LoadInt32(&nd.vl), math.Float32frombits(atomic.LoadUint32((*uint32)(unsafe.Pointer(&nd.w))))
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
	case nd.proven() != env.Ongoing:
		return nd.proven().Value(p)
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
// exceed MaxNodes. The nodes hold stale data: the caller writes them. In a
// threaded Run the goroutines take turns under amu, and share has made
// every chunk that exists its full size, so that no chunk a goroutine
// reads is ever replaced.
func (s *Search) alloc(k int) (int32, bool) {
	if s.shared {
		s.amu.Lock()
		at, ok := s.allocate(k)
		s.amu.Unlock()
		return at, ok
	}
	return s.allocate(k)
}

// allocate is alloc's work.
func (s *Search) allocate(k int) (int32, bool) {
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

// chunkLimit is the most nodes chunk ci holds within MaxNodes.
func (s *Search) chunkLimit(ci int) int {
	return min(chunkSize, s.cfg.MaxNodes-ci<<chunkBits)
}

// growChunk makes chunk ci hold at least need nodes: a later chunk is made
// at its full size (within MaxNodes), the first doubles up to it.
func (s *Search) growChunk(ci, need int) {
	limit := s.chunkLimit(ci)
	size := limit
	if ci == 0 {
		size = min(limit, max(need, 2*len(s.chunks[0]), 1024))
	}
	c := make([]node, size)
	copy(c, s.chunks[ci])
	s.chunks[ci] = c
}

// share readies the arena for a threaded Run: the list of chunks at its
// final length and every chunk made so far at its full size, so that
// alloc only ever makes new chunks.
func (s *Search) share() {
	for len(s.chunks) <= (s.cfg.MaxNodes-1)>>chunkBits {
		s.chunks = append(s.chunks, nil)
	}
	for ci, c := range s.chunks {
		if c != nil && len(c) < s.chunkLimit(ci) {
			s.growChunk(ci, s.chunkLimit(ci))
		}
	}
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
