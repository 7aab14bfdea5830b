package solve

import (
	"kumalak/env/kalah"
)

// kpos is a Kalah configuration in the view of the player to move, as Pits
// is mangala's: kpos[0..n) the mover's houses 1..n, kpos[n..2n) the
// opponent's houses 1..n, the order of the mover's sowing (the mover's
// store sits between n-1 and n; the opponent's store is skipped). Kalah's
// stores never change what happens next, so the future gain depends on
// the houses alone.
type kpos [2 * kalah.MaxHouses]uint8

// kgame is the rules a search of this engine plays: Kalah's, or classic
// mangala's (6 pits a side, kpos's first twelve places a Pits).
type kgame struct {
	n       int // houses a side
	capture kalah.Capture
	mangala bool   // classic mangala: moves by Pits.Play
	kale    bool   // mangala-kale: moves by playKale, castles in the position, repetitions on the path (kale.go)
	salt    uint64 // mixed into the keys: one table never mixes two games
}

// mangalaGame is the engine's classic mangala.
var mangalaGame = kgame{n: rowPits, mangala: true, salt: 0x6d616e67616c61}

// kchild is what one Kalah move leads to, in the view of the next mover.
type kchild struct {
	p     kpos
	gain  int  // the mover's store gain less the opponent's, end sweep included
	extra bool // the mover moves again: p is still in the mover's view
	over  bool // the game ended: p is empty
	a     int8 // the house played, 0-based
	order int  // sort key, higher first
}

// play plays the mover's house i, which holds stones, by the rules of
// docs/RULES.md ("kalah"). It allocates nothing.
func (g *kgame) play(p *kpos, i int) kchild {
	if g.mangala {
		return playMangala(p, i)
	}
	if g.kale {
		return playKale(p, i)
	}
	n := g.n
	c := kchild{p: *p, a: int8(i)}
	b := &c.p
	s := int(b[i])
	b[i] = 0
	cycle := 2*n + 1 // places: 0..n-1 own houses, n the store, n+1..2n the opponent's houses
	if s >= cycle {
		q := uint8(s / cycle)
		for k := range 2 * n {
			b[k] += q
		}
		c.gain += int(q)
		s %= cycle
	}
	at := i
	for ; s > 0; s-- {
		at++
		if at == cycle {
			at = 0
		}
		switch {
		case at < n:
			b[at]++
		case at == n:
			c.gain++
		default:
			b[at-1]++
		}
	}
	switch {
	case at == n:
		c.extra = true
	case at < n && b[at] == 1 && g.capture != kalah.None:
		if j := 2*n - 1 - at; b[j] != 0 || g.capture == kalah.Empty {
			c.gain += int(b[j]) + 1
			b[j], b[at] = 0, 0
		}
	}
	var mine, theirs int
	for k := range n {
		mine += int(b[k])
		theirs += int(b[n+k])
	}
	switch {
	case mine == 0 || theirs == 0:
		c.gain += mine - theirs
		c.p, c.over, c.extra = kpos{}, true, false
	case !c.extra:
		var q kpos
		copy(q[:n], b[n:2*n])
		copy(q[n:2*n], b[:n])
		c.p = q
	}
	return c
}

// playMangala plays pit i of p, a classic mangala configuration, by
// Pits.Play. It allocates nothing.
func playMangala(p *kpos, i int) kchild {
	q := p.toPits()
	c := q.Play(i)
	return kchild{p: fromPits(&c.Pits), gain: c.Gain, extra: c.Extra, over: c.Over, a: int8(i)}
}

// stones returns the stones in p's houses.
func (g *kgame) stones(p *kpos) int {
	s := 0
	for _, v := range p[:2*g.n] {
		s += int(v)
	}
	return s
}

// key returns the transposition key of p (never 0).
func (g *kgame) key(p *kpos) uint64 {
	var lo, hi uint64
	for k := range 8 {
		lo |= uint64(p[k]) << (8 * k)
		hi |= uint64(p[k+8]) << (8 * k)
	}
	return mix(mix(lo^0x9e3779b97f4a7c15^g.salt)^hi) | 1
}

// mix is the splitmix64 finalizer (env.Mix64), inlined here.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// toPits returns p as a 6-house mangala-shaped configuration, for the
// tablebase of kalah (6 houses only).
func (p *kpos) toPits() Pits {
	var q Pits
	copy(q[:], p[:nPits])
	return q
}

// fromPits is toPits's inverse.
func fromPits(q *Pits) kpos {
	var p kpos
	copy(p[:nPits], q[:])
	return p
}
