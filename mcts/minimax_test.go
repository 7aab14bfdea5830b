package mcts

import (
	"kumalak/env"
	"kumalak/env/envtest"
)

// The tests' small games: envtest's Kala (Kalah without captures or a ply
// limit), small enough to solve exactly (kala3) or mangala-sized (kala6).
type kala = envtest.Kalah

var (
	kala3 = envtest.Kala3
	kala6 = envtest.Kala6
)

// mustKala parses a kala3 or kala6 position or panics.
func mustKala(spec *env.Spec, s string) *kala {
	k, err := envtest.ParseKalah(spec, s)
	if err != nil {
		panic(err)
	}
	return k
}

// solved is the exact value of a position: its result under perfect play
// and the plies to the end (shortest win, longest loss, shortest draw), as
// the solver counts them.
type solved struct {
	r     env.Result
	depth int
}

// minimax solves a kala position exactly, comparing players at each ply
// (never negating per ply), with a memo keyed by position.
func minimax(k *kala, memo map[kala]solved) solved {
	if r := k.Result(); r != env.Ongoing {
		return solved{r, 0}
	}
	if v, ok := memo[*k]; ok {
		return v
	}
	m := k.ToMove()
	win, loss := env.WinFor(m), env.WinFor(m.Other())
	best := solved{loss, -1}
	var buf [6]env.Action
	for _, a := range k.Legal(buf[:0]) {
		c := *k
		c.Apply(a)
		v := minimax(&c, memo)
		v.depth++
		if better := rankSolved(v, win, loss) > rankSolved(best, win, loss); better {
			best = v
		}
	}
	memo[*k] = best
	return best
}

// rankSolved orders outcomes for the mover whose win and loss are given:
// wins (shorter first), then draws (shorter first), then losses (longer
// first).
func rankSolved(v solved, win, loss env.Result) int {
	switch v.r {
	case win:
		return 2000000 - v.depth
	case loss:
		return v.depth
	}
	return 1000000 - v.depth
}
