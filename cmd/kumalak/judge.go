package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"kumalak/agent"
	"kumalak/arena"
	"kumalak/env"
	"kumalak/solve"
)

// judgeFlags set up the judge of mistakes of arena and analyze.
type judgeFlags struct {
	dir   string
	extra int
	limit time.Duration
}

func (f *judgeFlags) add(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&f.dir, "judge", "", "mangala tablebase folder: check every move inside it (and --judge-extra stones above) for lost value")
	fl.IntVar(&f.extra, "judge-extra", 0, "also judge positions with up to this many stones more than the tablebase, by the solver")
	fl.DurationVar(&f.limit, "judge-time", 200*time.Millisecond, "the solver's time per position judged above the tablebase")
}

// judge opens the tablebase and returns the judge, or nil without --judge.
func (f *judgeFlags) judge(cmd string, spec *env.Spec) (*solve.Judge, *solve.Tablebase, error) {
	if f.dir == "" {
		return nil, nil, nil
	}
	if spec.Name != solve.Game {
		return nil, nil, badInput(cmd, "--judge: tablebases are of %s, not %s", solve.Game, spec.Name)
	}
	tb, err := solve.Open(f.dir, -1)
	if err != nil {
		return nil, nil, badInput(cmd, "--judge: %v", err)
	}
	j, err := solve.NewJudge(solve.JudgeConfig{Tablebase: tb, Extra: f.extra, Limit: f.limit})
	if err != nil {
		tb.Close()
		return nil, nil, badInput(cmd, "--judge: %v", err)
	}
	return j, tb, nil
}

// judgeLog is an arena Records writer that judges the moves of every game
// (not its opening) into a tally per agent spec, then passes the game on.
type judgeLog struct {
	inner   io.Writer // the match's logs; may be nil
	spec    *env.Spec
	j       *solve.Judge
	names   []string // the agents in order of first appearance
	tallies map[string]*solve.Tally
}

func newJudgeLog(inner io.Writer, spec *env.Spec, j *solve.Judge, names ...string) *judgeLog {
	l := &judgeLog{inner: inner, spec: spec, j: j, tallies: map[string]*solve.Tally{}}
	for _, n := range names {
		l.tally(n)
	}
	return l
}

// tally returns the tally of agent name.
func (l *judgeLog) tally(name string) *solve.Tally {
	t, ok := l.tallies[name]
	if !ok {
		t = &solve.Tally{}
		l.tallies[name] = t
		l.names = append(l.names, name)
	}
	return t
}

// Write passes JSON lines on.
func (l *judgeLog) Write(p []byte) (int, error) {
	if l.inner == nil {
		return len(p), nil
	}
	return l.inner.Write(p)
}

// LogGame judges r's moves and logs it.
func (l *judgeLog) LogGame(r *arena.Record) error {
	if err := judgeRecord(l.j, l.spec, r, l.tally(r.White), l.tally(r.Black)); err != nil {
		return err
	}
	switch w := l.inner.(type) {
	case nil:
		return nil
	case arena.GameLog:
		return w.LogGame(r)
	default:
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("judge: %w", err)
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
}

// judgeRecord judges the moves of r after its opening into the tallies of
// its white and black players.
func judgeRecord(j *solve.Judge, spec *env.Spec, r *arena.Record, white, black *solve.Tally) error {
	st, moves, err := r.Replay(spec)
	if err != nil {
		return fmt.Errorf("judge: %w", err)
	}
	var t [2]solve.Tally
	if err := j.Game(st, moves, &t); err != nil {
		return fmt.Errorf("judge: game %d: %w", r.Index+1, err)
	}
	white.Merge(&t[env.White])
	black.Merge(&t[env.Black])
	return nil
}

// judgeReport is the judge's JSON: the setting and a tally per player.
type judgeReport struct {
	Tablebase string        `json:"tablebase"`
	Stones    int           `json:"stones"`       // the tablebase's
	Extra     int           `json:"extra_stones"` // judged above it by the solver
	Players   []playerTally `json:"players"`
}

// playerTally is one player's tally with its rates.
type playerTally struct {
	Player string `json:"player"`
	solve.Tally
	Rate           float64 `json:"rate"`             // mistakes per judged choice (forced moves apart)
	LostPerMistake float64 `json:"lost_per_mistake"` // stones
}

// report returns the tallies in order of the players.
func (l *judgeLog) report(tb *solve.Tablebase, extra int) judgeReport {
	r := judgeReport{Tablebase: tb.Dir(), Stones: tb.Stones(), Extra: extra}
	for _, n := range l.names {
		t := l.tallies[n]
		r.Players = append(r.Players, playerTally{Player: n, Tally: *t, Rate: t.Rate(), LostPerMistake: t.LostPerMistake()})
	}
	return r
}

// writeText prints the report as a table and the worst mistakes.
func (r judgeReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "judge    tablebase %s (%d stones", r.Tablebase, r.Stones)
	if r.Extra > 0 {
		fmt.Fprintf(w, ", the solver up to %d", r.Stones+r.Extra)
	}
	fmt.Fprintln(w, ")")
	fmt.Fprintf(w, "  %-28s %6s %6s %6s %8s %7s %8s\n", "player", "moves", "forced", "judged", "mistakes", "rate", "lost/m")
	for _, p := range r.Players {
		fmt.Fprintf(w, "  %-28s %6d %6d %6d %8d %6.1f%% %8.2f\n", clip(p.Player, 28), p.Moves, p.Forced, p.Judged, p.Mistakes, 100*p.Rate, p.LostPerMistake)
	}
	for _, p := range r.Players {
		for _, m := range p.Worst {
			fmt.Fprintf(w, "  worst of %s: pit %d lost %d stones (best pit %d: %+d, played %+d) in %s\n",
				clip(p.Player, 28), m.Pit, m.Lost, m.Best, m.BestValue, m.Value, m.Position)
		}
	}
}

// clip shortens s to n characters.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// writeJSONFile writes v, indented, to path.
func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// judgePath is the judge's JSON file next to the match's JSON log.
func judgePath(logs *gameLogs) string {
	return strings.TrimSuffix(logs.json.Name(), ".jsonl") + "-judge.json"
}

// judging is the judge of a match, when --judge is given: the judge, its
// tablebase and the stones judged above it.
type judging struct {
	j     *solve.Judge
	tb    *solve.Tablebase
	extra int
}

// withTablebase gives the tablebase folder dir to the specs a and b where
// their kind takes one (agent.Spec.WithTablebase); a bad spec is left for
// checkAgents to report.
func withTablebase(cmd, dir, a, b string) (string, string, error) {
	if dir == "" {
		return a, b, nil
	}
	out := [2]string{a, b}
	for i, s := range out {
		sp, err := agent.ParseSpec(s)
		if err != nil {
			continue
		}
		if sp, err = sp.WithTablebase(dir); err != nil {
			return "", "", badInput(cmd, "--tablebase: %v", err)
		}
		out[i] = sp.String()
	}
	return out[0], out[1], nil
}
