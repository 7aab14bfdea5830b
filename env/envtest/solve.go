package envtest

import "kumalak/env"

// Solved is the exact value of a Kalah position: its result under perfect
// play and the plies to the end (the shortest win, the longest loss, the
// shortest draw), as an MCTS-solver counts them.
type Solved struct {
	Result env.Result
	Depth  int
}

// Solve returns the exact value of k by minimax over every line, memoised
// in memo by position. It compares players at each ply rather than
// negating (an extra turn keeps the mover), so it is the reference that
// the searches and the self-play targets of the tests are checked against.
// It is for the small Kalah variants (Kala3, Kalah3): the larger ones have
// too many positions.
func Solve(k *Kalah, memo map[Kalah]Solved) Solved {
	if r := k.Result(); r != env.Ongoing {
		return Solved{r, 0}
	}
	if v, ok := memo[*k]; ok {
		return v
	}
	m := k.ToMove()
	best := Solved{env.WinFor(m.Other()), -1}
	var buf [MaxKalahPits]env.Action
	for _, a := range k.Legal(buf[:0]) {
		c := *k
		c.Apply(a)
		v := Solve(&c, memo)
		v.Depth++
		if v.Rank(m) > best.Rank(m) {
			best = v
		}
	}
	memo[*k] = best
	return best
}

// Rank orders values from the view of the mover m, the larger the better:
// wins (shorter first), then draws (shorter first), then losses (longer
// first).
func (v Solved) Rank(m env.Player) int {
	switch v.Result {
	case env.WinFor(m):
		return 2000000 - v.Depth
	case env.WinFor(m.Other()):
		return v.Depth
	}
	return 1000000 - v.Depth
}
