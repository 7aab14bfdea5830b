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

// solved is the exact value of a position (envtest.Solve).
type solved = envtest.Solved

// minimax solves a kala position exactly, with a memo keyed by position.
func minimax(k *kala, memo map[kala]solved) solved { return envtest.Solve(k, memo) }
