package solve

import (
	"kumalak/env"
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
