package agent

import (
	"fmt"
	"strings"

	"kumalak/env"
	"kumalak/mcts"
	"kumalak/solve"
)

// tablebaseKey is the key of the tablebase folder in mcts and model specs;
// the tb kind calls it dir.
const tablebaseKey = "tablebase"

// tablebaseKeyDoc documents tablebaseKey for mcts and model.
var tablebaseKeyDoc = key{tablebaseKey, "none", "a tablebase folder: classic mangala's positions in it are exact leaves that the solver proves, and inside it the agent plays a move of the exact best value; a kalah one (6 houses) speeds the exact solver; auto (the front ends' default) or auto:N: the game's N-stone tablebase (16) in the user's cache folder, built once on first use (docs/TABLEBASE.md), none for other games and for levels; off: none"}

// WithTablebase returns the spec with the tablebase folder dir given to
// the kinds that take one (tb's dir, mcts's and model's tablebase) unless
// the spec names its own; other kinds are returned unchanged, and so is
// every spec for an empty dir. Commands use it for --tablebase.
func (s Spec) WithTablebase(dir string) (Spec, error) {
	name := map[string]string{"tb": "dir", "mcts": tablebaseKey, "model": tablebaseKey}[s.Kind]
	if dir == "" || name == "" {
		return s, nil
	}
	if strings.ContainsAny(dir, ",") {
		return Spec{}, fmt.Errorf("agent: tablebase %s: a path in a spec may not contain a comma", dir)
	}
	for _, kv := range s.Options {
		if kv.Key == name {
			return s, nil
		}
	}
	s.Options = append(append([]KeyValue(nil), s.Options...), KeyValue{name, dir})
	return ParseSpec(s.String()) // back into the kind's order of keys
}

// setOracle opens the tablebase named by o's tablebase key, if any: for
// classic mangala it is the oracle of m's search and the exact solver's;
// for kalah (6 houses) the exact solver's alone. m closes it.
func (m *searcher) setOracle(o *options) error {
	spec := m.cur.Spec()
	tb, err := solve.OpenSetting(spec, o.str(tablebaseKey, ""))
	if err != nil || tb == nil {
		return err
	}
	m.tb = tb
	if solve.Probed(spec) == nil {
		m.search.SetOracle(m.tb)
	}
	return nil
}

var _ mcts.Oracle = (*solve.Tablebase)(nil)

// Close unmaps the search's tablebase, when it has one.
func (m *searcher) Close() error {
	if m.tb == nil {
		return nil
	}
	err := m.tb.Close()
	m.tb = nil
	m.search.SetOracle(nil)
	return err
}

// SpecsWithTablebase gives each spec string of game (specs point to them)
// the tablebase of a --tablebase value dir (SpecWithTablebase), except
// where it gives nothing: off, none or "", or the cached default (auto)
// for a game whose positions no tablebase answers; the specs then stay
// as written.
func SpecsWithTablebase(game *env.Spec, dir string, specs ...*string) error {
	if _, auto, _ := solve.AutoSize(dir); (auto && !solve.HasTablebases(game)) || solve.IsOff(dir) {
		return nil
	}
	for _, s := range specs {
		var err error
		if *s, err = SpecWithTablebase(*s, dir); err != nil {
			return err
		}
	}
	return nil
}

// SpecWithTablebase is WithTablebase for a spec string: a string that
// does not parse is returned as it is, for New to report.
func SpecWithTablebase(spec, dir string) (string, error) {
	sp, err := ParseSpec(spec)
	if err != nil || dir == "" {
		return spec, nil
	}
	if sp, err = sp.WithTablebase(dir); err != nil {
		return "", err
	}
	return sp.String(), nil
}
