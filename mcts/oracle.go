package mcts

import "kumalak/env"

// Oracle knows the exact result of some positions, such as a Mangala
// endgame tablebase: Exact returns the result of perfect play from st for
// its player to move, +1 a win, 0 a draw, -1 a loss, and false for a
// position it does not know. It must not keep st, and must be safe for
// concurrent use when searches share it.
type Oracle interface {
	Exact(st env.State) (value float32, ok bool)
}

// SetOracle makes the search value the positions o knows as exact leaves:
// a node reached whose position o knows is proven at once, as a finished
// game is, so the MCTS-solver (Config.Solver) proves its ancestors. The
// root itself is never proven by o, so that a move is still searched. A
// nil o turns it off. It takes effect for nodes reached from now on.
func (s *Search) SetOracle(o Oracle) { s.oracle = o }

// resultOf returns the result in which the mover of a position o valued v
// wins (v > 0), draws (v = 0) or loses (v < 0).
func resultOf(mover env.Player, v float32) env.Result {
	switch {
	case v > 0:
		return env.WinFor(mover)
	case v < 0:
		return env.WinFor(mover.Other())
	}
	return env.Draw
}
