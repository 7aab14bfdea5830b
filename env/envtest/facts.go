package envtest

import (
	"fmt"

	"kumalak/env"
)

// Fact is one per-game fact the rest of kumalak reads, an env ability that
// the game's own folder provides (env/facts.go).
type Fact struct {
	Name string               // the env interface
	Has  func(env.State) bool // whether a position has it
	Use  string               // who reads it
}

// Facts lists what a registered game's State must provide besides
// env.State, so that adding a game touches only its folder, the registry,
// configs and docs.
var Facts = []Fact{
	{"env.Scorer", is[env.Scorer], "baseline agents, alpha-beta, adjudication, score targets"},
	{"env.Hasher", is[env.Hasher], "transposition tables, repeated positions"},
	{"env.Checker", is[env.Checker], "env.Play's reasons for an illegal move"},
	{"env.Perfter", is[env.Perfter], "perft (docs/RULES.md)"},
	{"env.Drawer", is[env.Drawer], "boards for people: commands, terminal play, the web page"},
	{"env.Worded", is[env.Worded], "the names of the store and the special pit"},
	{"env.Sower", is[env.Sower], "what a move sowed home and what it captured (bot's plies)"},
	{"env.Calibrated", is[env.Calibrated], "alpha-beta's win probabilities (agent.CalibrationOf)"},
	{"env.Balanced", is[env.Balanced], "balanced openings in matches (arena.BalanceOf)"},
}

func is[T any](st env.State) bool {
	_, ok := st.(T)
	return ok
}

// CheckFacts returns an error naming every fact of Facts that spec's game
// lacks.
func CheckFacts(spec *env.Spec) error {
	st := spec.New()
	var missing []string
	for _, f := range Facts {
		if !f.Has(st) {
			missing = append(missing, fmt.Sprintf("%s (%s)", f.Name, f.Use))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("game %s lacks %v", spec.Name, missing)
	}
	return nil
}
