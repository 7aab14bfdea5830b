package solve

import "kumalak/env/mangala"

// Mangala-kale in the engine of ksearch.go. A kale kpos holds the twelve
// pits in the mover's view, as a classic one does, and the castles after
// them: kpos[kaleMine] is the number (1..5) of the opponent's pit that is
// the mover's castle, kpos[kaleTheirs] the number of the mover's pit that is
// the opponent's, 0 for none. The key covers all sixteen places, so the
// castles are in it. In the mover's view the kale cycle is the place order
// itself: place k+1 follows k and 11 is followed by 0.
const (
	kaleMine   = 2 * rowPits
	kaleTheirs = kaleMine + 1
)

// kaleGame is the engine's mangala-kale. Its positions can repeat: the
// search ends the game at a position met again on its path (the package
// documentation, "Kale").
var kaleGame = kgame{n: rowPits, kale: true, salt: 0x6b616c65}

// kaleOf returns the kale position of b in its mover's view.
func kaleOf(b *mangala.Board) kpos {
	q := FromBoard(b)
	p := fromPits(&q)
	me := b.ToMove()
	p[kaleMine], p[kaleTheirs] = uint8(b.Castle(me)), uint8(b.Castle(me.Other()))
	return p
}

// playKale plays pit i of p, a kale position, by the rules of
// docs/RULES.md ("mangala", the castle rule) as mangala.Board does: the
// stones sown into a castle go to its owner's store, a last stone that
// makes an even number in an opponent's pit takes them, one that makes
// three there (not in pit 6) builds the mover's castle when the mover has
// none; the game ends when a row is empty, each player taking the stones
// of their own row. There is no extra turn. It allocates nothing.
func playKale(p *kpos, i int) kchild {
	c := kchild{p: *p, a: int8(i)}
	b := &c.p
	n := int(b[i])
	b[i] = 0
	start := i // n > 1: the first stone goes back into the picked pit
	if n == 1 {
		start = i + 1
	}
	const ring = 2 * rowPits
	last := (start + n - 1) % ring
	if n >= ring {
		q := uint8(n / ring)
		for k := range ring {
			b[k] += q
		}
		n %= ring
	}
	for at := start; n > 0; n-- {
		if at == ring {
			at = 0
		}
		b[at]++
		at++
	}
	lastCastle := false
	if m := int(b[kaleMine]); m != 0 {
		k := rowPits + m - 1
		c.gain += int(b[k])
		b[k] = 0
		lastCastle = k == last
	}
	if t := int(b[kaleTheirs]); t != 0 {
		k := t - 1
		c.gain -= int(b[k])
		b[k] = 0
		lastCastle = lastCastle || k == last
	}
	if !lastCastle && last >= rowPits {
		switch {
		case b[last]&1 == 0:
			c.gain += int(b[last])
			b[last] = 0
		case b[last] == 3 && b[kaleMine] == 0 && last != ring-1:
			c.gain += 3
			b[last] = 0
			b[kaleMine] = uint8(last - rowPits + 1)
		}
	}
	var mine, theirs int
	for k := range rowPits {
		mine += int(b[k])
		theirs += int(b[rowPits+k])
	}
	if mine == 0 || theirs == 0 {
		c.gain += mine - theirs
		c.p, c.over = kpos{}, true
		return c
	}
	var q kpos
	copy(q[:rowPits], b[rowPits:ring])
	copy(q[rowPits:ring], b[:rowPits])
	q[kaleMine], q[kaleTheirs] = b[kaleTheirs], b[kaleMine]
	c.p = q
	return c
}
