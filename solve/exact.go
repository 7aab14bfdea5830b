package solve

import (
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

// Supports reports whether the solver takes positions of game: mangala and
// mangala-kale (the tablebase covers classic mangala alone).
func Supports(game *env.Spec) bool {
	return game.Name == mangala.Spec.Name || game.Name == mangala.KaleSpec.Name
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

// TablebaseGame returns the tablebase kind of a game's positions: Game for
// classic mangala, "kalah" or "kalah-empty" for Kalah with 6 houses (by its
// capture rule), and false for the games that have none.
func TablebaseGame(game *env.Spec) (string, bool) {
	if game.Name == mangala.Spec.Name {
		return Game, true
	}
	if k, ok := game.New().(*kalah.Board); ok {
		r := k.Rules()
		if r.Houses == rowPits && r.MaxPly == 0 && r.Capture != kalah.None {
			return kalahGame(r), true
		}
	}
	return "", false
}

// Solves reports whether Solver.Solve takes positions of game: mangala,
// mangala-kale and Kalah without a ply limit.
func Solves(game *env.Spec) bool {
	if Supports(game) {
		return true
	}
	k, ok := game.New().(*kalah.Board)
	return ok && k.Rules().MaxPly == 0
}
