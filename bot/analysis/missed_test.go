package analysis

import (
	"testing"

	"kumalak/env"
)

// TestMissed: a move other than the best is told by what the best move
// takes that it does not (a tuzdyk, then a capture), else by what it lets
// the opponent's best reply take.
func TestMissed(t *testing.T) {
	spec, err := env.Lookup("togyz")
	if err != nil {
		t.Fatal(err)
	}
	at := func(pits ...int) env.State {
		st := spec.New()
		for _, p := range pits {
			st.Apply(env.Action(p - 1))
		}
		return st
	}
	pos := func(st env.State, best int) position { return position{st: st, pv: []env.Action{env.Action(best - 1)}} }
	apply := func(st env.State, p int) env.State {
		next := env.Clone(st)
		next.Apply(env.Action(p - 1))
		return next
	}
	// From the start, 7 takes black's 6 (10 stones: "76+10"); 1 ends on
	// white's own 9 and takes nothing.
	start := at()
	if got := missed(pos(start, 7), pos(apply(start, 1), 1), 0); got == nil || *got != (Missed{Kind: "capture", Stones: 10}) {
		t.Errorf("1 instead of 7: %+v, want a capture of 10", got)
	}
	// After 1. 21 65 2. 34, black's 2 makes a tuzdyk on white's 2 (22x,
	// docs/RULES.md); black's 1 does not.
	tz := at(2, 6, 3)
	if got := missed(pos(tz, 2), pos(apply(tz, 1), 1), 0); got == nil || *got != (Missed{Kind: "special", Pit: 2}) {
		t.Errorf("1 instead of 22x: %+v, want the tuzdyk on 2", got)
	}
	// Neither move takes anything; the reply to the one played does: the
	// first such case a few plies in.
	quiet := func(st env.State) []int {
		var out []int
		for _, p := range env.LegalPits(st) {
			if c, s := effect(st, env.Action(p-1)); c == 0 && s == 0 {
				out = append(out, p)
			}
		}
		return out
	}
	found := false
	for _, prefix := range [][]int{{}, {1}, {1, 1}, {2}, {1, 2}, {3, 3}} {
		st := at(prefix...)
		q := quiet(st)
		for i := 1; i < len(q) && !found; i++ {
			after := apply(st, q[i])
			for _, r := range env.LegalPits(after) {
				if c, s := effect(after, env.Action(r-1)); c > 0 && s == 0 {
					found = true
					if got := missed(pos(st, q[0]), pos(after, r), env.Action(q[i]-1)); got == nil || *got != (Missed{Kind: "allowed-capture", Stones: c}) {
						t.Errorf("after %v, %d, then %d: %+v, want the reply's capture of %d", prefix, q[i], r, got, c)
					}
					break
				}
			}
		}
	}
	if !found {
		t.Fatal("no quiet move lets the reply capture: pick other cases")
	}
	m := MoveAnalysis{Best: "76", Missed: &Missed{Kind: "capture", Stones: 10}}
	if got := missedText(english, "togyz", m); got != "missed a capture of 10 stones; 76 was better" {
		t.Errorf("text %q", got)
	}
	m = MoveAnalysis{Best: "22x", Missed: &Missed{Kind: "special", Pit: 2}}
	if got := missedText(english, "togyz", m); got != "missed the tuzdyk on 2; 22x was better" {
		t.Errorf("text %q", got)
	}
}
