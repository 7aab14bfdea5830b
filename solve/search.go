package solve

import (
	"slices"

	"kumalak/env"
	"kumalak/env/mangala"
)

// checkEvery is how many nodes pass between looks at the clock.
const checkEvery = 1 << 12

// move is one child of a search node.
type move struct {
	b     mangala.Board
	gain  int  // the mover's store gain less the opponent's
	extra bool // the mover moves again
	a     int8 // the action
	order int  // sort key, higher first
}

// search returns the future gain of b's mover, fail-soft within the window
// alpha < value < beta: a result <= alpha is an upper bound, >= beta a lower
// bound. depth < 0 searches to the end of the game and records proven
// bounds; depth >= 0 is a heuristic search that scores its leaves 0 (the
// stores as they stand) and only records best moves. After s.stopped is
// set the result means nothing.
func (s *Solver) search(b *mangala.Board, alpha, beta, depth int) int {
	s.stats.Nodes++
	if s.stats.Nodes%checkEvery == 1 && s.outOfBudget() {
		s.stopped = true
	}
	if s.stopped {
		return 0
	}
	p := FromBoard(b)
	if g, over := terminalPits(&p, b.Kale()); over {
		return g
	}
	if s.cfg.Tablebase != nil && !b.Kale() {
		if v, ok := s.cfg.Tablebase.Value(&p); ok {
			s.stats.TBHits++
			return v
		}
	}
	if depth == 0 {
		return 0
	}
	key := keyOf(&p, b)
	ttMove := int8(-1)
	if e := s.tt.probe(key); e != nil {
		lo, hi := int(e.lo), int(e.hi)
		if lo == hi || (depth < 0 && (lo >= beta || hi <= alpha)) {
			s.stats.TTHits++
			if lo >= beta || lo == hi {
				return lo
			}
			return hi
		}
		ttMove = e.move
	}
	if b.Kale() {
		if slices.Contains(s.path, key) {
			s.stats.Repetitions++
			return kaleEnd(&p)
		}
		s.path = append(s.path, key)
		v := s.expand(b, &p, alpha, beta, depth, key, ttMove)
		s.path = s.path[:len(s.path)-1]
		return v
	}
	return s.expand(b, &p, alpha, beta, depth, key, ttMove)
}

// outOfBudget reports whether the kale search has spent its time or its
// nodes.
func (s *Solver) outOfBudget() bool {
	return (!s.deadline.IsZero() && !s.cfg.Now().Before(s.deadline)) || (s.maxNodes > 0 && s.stats.Nodes >= s.maxNodes)
}

// expand searches the children of b, whose pits in its mover's view are p
// (see search), and records the result.
func (s *Solver) expand(b *mangala.Board, p *Pits, alpha, beta, depth int, key uint64, ttMove int8) int {
	var kids [rowPits]move
	n := children(b, kids[:], ttMove)
	alpha0, reps := alpha, s.stats.Repetitions
	best, bestMove := -MaxStones-1, int8(-1)
	for i := range kids[:n] {
		k := &kids[i]
		var v int
		if k.extra {
			v = k.gain + s.search(&k.b, alpha-k.gain, beta-k.gain, depth-1)
		} else {
			v = k.gain - s.search(&k.b, k.gain-beta, k.gain-alpha, depth-1)
		}
		if s.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, k.a
		}
		alpha = max(alpha, v)
		if alpha >= beta {
			break
		}
	}
	switch {
	case depth >= 0:
		s.tt.hint(key, int(bestMove), p.Stones())
	case s.stats.Repetitions != reps:
		// The value leans on the path (a kale repetition): not a property
		// of the position alone, so it is not recorded.
	case best <= alpha0:
		s.tt.store(key, -MaxStones, best, int(bestMove))
	case best >= beta:
		s.tt.store(key, best, MaxStones, int(bestMove))
	default:
		s.tt.store(key, best, best, int(bestMove))
	}
	return best
}

// children fills kids with the moves of b, the table's best move first and
// then by gain, extra turns counting as a gain, and returns how many.
func children(b *mangala.Board, kids []move, ttMove int8) int {
	var buf [rowPits]env.Action
	legal := b.Legal(buf[:0])
	for i, a := range legal {
		k := &kids[i]
		k.b = *b
		k.b.Apply(a)
		k.gain, k.extra = gainOf(b, &k.b)
		k.a = int8(a)
		k.order = 4 * k.gain
		if k.extra {
			k.order += 3
		}
		if k.a == ttMove {
			k.order += 1 << 10
		}
	}
	n := len(legal)
	for i := 1; i < n; i++ { // insertion sort: at most six moves
		for j := i; j > 0 && kids[j].order > kids[j-1].order; j-- {
			kids[j], kids[j-1] = kids[j-1], kids[j]
		}
	}
	return n
}

// gainOf returns what the move from b to c gained its mover, the mover's
// store gain less the opponent's, and whether the mover moves again.
func gainOf(b, c *mangala.Board) (gain int, extra bool) {
	me := b.ToMove()
	gain = c.Store(me) - b.Store(me) - (c.Store(me.Other()) - b.Store(me.Other()))
	return gain, c.ToMove() == me // a move that ends the game passes the turn
}

// stonesOf returns the stones in b's pits.
func stonesOf(b *mangala.Board) int {
	p := FromBoard(b)
	return p.Stones()
}

// terminal reports whether b is over, and if so the future gain of its
// mover under its variant's end rule.
func terminal(b *mangala.Board) (int, bool) {
	p := FromBoard(b)
	return terminalPits(&p, b.Kale())
}

// terminalPits is terminal for the pits p of a position of the variant.
func terminalPits(p *Pits, kale bool) (int, bool) {
	if !kale {
		return p.Terminal()
	}
	mine, theirs := p.rows()
	if mine != 0 && theirs != 0 {
		return 0, false
	}
	return mine - theirs, true
}

// kaleEnd is the value the kale search gives a repeated position: the end
// rule applied there, each player storing the stones in their own row.
func kaleEnd(p *Pits) int {
	mine, theirs := p.rows()
	return mine - theirs
}

// keyOf returns the transposition key of b, whose pits in its mover's view
// are p: the pits, the castles (mover's first) and the variant. The stores
// do not change what happens next, so they are left out.
func keyOf(p *Pits, b *mangala.Board) uint64 {
	var lo, hi uint64
	for k := 0; k < 8; k++ {
		lo |= uint64(p[k]) << (8 * k)
	}
	for k := 8; k < nPits; k++ {
		hi |= uint64(p[k]) << (8 * (k - 8))
	}
	me := b.ToMove()
	hi |= uint64(b.Castle(me))<<32 | uint64(b.Castle(me.Other()))<<36
	if b.Kale() {
		hi |= 1 << 40
	}
	return env.Mix64(env.Mix64(lo^0x9e3779b97f4a7c15)^hi) | 1
}
