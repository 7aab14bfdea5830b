package solve

import (
	"fmt"
	"sync"

	"kumalak/env"
)

// Book is a game's shipped bounds file (proofs/GAME.bounds) read as an
// opening book: the proven bounds of the positions a few plies from the
// start, so that a player keeps to the moves that no other move is proved
// to beat and, where a position's value is proved, plays a move of it.
type Book struct {
	b      *bounds
	fewest int // the fewest stones on the board of a position it holds
}

// ShippedBook returns the book of spec's game, nil (and no error) when
// none is shipped. The shipped file is read once a process; the book is
// read-only, shared by every agent.
func ShippedBook(spec *env.Spec) (*Book, error) {
	f, _ := books.LoadOrStore(spec.Name, sync.OnceValues(func() (*Book, error) { return readBook(spec) }))
	return f.(func() (*Book, error))()
}

// books holds each game's ShippedBook, read once.
var books sync.Map

// readBook reads the book of spec's game from the shipped bounds.
func readBook(spec *env.Spec) (*Book, error) {
	b, err := shipped(spec.Name)
	if err != nil || b == nil {
		return nil, err
	}
	if b.spec.Name != spec.Name {
		return nil, fmt.Errorf("%w: shipped book of %s is of %s", ErrBounds, spec.Name, b.spec.Name)
	}
	bk := &Book{b: b, fewest: MaxStones + 1}
	for p := range b.facts {
		bk.fewest = min(bk.fewest, b.g.stones(&p))
	}
	return bk, nil
}

// Moves returns the book's knowledge of st: each legal move with its
// proven bounds on the final store difference for st's mover (the whole
// range of the stones where the book holds none), in action order, in a
// Result whose Lo and Hi bound st's value. It returns false, and nothing
// else, when the book holds no move of st (or st is not of its game).
func (bk *Book) Moves(st env.State, dst []MoveValue) (Result, bool) {
	g, p, base, ok := engineOf(st)
	if !ok || g != bk.b.g || st.Result() != env.Ongoing || g.stones(&p) < bk.fewest {
		return Result{}, false // a child of p has at most p's stones
	}
	all := st.Spec().Stones
	r := Result{Lo: -all, Hi: -all, Moves: dst[:0]}
	known := false
	for i := range g.n { // the legal moves: the mover's non-empty houses
		if p[i] == 0 {
			continue
		}
		m := MoveValue{Action: env.Action(i), Lo: -all, Hi: all}
		if lo, hi, ok, over := bk.b.moveBounds(&p, i); ok {
			m.Lo, m.Hi = base+lo, base+hi
			known = known || !over // a move that ends the game is no knowledge of the book's
		}
		r.Lo, r.Hi = max(r.Lo, m.Lo), max(r.Hi, m.Hi)
		r.Moves = append(r.Moves, m)
	}
	if !known {
		return Result{}, false
	}
	return r, true
}
