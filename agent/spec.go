package agent

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"kumalak/env"
)

// Spec is a parsed agent spec string, "kind" or "kind:key=value,…": the
// kind, its limit keys (sims, time or movetime, depth) read into Limits,
// and its other keys in the order given. ParseSpec checks the kind, the
// keys and the limits; New checks the other values when it builds.
type Spec struct {
	Kind    string
	Limits  Limits     // the limit keys; zero = not given
	Options []KeyValue // the other keys; a cmd key comes last
}

// KeyValue is one key=value of a spec.
type KeyValue struct{ Key, Value string }

// kind is one agent family: its name, help and keys, and its constructor.
type kind struct {
	name  string
	short string
	keys  []key
	lim   limitKeys
	build func(spec *env.Spec, o *options, rng *rand.Rand) (Agent, error)
	// aliases maps other names of keys to theirs (read as them).
	aliases map[string]string
}

// key documents one option of a kind.
type key struct {
	name, def, help string
}

// limitKeys names the spec keys of a kind's limits ("" = none) and their
// largest values.
type limitKeys struct {
	sims, time, depth string
	max               Limits
	// needsOne: the kind must have a sims or time limit, so sims=0 needs
	// time= (mcts, model).
	needsOne bool
}

// searchLimits are the limit keys of mcts and model.
var searchLimits = limitKeys{sims: "sims", time: "time", max: searchMaxLimits, needsOne: true}

// kinds lists every agent family in the order Help shows them.
var kinds = []kind{
	{name: "random", short: "a uniformly random legal move", build: newRandom},
	{name: "greedy", short: "the best immediate store difference for the mover (needs a game with stores)",
		keys: []key{{"extra", "1", "bonus, in stones, for a move that keeps the turn"}}, build: newGreedy},
	{name: "ab", short: "alpha-beta negamax, iterative deepening, transposition table; evaluation = store difference + mobility",
		keys: []key{
			{"depth", fmt.Sprintf("%d; %d with time=", abDefaultDepth, MaxDepth), fmt.Sprintf("deepest iteration, in plies (1..%d)", MaxDepth)},
			{"time", "none", "time per move, e.g. 200ms or 2s; the search stops at depth or time, whichever comes first"},
			{"tt", strconv.Itoa(abDefaultTT), "transposition table size in MiB (0 turns it off; needs a game with hashes)"},
			{"mob", strconv.Itoa(abDefaultMob), "evaluation bonus per legal move of the mover, in hundredths of a stone (mobility)"},
		},
		lim:   limitKeys{time: "time", depth: "depth", max: abMaxLimits},
		build: newAlphaBeta},
	{name: "mcts", short: "PUCT search with uniform priors and random-rollout values", keys: mctsKeys, lim: searchLimits, build: newMCTS},
	{name: "model", short: "a trained network guiding PUCT search", keys: modelKeys, lim: searchLimits, build: buildModel},
	{name: "engine", short: "an external program speaking the kumalak engine protocol (docs/ENGINE.md)", keys: engineKeys,
		lim:     limitKeys{sims: "sims", time: "time", depth: "depth", max: Limits{Sims: MaxSims, Time: MaxTime, Depth: maxEngineDepth}},
		aliases: map[string]string{"movetime": "time"},
		build:   newEngineKind},
	{name: "tb", short: "perfect endgames (mangala, kalah): the tablebase's exact values inside it, the exact solver for a time outside it", keys: tbKeys,
		lim: limitKeys{time: "time", max: tbMaxLimits}, build: newTB},
}

// cmdKey takes the rest of a spec, commas included.
const cmdKey = "cmd"

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

// New builds the agent a spec string describes (ParseSpec, then
// Spec.New).
func New(game *env.Spec, s string, seed uint64) (Agent, error) {
	sp, err := ParseSpec(s)
	if err != nil {
		return nil, err
	}
	return sp.New(game, seed)
}

// New builds the agent for the game, drawing its randomness from seed; a
// bad value is an error naming it.
func (s Spec) New(game *env.Spec, seed uint64) (Agent, error) {
	k, err := findKind(s.Kind)
	if err != nil {
		return nil, fmt.Errorf("agent %q: %w", s, err)
	}
	o := &options{vals: map[string]string{}, lim: s.Limits}
	for _, kv := range s.Options {
		o.vals[kv.Key] = kv.Value
	}
	a, err := k.build(game, o, agentRand(seed))
	if err != nil {
		return nil, fmt.Errorf("agent %q: %w", s, err)
	}
	return a, nil
}

// findKind returns the kind called name.
func findKind(name string) (*kind, error) {
	for i := range kinds {
		if kinds[i].name == name {
			return &kinds[i], nil
		}
	}
	return nil, fmt.Errorf("unknown kind %q (known: %s)", name, strings.Join(Names(), ", "))
}

// agentRand is the random source of an agent built from seed.
func agentRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6b756d616c616b)) }

// ParseSpec reads "kind" or "kind:key=value,…". A value may hold '=' but
// not ','; the cmd key takes the rest of the string, commas included. An
// unknown kind or key, a key given twice, or a limit out of range is an
// error naming it.
func ParseSpec(s string) (Spec, error) {
	name, rest, _ := strings.Cut(s, ":")
	sp := Spec{Kind: strings.TrimSpace(name)}
	if sp.Kind == "" {
		return Spec{}, fmt.Errorf("agent %q: empty kind (known: %s)", s, strings.Join(Names(), ", "))
	}
	k, err := findKind(sp.Kind)
	if err != nil {
		return Spec{}, fmt.Errorf("agent %q: %w", s, err)
	}
	if err := sp.parseKeys(k, rest); err != nil {
		return Spec{}, fmt.Errorf("agent %q: %w", s, err)
	}
	return sp, nil
}

// parseKeys reads the key=value pairs of kind k.
func (s *Spec) parseKeys(k *kind, rest string) error {
	opts, err := env.ParseOptions(rest, cmdKey)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	zeroSims := false
	for _, o := range opts {
		key, v := o.Key, o.Value
		if a, ok := k.aliases[key]; ok {
			key = a
		}
		switch {
		case seen[key]:
			return fmt.Errorf("key %q given twice", key)
		case !k.has(key):
			return k.unknown(key)
		}
		seen[key] = true
		limit, err := s.setLimit(k.lim, key, v)
		if err != nil {
			return err
		}
		zeroSims = zeroSims || (limit && key == k.lim.sims && v == "0")
		if !limit {
			s.Options = append(s.Options, KeyValue{key, v})
		}
	}
	if zeroSims && k.lim.needsOne && s.Limits.Time == 0 {
		return fmt.Errorf("%s=0 needs %s=", k.lim.sims, k.lim.time)
	}
	slices.SortStableFunc(s.Options, func(a, b KeyValue) int { return k.order(a.Key) - k.order(b.Key) })
	return nil
}

// order is the place of key in String: the kind's order of keys, cmd last.
func (k *kind) order(name string) int {
	if name == cmdKey {
		return len(k.keys)
	}
	return slices.IndexFunc(k.keys, func(kv key) bool { return kv.name == name })
}

// has reports whether k has the key.
func (k *kind) has(name string) bool {
	for _, kv := range k.keys {
		if kv.name == name {
			return true
		}
	}
	return false
}

// unknown describes a key k does not have.
func (k *kind) unknown(name string) error {
	if len(k.keys) == 0 {
		return fmt.Errorf("unknown key %q (%s takes no keys)", name, k.name)
	}
	names := make([]string, len(k.keys))
	for i, kv := range k.keys {
		names[i] = kv.name
	}
	return fmt.Errorf("unknown key %q (keys of %s: %s)", name, k.name, strings.Join(names, ", "))
}

// setLimit reads key into the limits when it is one of lk's, and reports
// whether it was.
func (s *Spec) setLimit(lk limitKeys, key, v string) (bool, error) {
	var err error
	switch key {
	case lk.sims:
		s.Limits.Sims, err = parseCount(key, v, 0, lk.max.Sims)
	case lk.depth:
		s.Limits.Depth, err = parseCount(key, v, 1, lk.max.Depth)
	case lk.time:
		s.Limits.Time, err = parseTime(key, v, lk.max.Time)
	default:
		return false, nil
	}
	return true, err
}

// parseCount reads a whole number in lo..max.
func parseCount(key, v string, lo, max int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%s: not an integer", key, v)
	}
	if n < lo || n > max {
		return 0, fmt.Errorf("%s=%d out of range %d..%d", key, n, lo, max)
	}
	return n, nil
}

// parseTime reads a duration ("500ms", "2s") in (0, max], or whole
// milliseconds ("500").
func parseTime(key, v string, max time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if ms, err2 := strconv.Atoi(v); err2 == nil {
		d, err = time.Duration(ms)*time.Millisecond, nil
	}
	if err != nil {
		return 0, fmt.Errorf("%s=%s: not a duration (e.g. 200ms, 2s)", key, v)
	}
	if d <= 0 || d > max {
		return 0, fmt.Errorf("%s=%s out of range (0, %v]", key, v, max)
	}
	return d, nil
}

// String writes the spec back: the kind, then its keys in the order Help
// lists them (cmd last). ParseSpec(s.String()) equals s.
func (s Spec) String() string {
	k, err := findKind(s.Kind)
	if err != nil {
		return s.Kind
	}
	var parts []string
	for _, kv := range k.keys {
		if v := s.value(k, kv.name); v != "" {
			parts = append(parts, kv.name+"="+v)
		}
	}
	if i := slices.IndexFunc(parts, func(p string) bool { return strings.HasPrefix(p, cmdKey+"=") }); i >= 0 {
		parts = append(append(parts[:i:i], parts[i+1:]...), parts[i]) // cmd takes the rest: last
	}
	if len(parts) == 0 {
		return s.Kind
	}
	return s.Kind + ":" + strings.Join(parts, ",")
}

// value returns the text of key in s, "" when not given.
func (s Spec) value(k *kind, name string) string {
	switch {
	case name == k.lim.sims && s.Limits.Sims > 0:
		return strconv.Itoa(s.Limits.Sims)
	case name == k.lim.time && s.Limits.Time > 0:
		return s.Limits.Time.String()
	case name == k.lim.depth && s.Limits.Depth > 0:
		return strconv.Itoa(s.Limits.Depth)
	}
	for _, kv := range s.Options {
		if kv.Key == name {
			return kv.Value
		}
	}
	return ""
}

// MaxLimits returns the largest limits the kind's keys take (zero for a
// kind without limits or an unknown one).
func (s Spec) MaxLimits() Limits {
	k, err := findKind(s.Kind)
	if err != nil {
		return Limits{}
	}
	return k.lim.max
}

// WithLimits returns the spec with l written into its limit keys as
// Limits.Replace says; it is an error when the kind has no key for a
// limit given, e.g. sims for ab. Commands use it to turn --sims, --time
// and --depth into one spec.
func (s Spec) WithLimits(l Limits) (Spec, error) {
	out, dropped := s.Limits.Replace(l, s.MaxLimits())
	if !dropped.IsZero() {
		return Spec{}, fmt.Errorf("agent %q: kind %s takes no %s limit", s, s.Kind, strings.Join(dropped.Names(), " or "))
	}
	if err := out.check(s.MaxLimits()); err != nil {
		return Spec{}, fmt.Errorf("agent %q: %w", s, err)
	}
	s.Limits = out
	return s, nil
}

// ModelSpec is the spec of the model kind playing the .kmodel file path
// with sims simulations per move (0: the model card's).
func ModelSpec(path string, sims int) (Spec, error) {
	if strings.ContainsAny(path, ",") {
		return Spec{}, fmt.Errorf("agent: model path %s: a path in a spec may not contain a comma", path)
	}
	sp := Spec{Kind: "model", Limits: Limits{Sims: sims}, Options: []KeyValue{{"path", path}}}
	if err := sp.Limits.check(searchLimits.max); err != nil {
		return Spec{}, fmt.Errorf("agent: model: %w", err)
	}
	return sp, nil
}

// options are the non-limit keys of a spec, for the kinds' constructors,
// and its limits.
type options struct {
	vals map[string]string
	lim  Limits
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
