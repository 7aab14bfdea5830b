package bot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"kumalak/agent"
)

// Limits bounds one search. A zero field is "not given".
type Limits struct {
	Sims  int           // simulations (mcts, model, engine kinds)
	Time  time.Duration // time per move (kinds with a time or movetime key)
	Depth int           // plies (kinds with a depth key)
}

// IsZero reports whether no limit is given.
func (l Limits) IsZero() bool { return l == Limits{} }

// limitKeys are the agent-spec keys a Limits value writes.
var limitKeys = []string{"sims", "time", "movetime", "depth"}

// agentSpec is a parsed agent spec string "kind:key=value,...", kept in
// order so that String gives back what was parsed.
type agentSpec struct {
	kind string
	keys []string
	vals map[string]string
}

// parseAgentSpec splits s as agent.New does: a kind, then comma-separated
// key=value pairs (a value may hold '=' but not ',').
func parseAgentSpec(s string) (agentSpec, error) {
	kind, rest, _ := strings.Cut(s, ":")
	a := agentSpec{kind: strings.TrimSpace(kind), vals: map[string]string{}}
	if a.kind == "" {
		return a, fmt.Errorf("agent %q: empty kind", s)
	}
	if strings.TrimSpace(rest) == "" {
		return a, nil
	}
	for _, part := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return a, fmt.Errorf("agent %q: option %q is not key=value", s, part)
		}
		a.set(k, v)
	}
	return a, nil
}

// set gives key k the value v, keeping its place when already present.
func (a *agentSpec) set(k, v string) {
	if _, ok := a.vals[k]; !ok {
		a.keys = append(a.keys, k)
	}
	a.vals[k] = v
}

// del removes key k.
func (a *agentSpec) del(k string) {
	if _, ok := a.vals[k]; !ok {
		return
	}
	delete(a.vals, k)
	a.keys = slices.DeleteFunc(a.keys, func(s string) bool { return s == k })
}

// String writes the spec back in agent.New's form.
func (a agentSpec) String() string {
	if len(a.keys) == 0 {
		return a.kind
	}
	parts := make([]string, len(a.keys))
	for i, k := range a.keys {
		parts[i] = k + "=" + a.vals[k]
	}
	return a.kind + ":" + strings.Join(parts, ",")
}

// applyLimits returns spec s with the limits of l written into the keys its
// kind knows (agent.Keys); the limits given replace every sims, time and
// depth key of s, so "mcts:sims=800" with Time 1s becomes "mcts:time=1s".
// It also returns the names of the limits the kind has no key for, which
// are left out. A zero l returns s unchanged.
func applyLimits(s string, l Limits) (string, []string, error) {
	a, err := parseAgentSpec(s)
	if err != nil || l.IsZero() {
		return s, nil, err
	}
	keys := agent.Keys(a.kind)
	has := func(k string) bool { return slices.Contains(keys, k) }
	for _, k := range limitKeys {
		a.del(k)
	}
	var ignored []string
	if l.Sims > 0 {
		if has("sims") {
			a.set("sims", strconv.Itoa(l.Sims))
		} else {
			ignored = append(ignored, "sims")
		}
	}
	if l.Time > 0 {
		switch {
		case has("time"):
			a.set("time", l.Time.String())
		case has("movetime"):
			a.set("movetime", strconv.FormatInt(max(1, l.Time.Milliseconds()), 10))
		default:
			ignored = append(ignored, "time")
		}
	}
	if l.Depth > 0 {
		if has("depth") {
			a.set("depth", strconv.Itoa(l.Depth))
		} else {
			ignored = append(ignored, "depth")
		}
	}
	if has("sims") && l.Sims == 0 && l.Time > 0 {
		a.set("sims", "0") // time only: the kind's default sims would cut it short
	}
	return a.String(), ignored, nil
}

// WithLimits returns the agent spec s with the limits of l written in (see
// Limits); it is an error when the kind has no key for a limit given, e.g.
// sims for "ab". Commands use it to turn --sims, --time and --depth into
// one agent spec.
func WithLimits(s string, l Limits) (string, error) {
	out, ignored, err := applyLimits(s, l)
	if err != nil {
		return "", err
	}
	if len(ignored) > 0 {
		kind, _, _ := strings.Cut(s, ":")
		return "", fmt.Errorf("agent %q: kind %s takes no %s limit", s, kind, strings.Join(ignored, " or "))
	}
	return out, nil
}

// kindOf returns the kind of spec s.
func kindOf(s string) string {
	kind, _, _ := strings.Cut(s, ":")
	return strings.TrimSpace(kind)
}
