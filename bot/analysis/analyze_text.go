package analysis

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"golang.org/x/text/language"

	"kumalak/bot/words"
	"kumalak/env"
)

// tableLine is the most moves of a line the table shows.
const tableLine = 8

// WriteText writes the analysis as a table for people: a heading, one row
// per move (its number and move, or in mangala the mover and move, the
// mover's win probability before and
// after it and the loss, the engine's values, its best move and line, the
// mark; "=" before an exact probability, "-" for none), and each player's
// counts. Without any probabilities the table has no probability columns
// and no marks, and says why.
func (g *GameAnalysis) WriteText(w io.Writer) error {
	var sb strings.Builder
	sb.WriteString(g.heading())
	tw := tabwriter.NewWriter(&sb, 0, 0, 2, ' ', 0)
	if g.Probabilities {
		fmt.Fprint(tw, "ply\tmove\twin%\tafter\tloss\tvalue\tafter\tbest\tline\tmark\n")
	} else {
		fmt.Fprint(tw, "ply\tmove\tvalue\tafter\tbest\tline\n")
	}
	for _, m := range g.Moves {
		fmt.Fprintf(tw, "%d\t%s %s\t", m.Ply, m.label(), m.Move)
		if g.Probabilities {
			loss := "-"
			if m.Before.WinProb != nil && m.After.WinProb != nil {
				loss = fmt.Sprintf("%.0f%%", 100*m.Loss)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t", percent(m.Before), percent(m.After), loss)
		}
		fmt.Fprintf(tw, "%+.2f\t%+.2f\t%s\t%s", m.Before.Value, m.After.Value, m.Best, shortLine(m.PV))
		if g.Probabilities {
			fmt.Fprintf(tw, "\t%s", markText(m.Mark))
			if m.Missed != nil {
				fmt.Fprintf(tw, ": %s", missedText(english, g.Game, m))
			}
		}
		switch {
		case m.Forced:
			fmt.Fprint(tw, " (forced)")
		case m.Exact:
			fmt.Fprintf(tw, " (exact %+d, best %+d)", m.Value, m.BestValue)
		}
		fmt.Fprint(tw, "\n")
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("analysis: table: %w", err)
	}
	sb.WriteString(g.footer())
	if _, err := io.WriteString(w, sb.String()); err != nil {
		return fmt.Errorf("analysis: write: %w", err)
	}
	return nil
}

// label is what the table writes before the move: its number as records
// write it ("3.", "3..."), else the mover ("white"), as the terminal and
// the web page's move list name mangala's moves.
func (m *MoveAnalysis) label() string {
	if m.Number != "" {
		return m.Number
	}
	return m.Mover
}

// heading names the game, its players and the judge.
func (g *GameAnalysis) heading() string {
	white, black := orUnknown(g.Tags["White"]), orUnknown(g.Tags["Black"])
	s := fmt.Sprintf("%s: %s (white) vs %s (black), %s; %d moves judged by %s\n", g.Game, white, black, g.Result, len(g.Moves), g.Agent)
	if !g.Probabilities {
		s += "no win probabilities: this agent's value is not one (alpha-beta's score has no calibration for this game), so no marks;\n" +
			"analyse with --model or an mcts agent for them\n"
	} else {
		t := g.Thresholds
		s += fmt.Sprintf("win%%: the mover's chance before the move; loss: what the move lost; marks at %.0f/%.0f/%.0f points\n",
			100*t.Inaccuracy, 100*t.Mistake, 100*t.Blunder)
	}
	return s
}

// footer counts each player's marks.
func (g *GameAnalysis) footer() string {
	if !g.Probabilities {
		return ""
	}
	var sb strings.Builder
	for _, s := range g.Summary {
		fmt.Fprintf(&sb, "%s: %d moves, %d inaccuracies, %d mistakes, %d blunders, average loss %.1f%%\n",
			s.Player, s.Moves, s.Inaccuracy, s.Mistakes, s.Blunders, 100*s.AverageLoss)
	}
	return sb.String()
}

func orUnknown(s string) string {
	if s == "" || s == "?" {
		return "?"
	}
	return s
}

// percent writes e's win probability, "=" marking an exact one.
func percent(e Eval) string {
	if e.WinProb == nil {
		return "-"
	}
	s := fmt.Sprintf("%.0f%%", 100**e.WinProb)
	if e.Exact {
		s = "=" + s
	}
	return s
}

// markText writes a mark with its symbol: "blunder ??".
func markText(m Mark) string {
	if m == Good {
		return ""
	}
	return m.String() + " " + m.Symbol()
}

// shortLine cuts a line to tableLine moves.
func shortLine(pv string) string {
	f := strings.Fields(pv)
	if len(f) <= tableLine {
		return pv
	}
	return strings.Join(f[:tableLine], " ") + " ..."
}

// english writes the analysis's words.
var english = words.New(language.English)

// missedText says what a move missed, in p's language: "missed a capture
// of 10; 45 was better".
func missedText(p *words.Printer, game string, m MoveAnalysis) string {
	special := ""
	if spec, err := env.Lookup(game); err == nil {
		special = p.Words(spec.New()).Special
	}
	var what string
	switch w := m.Missed; w.Kind {
	case "special":
		what = p.T("missed.special", special, w.Pit)
	case "capture":
		what = p.T("missed.capture", w.Stones)
	case "allowed-special":
		what = p.T("allowed.special", special, w.Pit)
	default:
		what = p.T("allowed.capture", w.Stones)
	}
	return what + "; " + p.T("missed.best", m.Best)
}
