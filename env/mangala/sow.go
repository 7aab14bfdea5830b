package mangala

import (
	"math/bits"

	"kumalak/env"
)

// Cycle lengths: the classic cycle is the mover's pits, the mover's store
// and the opponent's pits; the kale cycle is the 12 pits only.
const (
	classicCycle = 2*PitsPerSide + 1
	kaleCycle    = 2 * PitsPerSide
)

// Apply plays action a, the mover's pit a+1. It panics when a is illegal:
// use env.Play for moves from people, files and protocols.
func (b *Board) Apply(a env.Action) {
	if b.moveMask()>>a&1 == 0 {
		panic("mangala: Apply of an illegal action")
	}
	b.apply(int(a))
}

// apply plays the mover's pit i (0-based), which must be legal.
func (b *Board) apply(i int) {
	extra := false
	if b.kale {
		b.sowKale(i)
	} else {
		extra = b.sowClassic(i)
	}
	if b.over() {
		b.collect()
		extra = false
	}
	if !extra {
		b.toMove = b.toMove.Other()
	}
}

// lowBit returns the index of the lowest set bit of a non-zero mask.
func lowBit(mask uint) int { return bits.TrailingZeros(mask) }

// sowClassic sows the mover's pit i along the classic cycle and applies the
// capture rules; it reports whether the last stone fell in the mover's store.
//
// Places of the cycle are numbered from the mover's view: 0..5 the mover's
// pits, 6 the mover's store, 7..12 the opponent's pits.
func (b *Board) sowClassic(i int) (extra bool) {
	me := b.toMove
	m := int(me) * PitsPerSide
	o := PitsPerSide - m
	n := int(b.pits[m+i])
	b.pits[m+i] = 0
	start := i // n > 1: the first stone goes back into the picked pit
	if n == 1 {
		start = i + 1
	}
	last := (start + n - 1) % classicCycle
	if n >= classicCycle {
		q := uint8(n / classicCycle)
		for k := range b.pits {
			b.pits[k] += q
		}
		b.stores[me] += q
		n %= classicCycle
	}
	for p := start; n > 0; n-- {
		if p == classicCycle {
			p = 0
		}
		switch {
		case p < PitsPerSide:
			b.pits[m+p]++
		case p == PitsPerSide:
			b.stores[me]++
		default:
			b.pits[o+p-PitsPerSide-1]++
		}
		p++
	}
	switch {
	case last == PitsPerSide: // rule 1: extra turn
		return true
	case last > PitsPerSide: // rule 2: even capture
		j := o + last - PitsPerSide - 1
		if b.pits[j]&1 == 0 {
			b.stores[me] += b.pits[j]
			b.pits[j] = 0
		}
	case b.pits[m+last] == 1: // rule 3: last stone in an empty own pit
		j := o + PitsPerSide - 1 - last
		if b.pits[j] != 0 {
			b.stores[me] += b.pits[j] + 1
			b.pits[j], b.pits[m+last] = 0, 0
		}
	}
	return false
}

// sowKale sows the mover's pit i along the 12 pits, sends stones that fell
// into castles to their owners' stores, and applies the even capture and
// the castle rule.
//
// In kale the cycle from the mover's view is the board order itself: pit
// index k+1 follows k, and index 11 (black's pit 6) is followed by 0.
func (b *Board) sowKale(i int) {
	me := b.toMove
	a := int(me)*PitsPerSide + i
	n := int(b.pits[a])
	b.pits[a] = 0
	start := a
	if n == 1 {
		start = a + 1
	}
	last := (start + n - 1) % kaleCycle
	if n >= kaleCycle {
		q := uint8(n / kaleCycle)
		for k := range b.pits {
			b.pits[k] += q
		}
		n %= kaleCycle
	}
	for p := start; n > 0; n-- {
		if p == kaleCycle {
			p = 0
		}
		b.pits[p]++
		p++
	}
	lastCastle := b.sweepCastles(last)
	if lastCastle || last/PitsPerSide == int(me) {
		return
	}
	switch {
	case b.pits[last]&1 == 0: // rule 2: even capture
		b.stores[me] += b.pits[last]
		b.pits[last] = 0
	case b.pits[last] == 3 && b.castle[me] == noCastle && last%PitsPerSide != PitsPerSide-1:
		b.stores[me] += 3
		b.pits[last] = 0
		b.castle[me] = int8(last % PitsPerSide)
	}
}

// sweepCastles moves the stones sown into castles to their owners' stores
// and reports whether pit index last is a castle.
func (b *Board) sweepCastles(last int) (lastCastle bool) {
	for p := env.White; p <= env.Black; p++ {
		if b.castle[p] == noCastle {
			continue
		}
		k := int(p.Other())*PitsPerSide + int(b.castle[p])
		b.stores[p] += b.pits[k]
		b.pits[k] = 0
		lastCastle = lastCastle || k == last
	}
	return lastCastle
}

// Perft counts the leaves of the game tree depth plies below b (docs/RULES.md);
// the last ply is counted from the move mask without playing it.
func (b *Board) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return perft(*b, depth)
}

// perft is Perft for depth >= 1. It takes the board by value so that the
// children live on the stack.
func perft(b Board, depth int) uint64 {
	mask := b.moveMask()
	if depth == 1 {
		return uint64(bits.OnesCount(mask))
	}
	var n uint64
	for ; mask != 0; mask &= mask - 1 {
		c := b
		c.apply(lowBit(mask))
		n += perft(c, depth-1)
	}
	return n
}
