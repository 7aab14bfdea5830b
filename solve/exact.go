package solve

import (
	"fmt"
	"strings"

	"kumalak/env"
	"kumalak/env/kalah"
	"kumalak/env/mangala"
)

// Exact returns the result of perfect play from st for its player to
// move, +1 a win, 0 a draw, -1 a loss, and false outside the tablebase:
// the sign of the final store difference, the present one plus the
// mover's future gain. It is the oracle of an MCTS (mcts.Oracle) and of
// an analysis; it allocates nothing and is safe for concurrent use.
func (t *Tablebase) Exact(st env.State) (float32, bool) {
	g, ok := t.Probe(st)
	if !ok {
		return 0, false
	}
	b := st.(*mangala.Board) // Probe took only mangala boards
	me := b.ToMove()
	return float32(sign(b.Store(me) - b.Store(me.Other()) + g)), true
}

// MovesOf is Moves for a position given as an env.State: false for
// another game, kale, or a position outside the tablebase.
func (t *Tablebase) MovesOf(st env.State, dst []MoveValue) ([]MoveValue, bool) {
	b, ok := st.(*mangala.Board)
	if !ok {
		return dst, false
	}
	return t.Moves(b, dst)
}

// Probed returns nil when a tablebase's Probe, Exact and MovesOf answer
// positions of game, the games whose env.Facts.Tablebase is MangalaTB
// (the judge, analyze's exact values and an MCTS's oracle read them),
// else an error naming those games.
func Probed(game *env.Spec) error {
	if game.Facts.Tablebase == MangalaTB {
		return nil
	}
	return probedErr(game.Name)
}

// probedErr says that tablebases are probed for other games than name.
func probedErr(name string) error {
	return fmt.Errorf("tablebases are of %s, not %s", strings.Join(env.GamesWhere(probed), ", "), name)
}

func probed(s *env.Spec) bool { return s.Facts.Tablebase == MangalaTB }

// Stones returns the stones on the board of a position Solve takes (in
// the pits or houses, not the stores), and false for another game. A
// solve's work grows with them; they never grow during a game.
func Stones(st env.State) (int, bool) {
	if !st.Spec().Facts.Solver {
		return 0, false
	}
	switch b := st.(type) {
	case *mangala.Board:
		return stonesOf(b), true
	case *kalah.Board:
		n := 0
		for i := range b.Rules().Houses {
			n += b.House(env.White, i) + b.House(env.Black, i)
		}
		return n, true
	}
	return 0, false
}
