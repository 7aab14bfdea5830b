package agent

// The keys the mcts and model kinds share, written once: each kind's
// table (mctsKeys, modelKeys) is its own keys around these, in the order
// its spec strings are written.
var (
	// treeKeys are the search's move choice, proofs, tree and oracle.
	treeKeys = []key{
		{"temp", "0", "move choice temperature: 0 plays the most visited move"},
		{"solver", "true", "propagate proven wins and losses (MCTS-solver)"},
		{"reuse", "true", "keep the subtree of the move played (tree reuse)"},
		threadsKeyDoc,
		hashKeyDoc,
		tablebaseKeyDoc,
	}
	timeKeyDoc = key{"time", "none", "time per move, e.g. 500ms; with sims, the first reached ends the search"}
)

// simsKey is the sims key with the kind's default.
func simsKey(def string) key {
	return key{"sims", def, "simulations added per move (0 with time= for time only)"}
}

// cpuctKey is the cpuct key with the kind's default.
func cpuctKey(def string) key { return key{"cpuct", def, "PUCT exploration constant (0..100]"} }

// withKeys returns the keys of head, then tail's tables, in a new slice.
func withKeys(head []key, tail ...[]key) []key {
	out := append([]key(nil), head...)
	for _, t := range tail {
		out = append(out, t...)
	}
	return out
}
