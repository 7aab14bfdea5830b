package solve

// Places of the classic sowing cycle in the mover's view: 0..5 the mover's
// pits, 6 the mover's store, 7..12 the opponent's pits.
const (
	storePlace = rowPits
	cycle      = 2*rowPits + 1
)

// Child is what one classic move leads to, in the view of the player to
// move next.
type Child struct {
	Pits  Pits // the configuration after the move, from the next mover's view
	Gain  int  // stones the mover gained minus stones the opponent gained, end sweep included
	Extra bool // the mover moves again: Pits is still in the mover's view
	Over  bool // the move ended the game: Pits is empty
}

// Play plays the mover's pit i (0..5), which must hold stones, by the
// classic rules of docs/RULES.md: sowing, the extra turn, the even and the empty
// pit captures and the end sweep. It allocates nothing.
func (p *Pits) Play(i int) Child {
	c := Child{Pits: *p}
	b := &c.Pits
	n := int(b[i])
	b[i] = 0
	start := i // n > 1: the first stone goes back into the picked pit
	if n == 1 {
		start = i + 1
	}
	last := (start + n - 1) % cycle
	if n >= cycle {
		q := uint8(n / cycle)
		for k := range b {
			b[k] += q
		}
		c.Gain += int(q)
		n %= cycle
	}
	for at := start; n > 0; n-- {
		if at == cycle {
			at = 0
		}
		switch {
		case at < storePlace:
			b[at]++
		case at == storePlace:
			c.Gain++
		default:
			b[at-1]++
		}
		at++
	}
	switch {
	case last == storePlace:
		c.Extra = true
	case last > storePlace:
		if j := last - 1; b[j]&1 == 0 {
			c.Gain += int(b[j])
			b[j] = 0
		}
	case b[last] == 1:
		if j := 2*rowPits - 1 - last; b[j] != 0 {
			c.Gain += int(b[j]) + 1
			b[j], b[last] = 0, 0
		}
	}
	c.finish()
	return c
}

// finish applies the end sweep when a row is empty, and otherwise turns the
// configuration to the next mover's view.
func (c *Child) finish() {
	if g, over := c.Pits.Terminal(); over {
		c.Gain += g
		c.Pits, c.Over, c.Extra = Pits{}, true, false
	} else if !c.Extra {
		c.Pits = c.Pits.Turned()
	}
}

// rows returns the stones in the mover's row and in the opponent's.
func (p *Pits) rows() (mine, theirs int) {
	for k := 0; k < rowPits; k++ {
		mine += int(p[k])
		theirs += int(p[k+rowPits])
	}
	return mine, theirs
}

// Turned returns p from the opponent's view: the two rows swapped.
func (p Pits) Turned() Pits {
	var q Pits
	copy(q[:rowPits], p[rowPits:])
	copy(q[rowPits:], p[:rowPits])
	return q
}

// Terminal reports whether a row is empty, and if so the future gain of
// the mover under the classic end rule: the player whose row is empty takes
// the stones left in the other row.
func (p *Pits) Terminal() (gain int, over bool) {
	mine, theirs := p.rows()
	if mine != 0 && theirs != 0 {
		return 0, false
	}
	return theirs - mine, true
}
