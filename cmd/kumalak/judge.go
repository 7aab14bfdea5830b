package main

import (
	"time"

	"github.com/spf13/cobra"

	"kumalak/env"
	"kumalak/solve"
)

// judgeFlags set up the judge of mistakes of arena and analyze.
type judgeFlags struct {
	dir string
	cfg solve.JudgeConfig // Extra, Limit
}

func (f *judgeFlags) add(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&f.dir, "judge", "", "mangala tablebase folder: check every move inside it (and --judge-extra stones above) for lost value")
	fl.IntVar(&f.cfg.Extra, "judge-extra", 0, "also judge positions with up to this many stones more than the tablebase, by the solver")
	fl.DurationVar(&f.cfg.Limit, "judge-time", 200*time.Millisecond, "the solver's time per position judged above the tablebase")
}

// judge returns the judge of --judge (solve.OpenJudge), or nil without it.
func (f *judgeFlags) judge(cmd string, spec *env.Spec) (*solve.Judge, error) {
	if f.dir == "" {
		return nil, nil
	}
	j, err := solve.OpenJudge(spec.Name, f.dir, f.cfg)
	if err != nil {
		return nil, badInput(cmd, "--judge: %v", err)
	}
	return j, nil
}
