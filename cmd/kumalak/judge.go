package main

import (
	"time"

	"github.com/spf13/cobra"

	"kumalak/arena"
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
	fl.StringVar(&f.dir, "judge", "", "mangala or kalah tablebase folder: check every move inside it (kalah's by the solver reading it, --judge-time each; and --judge-extra stones above) for lost value")
	fl.IntVar(&f.cfg.Extra, "judge-extra", 0, "also judge positions with up to this many stones more than the tablebase, by the solver; without --judge, positions of up to this many stones on the board (mangala, mangala-kale, kalah)")
	fl.DurationVar(&f.cfg.Limit, "judge-time", 200*time.Millisecond, "the solver's time per position judged above the tablebase (or without one)")
}

// judge returns the judge of --judge and --judge-extra (arena.OpenJudge),
// or nil without them.
func (f *judgeFlags) judge(cmd string, spec *env.Spec) (*solve.Judge, error) {
	j, err := arena.OpenJudge(spec, f.dir, f.cfg)
	if err != nil {
		return nil, badInput(cmd, "%v", err)
	}
	return j, nil
}
