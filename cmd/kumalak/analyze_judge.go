package main

import (
	"kumalak/arena"
	"kumalak/bot"
	"kumalak/env"
	"kumalak/solve"
)

// exactSetup is what a tablebase adds to analyze: exact values for the
// analysis (--tablebase) and the judge of mistakes (--judge, or
// --tablebase alone).
type exactSetup struct {
	tbs   []*solve.Tablebase // to close
	exact bot.Exact
	judge *solve.Judge
	jtb   *solve.Tablebase
	extra int
}

// exactOf opens the tablebases of --tablebase and --judge for game.
func exactOf(game *env.Spec, dir string, jf *judgeFlags) (*exactSetup, error) {
	ex := &exactSetup{}
	if dir == "" && jf.dir == "" {
		return ex, nil
	}
	if game.Name != solve.Game {
		return nil, badInput("analyze", "--tablebase and --judge: tablebases are of %s, not %s", solve.Game, game.Name)
	}
	if dir != "" {
		tb, err := solve.Open(dir, -1)
		if err != nil {
			return nil, badInput("analyze", "--tablebase: %v", err)
		}
		ex.tbs = append(ex.tbs, tb)
		ex.exact = tb.Exact
		if jf.dir == "" {
			jf.dir = dir
		}
	}
	j, tb, err := jf.judge("analyze", game)
	if err != nil {
		ex.close()
		return nil, err
	}
	ex.tbs = append(ex.tbs, tb)
	ex.judge, ex.jtb, ex.extra = j, tb, jf.extra
	return ex, nil
}

// close unmaps the tablebases.
func (ex *exactSetup) close() {
	for _, tb := range ex.tbs {
		tb.Close()
	}
}

// judgeGame judges every move of game for white and black.
func (ex *exactSetup) judgeGame(game *env.GameRecord) (judgeReport, error) {
	var t [2]solve.Tally
	if err := ex.judge.Game(game.StartState(), game.Moves, &t); err != nil {
		return judgeReport{}, err
	}
	return newJudgeReport(ex.jtb, ex.extra, []arena.PlayerTally{
		{Player: "white", Summary: t[env.White].Summary()},
		{Player: "black", Summary: t[env.Black].Summary()},
	}), nil
}

// verdict returns the judge's exact move values for the analysis marks, or
// nil without a judge.
func (ex *exactSetup) verdict() bot.Verdict {
	if ex.judge == nil {
		return nil
	}
	return func(before env.State, a env.Action) (played, best int, ok bool) {
		v, ok := ex.judge.Verdict(before, a)
		return v.Value, v.BestValue, ok
	}
}
