package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

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

// judge returns the judge of --judge (solve.OpenJudge), or nil without it.
func (f *judgeFlags) judge(cmd string, spec *env.Spec) (*solve.Judge, error) {
	if f.dir == "" {
		return nil, nil
	}
	j, err := solve.OpenJudge(spec.Name, f.dir, solve.JudgeConfig{Extra: f.extra, Limit: f.limit})
	if err != nil {
		return nil, badInput(cmd, "--judge: %v", err)
	}
	return j, nil
}

// writeJudge prints the report as a table and the worst mistakes.
func writeJudge(w io.Writer, r arena.JudgeReport) {
	fmt.Fprintf(w, "judge    tablebase %s (%d stones", r.Tablebase, r.Stones)
	if r.Extra > 0 {
		fmt.Fprintf(w, ", the solver up to %d", r.Stones+r.Extra)
	}
	fmt.Fprintln(w, ")")
	fmt.Fprintf(w, "  %-28s %6s %6s %6s %8s %7s %8s %6s %7s\n", "player", "moves", "forced", "judged", "mistakes", "rate", "lost/m", "turned", "rate")
	for _, p := range r.Players {
		fmt.Fprintf(w, "  %-28s %6d %6d %6d %8d %6.1f%% %8.2f %6d %6.1f%%\n", clip(p.Player, 28), p.Moves, p.Forced, p.Judged, p.Mistakes, 100*p.Rate, p.LostPerMistake, p.Turned, 100*p.TurnedRate)
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
