package agent

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"kumalak/env"
)

// kind is one agent family: its name, help and keys, and its constructor.
type kind struct {
	name  string
	short string
	keys  []key
	build func(spec *env.Spec, o *options, rng *rand.Rand) (Agent, error)
}

// key documents one option of a kind.
type key struct {
	name, def, help string
}

// kinds lists every agent family in the order Help shows them.
var kinds = []kind{
	{name: "random", short: "a uniformly random legal move", build: newRandom},
	{name: "greedy", short: "the best immediate store difference for the mover (needs a game with stores)",
		keys: []key{{"extra", "1", "bonus, in stones, for a move that keeps the turn"}}, build: newGreedy},
	{name: "ab", short: "alpha-beta negamax, iterative deepening, transposition table; evaluation = store difference + mobility",
		keys: []key{
			{"depth", "6; 60 with time=", "deepest iteration, in plies (1..60)"},
			{"time", "none", "time per move, e.g. 200ms or 2s; the search stops at depth or time, whichever comes first"},
			{"tt", "16", "transposition table size in MiB (0 turns it off; needs a game with hashes)"},
			{"mob", "50", "evaluation bonus per legal move of the mover, in hundredths of a stone (mobility)"},
		}, build: newAlphaBeta},
	{name: "mcts", short: "PUCT search with uniform priors and random-rollout values", keys: mctsKeys, build: newMCTS},
	{name: "model", short: "a trained network guiding PUCT search", keys: modelKeys, build: newModel},
	{name: "engine", short: "an external program speaking the kumalak engine protocol (docs/ENGINE.md)", keys: engineKeys, build: newEngineKind},
}

// Names returns the agent kinds, e.g. "random", "greedy", "ab".
func Names() []string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.name
	}
	return names
}

// Help describes every kind and its keys, one block per kind.
func Help() string {
	var sb strings.Builder
	sb.WriteString("Agent specs are name or name:key=value,key=value. Kinds:\n")
	for _, k := range kinds {
		fmt.Fprintf(&sb, "  %-7s %s\n", k.name, k.short)
		for _, kv := range k.keys {
			def := "required"
			if kv.def != "" {
				def = "default " + kv.def
			}
			fmt.Fprintf(&sb, "      %-9s %s (%s)\n", kv.name+"=", kv.help, def)
		}
	}
	return sb.String()
}

// New builds the agent a spec string describes, for the game spec, drawing
// its randomness from seed. The string is "name" or "name:key=value,...";
// an unknown name or key, or a bad value, is an error naming it.
func New(spec *env.Spec, s string, seed uint64) (Agent, error) {
	name, opts, err := parse(s)
	if err != nil {
		return nil, err
	}
	for _, k := range kinds {
		if k.name != name {
			continue
		}
		if err := opts.check(k); err != nil {
			return nil, fmt.Errorf("agent %q: %w", s, err)
		}
		a, err := k.build(spec, opts, agentRand(seed))
		if err != nil {
			return nil, fmt.Errorf("agent %q: %w", s, err)
		}
		return a, nil
	}
	return nil, fmt.Errorf("agent %q: unknown kind %q (known: %s)", s, name, strings.Join(Names(), ", "))
}

// agentRand is the random source of an agent built from seed.
func agentRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6b756d616c616b)) }

// options are the key=value pairs of a spec string.
type options struct {
	vals  map[string]string
	order []string
}

// parse splits "name:k=v,k=v" into the name and its options.
// joinRest returns ","+tail, or "" for an empty tail.
func joinRest(tail string) string {
	if tail == "" {
		return ""
	}
	return "," + tail
}

func parse(s string) (string, *options, error) {
	name, rest, _ := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	o := &options{vals: map[string]string{}}
	if name == "" {
		return "", nil, fmt.Errorf("agent %q: empty kind (known: %s)", s, strings.Join(Names(), ", "))
	}
	if strings.TrimSpace(rest) == "" {
		return name, o, nil
	}
	for rest != "" {
		part, tail, _ := strings.Cut(rest, ",")
		rest = tail
		if strings.HasPrefix(strings.TrimSpace(part), "cmd=") {
			// A command line may hold commas: cmd= takes the rest.
			part, rest = part+joinRest(tail), ""
		}
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case !ok || k == "" || v == "":
			return "", nil, fmt.Errorf("agent %q: option %q is not key=value", s, part)
		case o.vals[k] != "":
			return "", nil, fmt.Errorf("agent %q: key %q given twice", s, k)
		}
		o.vals[k] = v
		o.order = append(o.order, k)
	}
	return name, o, nil
}

// check refuses keys that kind k does not know.
func (o *options) check(k kind) error {
	for _, name := range o.order {
		known := false
		for _, kv := range k.keys {
			known = known || kv.name == name
		}
		if known {
			continue
		}
		if len(k.keys) == 0 {
			return fmt.Errorf("unknown key %q (%s takes no keys)", name, k.name)
		}
		names := make([]string, len(k.keys))
		for i, kv := range k.keys {
			names[i] = kv.name
		}
		return fmt.Errorf("unknown key %q (keys of %s: %s)", name, k.name, strings.Join(names, ", "))
	}
	return nil
}

// has reports whether key was given.
func (o *options) has(key string) bool { _, ok := o.vals[key]; return ok }

// str returns key's value, or def.
func (o *options) str(key, def string) string {
	if v, ok := o.vals[key]; ok {
		return v
	}
	return def
}

// int returns key's value as an integer in lo..hi, or def when absent.
func (o *options) int(key string, def, lo, hi int) (int, error) {
	v, ok := o.vals[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%s: not an integer", key, v)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%s=%d out of range %d..%d", key, n, lo, hi)
	}
	return n, nil
}

// float returns key's value as a number in lo..hi, or def when absent.
func (o *options) float(key string, def, lo, hi float64) (float64, error) {
	v, ok := o.vals[key]
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("%s=%s: not a number", key, v)
	}
	if !(f >= lo && f <= hi) {
		return 0, fmt.Errorf("%s=%s out of range %g..%g", key, v, lo, hi)
	}
	return f, nil
}

// duration returns key's value as a positive duration of at most an hour,
// or 0 when absent.
func (o *options) duration(key string) (time.Duration, error) {
	v, ok := o.vals[key]
	if !ok {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%s: not a duration (e.g. 200ms, 2s)", key, v)
	}
	if d <= 0 || d > time.Hour {
		return 0, fmt.Errorf("%s=%s out of range (0, 1h]", key, v)
	}
	return d, nil
}

// bool returns key's value as a boolean, or def when absent.
func (o *options) bool(key string, def bool) (bool, error) {
	v, ok := o.vals[key]
	if !ok {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%s: not true or false", key, v)
	}
	return b, nil
}
