package arena

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// String is the progress line of a match: its players and W/D/L so far,
// with the SPRT's log-likelihood ratio when testing.
func (p Progress) String() string {
	s := fmt.Sprintf("%s vs %s +%d =%d -%d", p.A, p.B, p.Counts.W, p.Counts.D, p.Counts.L)
	if p.LLR != 0 {
		s += fmt.Sprintf(" llr %.2f", p.LLR)
	}
	return s
}

// Forfeits describes the games the players lost by failing (a crash, a
// hang, an illegal move), "" when there were none.
func (r Result) Forfeits() string {
	if r.ForfeitsA == 0 && r.ForfeitsB == 0 {
		return ""
	}
	return fmt.Sprintf("%s %d, %s %d", r.A, r.ForfeitsA, r.B, r.ForfeitsB)
}

// WriteResult writes the figures of r, a result of m: W/D/L, score, Elo
// with its interval, LOS, forfeits and the SPRT's verdict.
func (m *Match) WriteResult(w io.Writer, r Result) {
	n := r.Counts.Games()
	fmt.Fprintf(w, "%s vs %s, %s, %d games\n", r.A, r.B, m.Spec.Name, n)
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "W/D/L    %d/%d/%d (A as white %d/%d/%d)\n", r.Counts.W, r.Counts.D, r.Counts.L, r.AWhite.W, r.AWhite.D, r.AWhite.L)
	fmt.Fprintf(w, "score    %.1f%%\n", 100*r.Counts.Score())
	fmt.Fprintf(w, "elo      %s (95%%, %s)\n", r.Elo, r.Model)
	fmt.Fprintf(w, "LOS      %.1f%%\n", 100*r.LOS)
	if f := r.Forfeits(); f != "" {
		fmt.Fprintf(w, "forfeits %s\n", f)
	}
	if s := r.SPRT; s != nil {
		lo, hi := s.Bounds()
		fmt.Fprintf(w, "sprt     elo0 %g elo1 %g: LLR %.2f (%.2f, %.2f), %s", s.Elo0, s.Elo1, r.LLR, lo, hi, r.Verdict)
		if r.Stopped {
			fmt.Fprintf(w, " after %d of %d games", n, m.Config.Games)
		}
		fmt.Fprintln(w)
	}
}

// WriteTable writes r, a result of t: the Elo table, the anchor and each
// pairing's W/D/L.
func (t *Tournament) WriteTable(w io.Writer, r TournamentResult) {
	width := len("player")
	for _, p := range t.Players {
		width = max(width, len(p))
	}
	fmt.Fprintf(w, "%s, %d games per pairing\n", t.Spec.Name, t.Config.Games)
	fmt.Fprintf(w, "%4s  %-*s  %8s  %7s  %6s  %6s\n", "rank", width, "player", "elo", "±95%", "games", "score")
	for i, s := range r.Standings {
		fmt.Fprintf(w, "%4d  %-*s  %8.1f  %7.1f  %6d  %5.1f%%\n", i+1, width, s.Player, s.Elo, s.Err, s.Games, 100*s.Score)
	}
	fmt.Fprintf(w, "anchor %s = 0; prior %g virtual draws per pairing\n", r.Anchor, t.Prior)
	for _, m := range r.Matches {
		fmt.Fprintf(w, "  %s vs %s: %d/%d/%d, elo %s", m.A, m.B, m.Counts.W, m.Counts.D, m.Counts.L, m.Elo)
		if f := m.Forfeits(); f != "" {
			fmt.Fprintf(w, ", forfeits %s", f)
		}
		fmt.Fprintln(w)
	}
}

// MaxModelSims is the largest simulation count ModelPlayers takes.
const MaxModelSims = 10000000

// ModelPlayers returns a tournament's players: players, then a model
// player (model:path=FILE, at sims simulations when sims > 0) for each
// of the model files, then the anchor when it is not among them yet
// (a ladder anchored on a player of its own).
func ModelPlayers(players, models []string, anchor string, sims int) ([]string, error) {
	if sims < 0 || sims > MaxModelSims {
		return nil, invalid("the models' sims %d out of range 0..%d", sims, MaxModelSims)
	}
	out := slices.Clone(players)
	for _, m := range models {
		if m == "" || strings.Contains(m, ",") {
			return nil, invalid("model file name %q: empty or with a comma", m)
		}
		p := "model:path=" + m
		if sims > 0 {
			p += fmt.Sprintf(",sims=%d", sims)
		}
		out = append(out, p)
	}
	if anchor != "" && !slices.Contains(out, anchor) {
		out = append(out, anchor)
	}
	return out, nil
}

// WriteText writes the report as a table, a row per player, and each
// player's worst mistakes.
func (r JudgeReport) WriteText(w io.Writer) {
	switch {
	case r.Tablebase == "":
		fmt.Fprintf(w, "judge    solver, positions of up to %d stones, %s each\n", r.Extra, r.Time)
	case r.Extra > 0:
		fmt.Fprintf(w, "judge    tablebase %s (%d stones, the solver up to %d)\n", r.Tablebase, r.Stones, r.Stones+r.Extra)
	default:
		fmt.Fprintf(w, "judge    tablebase %s (%d stones)\n", r.Tablebase, r.Stones)
	}
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

// clip shortens s to n bytes, the last an ellipsis.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// WriteJudge writes r, indented JSON, to the logs' JudgePath.
func (f *LogFiles) WriteJudge(r JudgeReport) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("arena: judge report: %w", err)
	}
	if err := os.WriteFile(f.JudgePath(), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return nil
}
