package analysis

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"kumalak/arena"
	"kumalak/env"
)

// Select returns the games to analyse: the index-th of games (1 = the
// first), or all of them for 0; a plot draws one game only. Errors are
// *ValueError, naming index as --index and plot as --plot.
func Select(games []*env.GameRecord, index int, plot bool) ([]*env.GameRecord, error) {
	if index < 0 || index > len(games) {
		return nil, &ValueError{fmt.Sprintf("--index %d: the input has %d games", index, len(games))}
	}
	if index > 0 {
		games = games[index-1 : index]
	}
	if plot && len(games) != 1 {
		return nil, &ValueError{fmt.Sprintf("--plot draws one game; the input has %d (choose with --index)", len(games))}
	}
	return games, nil
}

// Report is the analyses of several games and, when a judge ran, its
// report of each: Judged[i] is of the game of Analyses[i].
type Report struct {
	Analyses []*GameAnalysis
	Judged   []arena.JudgeReport // nil without a judge
}

// AnalyzeAll analyses each game with cfg, its Game set to each in turn
// and its Exact and Verdict to t's, and when t has a judge judges every
// move of each (arena.JudgeGame).
func AnalyzeAll(ctx context.Context, games []*env.GameRecord, cfg Config, t *Tablebases) (Report, error) {
	var r Report
	cfg.Exact, cfg.Verdict = t.Exact, t.Verdict()
	for _, game := range games {
		cfg.Game = game
		an, err := Analyze(ctx, cfg)
		if err != nil {
			return r, err
		}
		r.Analyses = append(r.Analyses, an)
		if t.Judge != nil {
			rep, err := arena.JudgeGame(t.Judge, game)
			if err != nil {
				return r, err
			}
			r.Judged = append(r.Judged, rep)
		}
	}
	return r, nil
}

// WriteText writes each analysis as a table (GameAnalysis.WriteText),
// a blank line between games, each followed by its judge's table when
// judged.
func (r Report) WriteText(w io.Writer) error {
	for i, an := range r.Analyses {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := an.WriteText(w); err != nil {
			return err
		}
		if r.Judged != nil {
			r.Judged[i].WriteText(w)
		}
	}
	return nil
}

// WriteJSON writes the analyses as an indented JSON array or, when
// judged, an object holding the analyses and the judge's reports.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	var v any = r.Analyses
	if r.Judged != nil {
		v = struct {
			Analyses []*GameAnalysis     `json:"analyses"`
			Judge    []arena.JudgeReport `json:"judge"`
		}{r.Analyses, r.Judged}
	}
	return enc.Encode(v)
}
