package engine

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"kumalak/agent"
	"kumalak/protocol"
)

// strength holds the engine's strength options (docs/PLAYING.md, Levels), offered
// when its agent is the model kind: a level, or, with limit, a rating.
type strength struct {
	level int  // 0: the engine's own agent at full strength
	limit bool // play at elo (limitstrength)
	elo   int  // the rating asked for; clamped into the game's levels' range
}

// splitStrength returns the spec without its level= or elo= key and the
// strength they set, so that the strength options start there.
func splitStrength(sp agent.Spec) (agent.Spec, strength) {
	var str strength
	opts := sp.Options[:0:0]
	for _, kv := range sp.Options {
		n, err := strconv.ParseFloat(kv.Value, 64)
		switch {
		case kv.Key == "level" && err == nil:
			str.level = int(n)
		case kv.Key == "elo" && err == nil:
			str.limit, str.elo = true, int(math.Round(n))
		default:
			opts = append(opts, kv)
		}
	}
	sp.Options = opts
	return sp, str
}

// eloRange returns the ratings of the game's weakest and strongest levels,
// rounded, and whether the game's levels are measured.
func eloRange(game string) (lo, hi int, ok bool) {
	s, ok := agent.LevelScaleOf(game)
	if !ok {
		return 0, 0, false
	}
	return int(math.Ceil(s.Elo[0])), int(math.Floor(s.Elo[agent.MaxLevel-1])), true
}

// strengthSpec returns the spec of the agent that plays game: the
// engine's own, at the level or rating the options ask for.
func (e *engine) strengthSpec(game string) (agent.Spec, error) {
	sp := e.own
	var kv agent.KeyValue
	switch {
	case sp.Kind != "model":
		return sp, nil
	case e.str.limit:
		lo, hi, ok := eloRange(game)
		if !ok {
			return sp, fmt.Errorf("option %s: the levels of %s are not measured (use %s)", protocol.OptionLimitStrength, game, protocol.OptionLevel)
		}
		kv = agent.KeyValue{Key: "elo", Value: strconv.Itoa(min(max(e.str.elo, lo), hi))}
	case e.str.level > 0:
		kv = agent.KeyValue{Key: "level", Value: strconv.Itoa(e.str.level)}
	default:
		return sp, nil
	}
	sp.Limits.Sims = 0
	sp.Options = append(slices.Clone(sp.Options), kv)
	return agent.ParseSpec(sp.String())
}

// strengthOptions declares level, limitstrength and, for a game whose
// levels are measured, elo; none for an agent that is no model.
func (e *engine) strengthOptions() []protocol.Answer {
	if e.own.Kind != "model" {
		return nil
	}
	out := []protocol.Answer{
		protocol.Option{Name: protocol.OptionLevel, Type: protocol.Spin, Default: strconv.Itoa(e.str.level), Max: agent.MaxLevel},
		protocol.Option{Name: protocol.OptionLimitStrength, Type: protocol.Check, Default: strconv.FormatBool(e.str.limit)},
	}
	if lo, hi, ok := eloRange(e.spec.Name); ok {
		out = append(out, protocol.Option{Name: protocol.OptionElo, Type: protocol.Spin,
			Default: strconv.Itoa(min(max(e.str.elo, lo), hi)), Min: int64(lo), Max: int64(hi)})
	}
	return out
}

// setStrength sets one strength option, when name is one, and builds the
// agent anew at the strength asked for; a sims option set before is
// dropped (the level sets the search). On an error the strength stays.
func (e *engine) setStrength(name, value string) (ok bool, err error) {
	if e.own.Kind != "model" {
		return false, nil
	}
	old := e.str
	switch name {
	case protocol.OptionLimitStrength:
		v := strings.ToLower(value)
		if v != "true" && v != "false" {
			return true, fmt.Errorf("option %s: value %q is not true or false", name, value)
		}
		e.str.limit = v == "true"
	case protocol.OptionLevel, protocol.OptionElo:
		n, err := e.spinValue(name, value)
		if err != nil {
			return true, err
		}
		if name == protocol.OptionLevel {
			e.str.level = int(n)
		} else {
			e.str.elo = int(n)
		}
	default:
		return false, nil
	}
	if err := e.buildAgent(e.spec); err != nil {
		e.str = old
		return true, err
	}
	e.opts.Sims = 0
	return true, nil
}

// spinValue reads the value of the spin option name within the range
// Hello declares.
func (e *engine) spinValue(name, value string) (int64, error) {
	decl, found := protocol.Option{}, false
	for _, a := range e.Hello() {
		if o, ok := a.(protocol.Option); ok && o.Name == name {
			decl, found = o, true
		}
	}
	if !found {
		return 0, fmt.Errorf("unknown option %q (options: %s)", name, strings.Join(e.optionNames(), ", "))
	}
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil || n < decl.Min || n > decl.Max {
		return 0, fmt.Errorf("option %s: value %q is not a whole number in %d..%d", name, value, decl.Min, decl.Max)
	}
	return n, nil
}
