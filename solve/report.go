package solve

import (
	"errors"
	"fmt"
	"io"
	"time"

	"kumalak/env"
)

// WriteText writes r, the result of a solve of st: the position, the
// value (or the bounds proved) and the result for the mover, each move's
// value with the best marked, the search's statistics, and a note when
// positions repeated on the search path.
func (r Result) WriteText(w io.Writer, st env.State) {
	fmt.Fprintf(w, "position %s\n", st)
	who := st.ToMove().Name()
	if r.Exact() {
		fmt.Fprintf(w, "value %+d (final store difference for %s, to move)\n", r.Lo, who)
	} else {
		fmt.Fprintf(w, "value %+d..%+d (bounds proved; final store difference for %s, to move)\n", r.Lo, r.Hi, who)
	}
	if o, ok := r.Outcome(); ok {
		fmt.Fprintf(w, "result %s\n", [...]string{who + " loses", "draw", who + " wins"}[o+1])
	} else {
		fmt.Fprintf(w, "result not proved yet for %s\n", who)
	}
	for _, m := range r.Moves {
		fmt.Fprintf(w, "move %d %s%s\n", m.Action.Pit(), m.valueText(), r.bestMark(m))
	}
	fmt.Fprintf(w, "nodes %d  tablebase hits %d  table hits %d  repetitions %d  %.3fs  %.0f nodes/s\n",
		r.Nodes, r.TBHits, r.TTHits, r.Repetitions, r.Elapsed.Seconds(), float64(r.Nodes)/max(r.Elapsed.Seconds(), 1e-9))
	if r.Repetitions > 0 {
		fmt.Fprintln(w, "note: positions repeated on the search path; by the solver's convention a repetition ends the game (each player stores their own row)")
	}
}

// valueText is the move's value, "+3", or its bounds, "-2..+4".
func (m MoveValue) valueText() string {
	if !m.Exact() {
		return fmt.Sprintf("%+d..%+d", m.Lo, m.Hi)
	}
	return fmt.Sprintf("%+d", m.Lo)
}

// bestMark is "  best" for a move proved to keep the exact value.
func (r Result) bestMark(m MoveValue) string {
	if m.Exact() && r.Exact() && m.Lo == r.Lo {
		return "  best"
	}
	return ""
}

// ErrNoTablebase is wrapped by TablebaseOf for a game without tablebases.
var ErrNoTablebase = errors.New("tablebases exist for mangala and kalah with 6 houses only (kale positions can repeat; see docs/TABLEBASE.md)")

// TablebaseOf returns the kind of tablebase BuildConfig.Game builds for
// spec's game (its env.Facts.Tablebase), or ErrNoTablebase.
func TablebaseOf(spec *env.Spec) (string, error) {
	if !HasTablebases(spec) {
		return "", ErrNoTablebase
	}
	return spec.Facts.Tablebase, nil
}

// String is the level's line of a build's report: its stone count,
// entries and bytes, and the time it took or "kept" when its file was
// there already.
func (s LevelStat) String() string {
	took := "kept"
	if !s.Kept {
		took = fmt.Sprintf("%.2fs", s.Took.Seconds())
	}
	return fmt.Sprintf("level %2d  %12d entries  %12d bytes  %s", s.Stones, s.Entries, s.Bytes, took)
}

// StampedLog returns a Config.Log that writes each line to w after the
// time elapsed since t0, to the second: "1m5s  saved ...".
func StampedLog(w io.Writer, t0 time.Time) func(string) {
	return func(line string) { fmt.Fprintf(w, "%s  %s\n", time.Since(t0).Round(time.Second), line) }
}
