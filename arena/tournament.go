package arena

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"

	"kumalak/env"
	"kumalak/rating"
)

// Tournament is a round robin: every two players play a match of
// Config.Games paired games, all pairings on the same openings (with
// Reach, only the players at most Reach apart in Players). Config.SPRT is
// ignored.
type Tournament struct {
	Spec    *env.Spec
	Players []string // agent specs, at least two, all different
	Config  Config
	// Prior is the number of virtual draws added to every pairing before
	// the rating fit, so that a player who won every game still gets a
	// finite rating; 0 fits the games alone.
	Prior float64

	// Anchor is the player rated 0, one of Players; "" anchors on random
	// when it plays, else on the first player.
	Anchor string
	// Reach, when not 0, pairs only the players at most Reach apart in
	// Players: a ladder. Listed by expected strength, each player then
	// meets those nearest it, whose games tell the most about its rating
	// (a near-even score), and the pairings grow with the players, not
	// their square. 0 pairs every two players.
	Reach    int
	NewAgent NewAgentFunc   // builds the agents; nil = agent.New
	Progress func(Progress) // called after every game; Done and Total count the whole tournament
	Records  io.Writer      // receives one JSON line per game; may be nil
	Notation Notation       // writes Record.Notation; nil = the game's own (Spec.FormatMoves)
	// Done are games of an earlier run of this tournament (ReadLog of its
	// log): each pairing's match counts and skips its own (Match.Done); a
	// game of no pairing is refused.
	Done []Record
}

// Standing is one player's line of the table.
type Standing struct {
	Player string
	Elo    float64 // relative to the anchor
	Err    float64 // half-width of the 95% interval of rating.Elo (0 for the anchor)
	Games  int
	Score  float64 // points per game
}

// TournamentResult is the table, best first, and every match played.
type TournamentResult struct {
	Standings []Standing
	Anchor    string // the player rated 0: Tournament.Anchor, or "random" when it played, else the first
	Matches   []Result
}

// Run plays every pairing and rates the players. When ctx ends or a match
// fails, it returns the error and the matches played so far, unrated.
func (t *Tournament) Run(ctx context.Context) (TournamentResult, error) {
	var out TournamentResult
	if err := t.Validate(); err != nil {
		return out, err
	}
	c := t.Config
	c.SPRT = nil
	n := len(t.Players)
	total, done := c.Games*t.Pairings(), 0
	byPairing, err := t.donePairings()
	if err != nil {
		return out, err
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n && t.paired(i, j); j++ {
			m := &Match{Spec: t.Spec, A: t.Players[i], B: t.Players[j], Config: c,
				NewAgent: t.NewAgent, Progress: t.Progress, Records: t.Records, Notation: t.Notation,
				Done: byPairing[[2]string{t.Players[i], t.Players[j]}]}
			res := Result{A: m.A, B: m.B}
			start, openings, err := m.prepare(c)
			if err == nil {
				err = m.play(ctx, start, openings, &res, done, total)
			}
			out.Matches = append(out.Matches, res)
			if err != nil {
				return out, err
			}
			done += c.Games
		}
	}
	out.Standings, out.Anchor = t.rate(out.Matches)
	return out, nil
}

// Pairings returns the number of matches Run plays.
func (t *Tournament) Pairings() int {
	n := 0
	for i := range t.Players {
		for j := i + 1; j < len(t.Players) && t.paired(i, j); j++ {
			n++
		}
	}
	return n
}

// paired reports whether players i < j meet.
func (t *Tournament) paired(i, j int) bool { return t.Reach == 0 || j-i <= t.Reach }

// donePairings sorts the games of t.Done by pairing: the players in the
// order of Players.
func (t *Tournament) donePairings() (map[[2]string][]Record, error) {
	order := map[string]int{}
	for i, p := range t.Players {
		order[p] = i
	}
	out := map[[2]string][]Record{}
	for _, r := range t.Done {
		a, b := r.White, r.Black
		i, okA := order[a]
		j, okB := order[b]
		if !okA || !okB || a == b {
			return nil, &ResumeError{Index: r.Index, Reason: fmt.Sprintf("White %q and Black %q are not a pairing of this tournament's players", a, b)}
		}
		if i > j {
			a, b, i, j = b, a, j, i
		}
		if !t.paired(i, j) {
			return nil, &ResumeError{Index: r.Index, Reason: fmt.Sprintf("%q and %q are %d apart among the players, more than the reach %d", a, b, j-i, t.Reach)}
		}
		out[[2]string{a, b}] = append(out[[2]string{a, b}], r)
	}
	return out, nil
}

// Validate checks the players (at least two, none twice), the anchor, the
// prior and the config.
func (t *Tournament) Validate() error {
	if len(t.Players) < 2 {
		return invalid("a tournament needs at least two players, got %d", len(t.Players))
	}
	seen := map[string]bool{}
	for _, p := range t.Players {
		if seen[p] {
			return invalid("player %q given twice", p)
		}
		seen[p] = true
	}
	if t.Anchor != "" && !seen[t.Anchor] {
		return invalid("anchor %q is not a player", t.Anchor)
	}
	if t.Reach < 0 {
		return invalid("reach %d: want 0 (every pairing) or more", t.Reach)
	}
	if !(t.Prior >= 0 && t.Prior <= 1000) {
		return invalid("prior %g out of range 0..1000", t.Prior)
	}
	return t.Config.Validate()
}

// rate fits the ratings of the matches and returns the table, best first,
// and the anchor.
func (t *Tournament) rate(matches []Result) ([]Standing, string) {
	n := len(t.Players)
	index := map[string]int{}
	for i, p := range t.Players {
		index[p] = i
	}
	points, games := square(n), square(n)
	for _, m := range matches {
		i, j := index[m.A], index[m.B]
		s := float64(m.Counts.W) + float64(m.Counts.D)/2
		g := float64(m.Counts.Games())
		points[i][j] += s
		points[j][i] += g - s
		games[i][j] += g
		games[j][i] += g
	}
	anchor := 0
	if a, ok := index[cmp.Or(t.Anchor, "random")]; ok {
		anchor = a
	}
	elo, errs := BradleyTerry(points, games, anchor, t.Prior)
	table := make([]Standing, n)
	for i, p := range t.Players {
		table[i] = Standing{Player: p, Elo: elo[i], Err: errs[i]}
		for j := 0; j < n; j++ {
			table[i].Games += int(games[i][j])
			table[i].Score += points[i][j]
		}
		if table[i].Games > 0 {
			table[i].Score /= float64(table[i].Games)
		}
	}
	sort.SliceStable(table, func(a, b int) bool { return table[a].Elo > table[b].Elo })
	return table, t.Players[anchor]
}

func square(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}

// BradleyTerry fits logistic Elo ratings to the results of a round robin by
// maximum likelihood: points[i][j] is what i scored against j (a draw
// counting 1/2) in games[i][j] games. prior virtual draws are added to
// every pair that played. Ratings are relative to player anchor (rated 0);
// errs are the half-widths of their 95% intervals, from the inverse Fisher
// information with the anchor fixed. A player with no games, or with every
// point won or lost and no prior, gets an infinite or undefined rating.
func BradleyTerry(points, games [][]float64, anchor int, prior float64) (elo, errs []float64) {
	n := len(points)
	w, g := square(n), square(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j && games[i][j] > 0 {
				w[i][j] = points[i][j] + prior/2
				g[i][j] = games[i][j] + prior
			}
		}
	}
	gamma := fitGamma(w, g)
	elo = make([]float64, n)
	for i := range elo {
		elo[i] = 400 * math.Log10(gamma[i]/gamma[anchor])
	}
	return elo, intervals(elo, g, anchor)
}

// fitGamma runs the minorization-maximization iteration of Hunter (2004):
// gamma_i = W_i / sum_j g_ij / (gamma_i + gamma_j), normalised each round.
func fitGamma(w, g [][]float64) []float64 {
	n := len(w)
	gamma := make([]float64, n)
	for i := range gamma {
		gamma[i] = 1
	}
	next := make([]float64, n)
	for iter := 0; iter < 100000; iter++ {
		change, logSum := 0.0, 0.0
		for i := 0; i < n; i++ {
			wins, den := 0.0, 0.0
			for j := 0; j < n; j++ {
				if g[i][j] > 0 {
					wins += w[i][j]
					den += g[i][j] / (gamma[i] + gamma[j])
				}
			}
			next[i] = gamma[i]
			if den > 0 {
				next[i] = wins / den
			}
			logSum += math.Log(next[i])
		}
		scale := math.Exp(-logSum / float64(n))
		for i := range gamma {
			v := next[i] * scale
			change = math.Max(change, math.Abs(math.Log(v/gamma[i])))
			gamma[i] = v
		}
		if change < 1e-12 || math.IsNaN(change) {
			break
		}
	}
	return gamma
}

// intervals returns 1.96 standard errors of each rating with the anchor's
// fixed: the diagonal of the inverse of the Fisher information in Elo units.
func intervals(elo []float64, g [][]float64, anchor int) []float64 {
	n := len(elo)
	c := math.Ln10 / 400
	var free []int
	for i := 0; i < n; i++ {
		if i != anchor {
			free = append(free, i)
		}
	}
	info := square(len(free))
	for a, i := range free {
		for j := 0; j < n; j++ {
			if j == i || g[i][j] == 0 {
				continue
			}
			p := rating.ScoreFromElo(elo[i] - elo[j])
			f := c * c * g[i][j] * p * (1 - p)
			info[a][a] += f
			for b, k := range free {
				if k == j {
					info[a][b] -= f
				}
			}
		}
	}
	errs := make([]float64, n)
	inv, err := invert(info)
	for a, i := range free {
		errs[i] = math.Inf(1)
		if err == nil && inv[a][a] >= 0 {
			errs[i] = rating.Z95 * math.Sqrt(inv[a][a])
		}
	}
	return errs
}

// invert returns the inverse of m by Gauss-Jordan elimination with partial
// pivoting, or an error when m is singular.
func invert(m [][]float64) ([][]float64, error) {
	n := len(m)
	a := square(n)
	inv := square(n)
	for i := range m {
		copy(a[i], m[i])
		inv[i][i] = 1
	}
	for col := 0; col < n; col++ {
		p := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[p][col]) {
				p = r
			}
		}
		if !(math.Abs(a[p][col]) > 1e-300) {
			return nil, errors.New("arena: singular information matrix")
		}
		a[col], a[p] = a[p], a[col]
		inv[col], inv[p] = inv[p], inv[col]
		d := a[col][col]
		for k := 0; k < n; k++ {
			a[col][k] /= d
			inv[col][k] /= d
		}
		for r := 0; r < n; r++ {
			if r == col || a[r][col] == 0 {
				continue
			}
			f := a[r][col]
			for k := 0; k < n; k++ {
				a[r][k] -= f * a[col][k]
				inv[r][k] -= f * inv[col][k]
			}
		}
	}
	return inv, nil
}
