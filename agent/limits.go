package agent

import (
	"fmt"
	"strings"
	"time"
)

// The largest limits the agents take; the spec keys, SetLimits and the
// options an engine advertises all check against these.
const (
	MaxSims  = 10_000_000 // simulations per move (mcts, model)
	MaxTime  = time.Hour  // time per move
	MaxDepth = maxDepth   // alpha-beta plies
	// maxEngineDepth bounds go depth for an external engine that declares
	// no depth option.
	maxEngineDepth = 1000
)

// The largest limits of the kinds, shared by their spec keys and their
// agents' MaxLimits.
var (
	abMaxLimits     = Limits{Time: MaxTime, Depth: MaxDepth} // ab
	searchMaxLimits = Limits{Sims: MaxSims, Time: MaxTime}   // mcts, model
	tbMaxLimits     = Limits{Time: MaxTime}                  // tb
)

// Limits bounds one search in up to three dimensions. A zero field is
// "not given".
type Limits struct {
	Sims  int           // simulations per move
	Time  time.Duration // time per move
	Depth int           // plies
}

// IsZero reports whether no limit is given.
func (l Limits) IsZero() bool { return l == Limits{} }

// Within splits l into the dimensions that max has (is nonzero in) and
// the others.
func (l Limits) Within(max Limits) (kept, dropped Limits) {
	keep := func(v, m int64) (int64, int64) {
		if m > 0 {
			return v, 0
		}
		return 0, v
	}
	s, ds := keep(int64(l.Sims), int64(max.Sims))
	t, dt := keep(int64(l.Time), int64(max.Time))
	d, dd := keep(int64(l.Depth), int64(max.Depth))
	return Limits{int(s), time.Duration(t), int(d)}, Limits{int(ds), time.Duration(dt), int(dd)}
}

// Names returns the names of the dimensions given: "sims", "time", "depth".
func (l Limits) Names() []string {
	var out []string
	for _, d := range l.dims() {
		if d.v != 0 {
			out = append(out, d.name)
		}
	}
	return out
}

// check refuses a dimension outside 0..max, naming it.
func (l Limits) check(max Limits) error {
	m := max.dims()
	for i, d := range l.dims() {
		if d.v < 0 || d.v > m[i].v {
			if m[i].v == 0 {
				return fmt.Errorf("takes no %s limit", d.name)
			}
			return fmt.Errorf("%s %s out of range 0..%s", d.name, d.text(d.v), d.text(m[i].v))
		}
	}
	return nil
}

// dim is one dimension of a Limits, for messages.
type dim struct {
	name string
	v    int64
	text func(int64) string
}

func (l Limits) dims() [3]dim {
	num := func(v int64) string { return fmt.Sprint(v) }
	dur := func(v int64) string { return time.Duration(v).String() }
	return [3]dim{{"sims", int64(l.Sims), num}, {"time", int64(l.Time), dur}, {"depth", int64(l.Depth), num}}
}

// String writes the limits given, e.g. "sims 400, time 1s".
func (l Limits) String() string {
	var parts []string
	for _, d := range l.dims() {
		if d.v != 0 {
			parts = append(parts, d.name+" "+d.text(d.v))
		}
	}
	if len(parts) == 0 {
		return "no limits"
	}
	return strings.Join(parts, ", ")
}

// Limiter is implemented by agents whose search can be bounded: ab in
// depth and time, mcts and model in sims and time, engine in what the
// external engine declares.
type Limiter interface {
	// MaxLimits returns the largest value of each dimension the agent
	// takes; a zero field is a dimension it does not have.
	MaxLimits() Limits
	// Limits returns the limits it searches with now, its defaults
	// filled in (ab: depth 6, or 60 with a time; mcts: 800 sims).
	Limits() Limits
	// SetLimits replaces them by l, which may set only dimensions of
	// MaxLimits, each within it; a dimension of the agent that l leaves
	// zero takes its default given the others, as a spec without that
	// key would. SetLimits(Limits()) always succeeds.
	SetLimits(l Limits) error
}

// Replace returns the limits an agent with limits base and largest
// limits max searches with when asked for l: the dimensions of l that max
// has replace all of base (so a time alone makes the search time-only);
// when l has none of them base stays. dropped holds the dimensions of l
// that max has not, which callers report.
func (base Limits) Replace(l, max Limits) (out, dropped Limits) {
	kept, dropped := l.Within(max)
	if kept.IsZero() {
		return base, dropped
	}
	return kept, dropped
}

// SetLimits bounds a's next searches by l as Replace says, when a is a
// Limiter, and returns the dimensions of l that a does not have (all of
// l for an agent that is no Limiter). It fails when a value is out of
// a's range.
func SetLimits(a Agent, l Limits) (dropped Limits, err error) {
	lim, ok := a.(Limiter)
	if !ok {
		return l, nil
	}
	out, dropped := lim.Limits().Replace(l, lim.MaxLimits())
	if err := lim.SetLimits(out); err != nil {
		return dropped, fmt.Errorf("agent: %w", err)
	}
	return dropped, nil
}
