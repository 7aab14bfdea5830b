package main

import (
	"kumalak/bot/analysis"
	"kumalak/env"
	"kumalak/solve"
)

// exactSetup is what a tablebase adds to analyze: exact values for the
// analysis (--tablebase) and the judge of mistakes (--judge, or
// --tablebase alone).
type exactSetup struct {
	tb    *solve.Tablebase // of --tablebase, to close
	exact analysis.Exact
	judge *solve.Judge
}

// exactOf opens the tablebases of --tablebase and --judge for game.
func exactOf(game *env.Spec, dir string, jf *judgeFlags) (*exactSetup, error) {
	ex := &exactSetup{}
	if dir == "" && jf.dir == "" {
		return ex, nil
	}
	if err := solve.Probed(game); err != nil {
		return nil, badInput("analyze", "--tablebase and --judge: %v", err)
	}
	if dir != "" {
		tb, err := solve.Open(dir, -1)
		if err != nil {
			return nil, badInput("analyze", "--tablebase: %v", err)
		}
		ex.tb, ex.exact = tb, tb.Exact
		if jf.dir == "" {
			jf.dir = dir
		}
	}
	j, err := jf.judge("analyze", game)
	if err != nil {
		ex.close()
		return nil, err
	}
	ex.judge = j
	return ex, nil
}

// close unmaps the tablebases.
func (ex *exactSetup) close() {
	if ex.tb != nil {
		ex.tb.Close()
	}
	if ex.judge != nil {
		ex.judge.Close()
	}
}

// verdict returns the judge's exact move values for the analysis marks, or
// nil without a judge.
func (ex *exactSetup) verdict() analysis.Verdict {
	if ex.judge == nil {
		return nil
	}
	return func(before env.State, a env.Action) (played, best int, ok bool) {
		v, ok := ex.judge.Verdict(before, a)
		return v.Value, v.BestValue, ok
	}
}
