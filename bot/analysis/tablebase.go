package analysis

import (
	"fmt"

	"kumalak/arena"
	"kumalak/env"
	"kumalak/solve"
)

// Tablebases is what a tablebase adds to an analysis: the exact values of
// the positions it holds (Config.Exact) and the judge of mistakes (Judge;
// Config.Verdict). The zero value adds nothing.
type Tablebases struct {
	tb    *solve.Tablebase
	Exact Exact        // nil without a tablebase for values
	Judge *solve.Judge // nil without a judge
}

// OpenTablebases opens, for game, the tablebase at dir for exact values
// (classic mangala's; kalah's gives its values through the judge's
// solver) and the judge of mistakes at judgeDir (dir when judgeDir is ""; without
// either, the solver alone when jc.Extra > 0: arena.OpenJudge); with
// nothing asked it opens nothing, and so for dir auto or off (the bot's
// search takes auto: solve.TablebaseDir). Errors are *ValueError, naming dir as
// --tablebase, judgeDir as --judge and jc.Extra as --judge-extra.
func OpenTablebases(game *env.Spec, dir, judgeDir string, jc solve.JudgeConfig) (*Tablebases, error) {
	t := &Tablebases{}
	if _, auto, _ := solve.AutoSize(dir); auto || solve.IsOff(dir) {
		dir = "" // the front ends' default: the bot's search has it, the report's tables stay as asked
	}
	if dir != "" || judgeDir != "" {
		if err := solve.NoTablebases(game); err != nil {
			return nil, &ValueError{fmt.Sprintf("--tablebase and --judge: %v", err)}
		}
	}
	if dir != "" && judgeDir == "" {
		judgeDir = dir
	}
	if dir != "" && solve.Probed(game) == nil { // a kalah tablebase gives no values but the solver's, through the judge
		tb, err := solve.Open(dir, -1)
		if err != nil {
			return nil, &ValueError{fmt.Sprintf("--tablebase: %v", err)}
		}
		t.tb, t.Exact = tb, tb.Exact
	}
	j, err := arena.OpenJudge(game, judgeDir, jc)
	if err != nil {
		t.Close()
		return nil, &ValueError{err.Error()}
	}
	t.Judge = j
	return t, nil
}

// Close unmaps the tablebases.
func (t *Tablebases) Close() {
	if t.tb != nil {
		t.tb.Close()
	}
	if t.Judge != nil {
		t.Judge.Close()
	}
}

// Verdict returns the judge's exact move values for the marks, or nil
// without a judge.
func (t *Tablebases) Verdict() Verdict {
	if t.Judge == nil {
		return nil
	}
	return func(before env.State, a env.Action) (played, best int, ok bool) {
		v, ok := t.Judge.Verdict(before, a)
		return v.Value, v.BestValue, ok
	}
}
