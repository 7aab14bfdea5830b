package solve

import (
	"math/bits"
	"sync/atomic"
)

// exactDepth marks a table entry proved to the end of the game.
const exactDepth = 255

// kentry is one slot of the shared table, written without locks: check
// holds key^data, so a slot torn by two writers reads as another key
// (Hyatt and Mann's lockless hashing).
type kentry struct {
	check, data atomic.Uint64
}

// kbucket holds two slots: the first keeps the entry that cost the most
// work to find (its subtree's size), the second takes whatever comes.
type kbucket [2]kentry

// ktable is the transposition table of the Kalah search, shared by its
// threads: 2^bits buckets of two 16-byte slots.
type ktable struct {
	b    []kbucket
	mask uint64
}

// newKTable returns a table of 2^bits buckets, a large one in huge pages
// where the system has them (bigBuckets).
func newKTable(bits int) *ktable {
	t := &ktable{mask: 1<<bits - 1}
	if t.b = bigBuckets(1<<bits, t); t.b == nil {
		t.b = make([]kbucket, 1<<bits)
	}
	return t
}

// kval is a decoded slot: proven bounds lo <= future gain <= hi when
// depth is exactDepth, bounds of a depth-limited search otherwise.
type kval struct {
	lo, hi int
	move   int8 // best move, -1 for none
	depth  uint8
	work   uint8 // log2 of the nodes the result took
}

func pack(v kval) uint64 {
	return uint64(uint8(int8(v.lo))) | uint64(uint8(int8(v.hi)))<<8 | uint64(uint8(v.move))<<16 | uint64(v.depth)<<24 | uint64(v.work)<<32 | 1<<40 // bit 40: a slot in use
}

func unpack(d uint64) kval {
	return kval{lo: int(int8(d)), hi: int(int8(d >> 8)), move: int8(d >> 16), depth: uint8(d >> 24), work: uint8(d >> 32)}
}

// probe returns the entry of key, if a slot holds it.
func (t *ktable) probe(key uint64) (kval, bool) {
	bk := &t.b[key&t.mask]
	for i := range bk {
		d := bk[i].data.Load()
		if bk[i].check.Load()^d == key && d != 0 {
			return unpack(d), true
		}
	}
	return kval{}, false
}

// store records v for key: into the slot that holds key already (its
// proven bounds narrowed by the new ones), else into the first slot when v
// cost at least the work of what is there, else into the second.
func (t *ktable) store(key uint64, v kval) {
	bk := &t.b[key&t.mask]
	for i := range bk {
		d := bk[i].data.Load()
		if bk[i].check.Load()^d != key || d == 0 {
			continue
		}
		old := unpack(d)
		if old.depth == exactDepth && v.depth == exactDepth {
			v.lo, v.hi = max(v.lo, old.lo), min(v.hi, old.hi)
			if v.move < 0 {
				v.move = old.move
			}
			v.work = max(v.work, old.work)
		} else if old.depth > v.depth {
			return // a deeper (or exact) entry stays
		}
		write(&bk[i], key, v)
		return
	}
	if first := unpack(bk[0].data.Load()); bk[0].data.Load() == 0 || v.work >= first.work || v.depth == exactDepth && first.depth != exactDepth {
		bk[1].data.Store(bk[0].data.Load()) // the entry it displaces moves down
		bk[1].check.Store(bk[0].check.Load())
		write(&bk[0], key, v)
		return
	}
	write(&bk[1], key, v)
}

func write(e *kentry, key uint64, v kval) {
	d := pack(v)
	e.data.Store(d)
	e.check.Store(key ^ d)
}

// workOf returns log2 of a node count, for the replacement rule.
func workOf(nodes uint64) uint8 { return uint8(bits.Len64(nodes)) }
