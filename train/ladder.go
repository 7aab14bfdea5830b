package train

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"time"

	"kumalak/net"
	"kumalak/rating"
)

// The ladder: anchors above the fixed baselines. Once the network rates
// eval.ladder_step above every anchor, the evaluated network is frozen as
// a rung (a copy of its model under ladder/, playing at the evaluation's
// simulations), rated once against the anchors nearest it, and kept with
// its rating in anchors.json. Each later evaluation plays the top rungs
// too, so the rating keeps opponents near its own strength, where a game
// tells the most (the Fisher weight p(1-p) is largest at an even score),
// however far above the baselines the network climbs.

// Rung is a network of the run frozen as an anchor: a player of fixed
// strength, rated once on the baselines' scale.
type Rung struct {
	Name       string  `json:"name"`        // its player name: iter-NNNN, the network's iteration
	Iteration  int     `json:"iteration"`   // the network's iteration
	Frozen     int     `json:"frozen"`      // the iteration whose evaluation froze it
	ElapsedSec float64 `json:"elapsed_sec"` // the run's training time then
	File       string  `json:"file"`        // its model, relative to the run folder
	SHA256     string  `json:"sha256"`      // of File: a rating belongs to one network
	Sims       int     `json:"sims"`        // simulations per move it plays at
	Elo        float64 `json:"elo"`
	Err        float64 `json:"err"` // half-width of the 95% interval
	// Games are the games that rated it, by opponent, from its view.
	Games map[string]rating.Match `json:"games"`
	// Loadings are its error's parts by independent source (rateAgainst):
	// its own fit under its name, and its opponents' errors as they pass
	// into its rating.
	Loadings loadings `json:"loadings"`
}

// ladderFile is anchors.json: the baselines' ratings and the ladder,
// whose rungs are rated in Anchors.Ratings and Errors too.
type ladderFile struct {
	net.Anchors
	Ladder []Rung `json:"ladder,omitempty"`
}

// rungName is the player name of the rung of iteration it's network.
func rungName(it int) string { return fmt.Sprintf("iter-%04d", it) }

// rung returns the ladder's rung named name, nil when there is none.
func (r *Run) rung(name string) *Rung {
	for i := range r.rungs {
		if r.rungs[i].Name == name {
			return &r.rungs[i]
		}
	}
	return nil
}

// saveAnchors writes the anchors and the ladder, atomically.
func (r *Run) saveAnchors() error {
	b, err := json.MarshalIndent(ladderFile{Anchors: *r.anch, Ladder: r.rungs}, "", "  ")
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return writeFile(r.dir.Anchors(), append(b, '\n'))
}

// checkLadder checks that every rung's model is there, unchanged.
func checkLadder(d Dir, rungs []Rung) error {
	for _, rg := range rungs {
		if _, err := rungModel(d, rg); err != nil {
			return err
		}
	}
	return nil
}

// rungModel reads rung rg's model and checks it against its checksum.
func rungModel(d Dir, rg Rung) ([]byte, error) {
	b, err := os.ReadFile(d.file(rg.File))
	if err != nil {
		return nil, fmt.Errorf("train: ladder rung %s: %w", rg.Name, err)
	}
	if sum := fileSum(b); sum != rg.SHA256 {
		return nil, fmt.Errorf("train: ladder rung %s: %s has SHA-256 %s, anchors.json rated %s", rg.Name, rg.File, sum, rg.SHA256)
	}
	return b, nil
}

func fileSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// pruneLadder drops the rungs that an iteration after the checkpoint froze
// (a run killed after freezing one but before its checkpoint), as the
// rest of that iteration's output is dropped.
func (r *Run) pruneLadder() error {
	f, err := loadAnchors(r.dir.Anchors())
	if err != nil || f == nil {
		return err
	}
	keep := f.Ladder[:0:0]
	for _, rg := range f.Ladder {
		if rg.Frozen <= r.state.Iteration {
			keep = append(keep, rg)
			continue
		}
		delete(f.Ratings, rg.Name)
		delete(f.Errors, rg.Name)
		if err := removeIfExists(r.dir.file(rg.File)); err != nil {
			return fmt.Errorf("train: resume: %w", err)
		}
	}
	if len(keep) == len(f.Ladder) {
		return nil
	}
	r.anch, r.rungs = &f.Anchors, keep
	err = r.saveAnchors()
	r.anch, r.rungs = nil, nil // anchors() reads them again, checked
	return err
}

// topRungs returns the eval.ladder_play highest-rated rungs, highest first.
func (r *Run) topRungs() []Rung {
	top := slices.Clone(r.rungs)
	slices.SortStableFunc(top, func(a, b Rung) int { return cmp.Compare(b.Elo, a.Elo) })
	return top[:min(len(top), r.cfg.Eval.LadderPlay)]
}

// addRung makes the rung named name a network player of nets (at its own
// simulations, see match), when it is not one already.
func (r *Run) addRung(name string, nets map[string]*net.Batcher) error {
	rg := r.rung(name)
	if rg == nil || nets[name] != nil {
		return nil
	}
	b, err := rungModel(r.dir, *rg)
	if err != nil {
		return err
	}
	m, err := net.Unmarshal(b)
	if err == nil {
		err = m.Meta.Fits(r.spec.Name, r.spec.ObsVersion)
	}
	if err != nil {
		return fmt.Errorf("train: ladder rung %s: %s: %w", name, rg.File, err)
	}
	nets[name] = net.NewBatcher(m.Params, r.evalBatcher())
	return nil
}

// rate rates the evaluated network (player, model m) on the anchors'
// scale from its baseline games and games against the top rungs, which it
// plays now (games each). Unless the evaluation is the run's final one, a
// network that rates eval.ladder_step above every anchor is then frozen
// as a new rung (climb). The iteration began at t0.
func (r *Run) rate(ctx context.Context, it int, player string, m *net.Model, games int, final bool, nets map[string]*net.Batcher, em *EvalMetrics, t0 time.Time) error {
	a, err := r.anchors(ctx)
	if err != nil {
		return err
	}
	results := map[string]rating.Match{}
	for k, v := range em.Baseline {
		results[k] = v
	}
	for _, rg := range r.topRungs() {
		if err := r.addRung(rg.Name, nets); err != nil {
			return err
		}
		res, err := r.match(ctx, pairing{it: it, kind: LadderGames, a: player, b: rg.Name, games: games}, nets)
		if err != nil {
			return err
		}
		if em.Ladder == nil {
			em.Ladder = map[string]rating.Match{}
		}
		em.Ladder[rg.Name] = matchInfo(res)
		results[rg.Name] = matchInfo(res)
	}
	em.Rating, _, _ = rateAgainst(a, r.rungs, results)
	if final || em.Rating == nil || !r.climbs(a, em.Rating.Elo) || r.rung(rungName(m.Meta.Iteration)) != nil {
		return nil
	}
	return r.climb(ctx, it, player, m, nets, results, em, t0)
}

// climbs reports whether a network rated elo becomes a rung: the ladder
// has room and elo is eval.ladder_step above every anchor.
func (r *Run) climbs(a *net.Anchors, elo float64) bool {
	ec := r.cfg.Eval
	if len(r.rungs) >= ec.LadderRungs {
		return false
	}
	top := math.Inf(-1)
	for _, v := range a.Ratings {
		top = max(top, v)
	}
	return elo >= top+ec.LadderStep
}

// climb freezes the evaluated network (player, model m) as a rung: it
// saves its model under ladder/, plays eval.ladder_games against each of
// the eval.ladder_opponents anchors rated nearest it and the anchor rated
// 0, rates it from those games and the evaluation's (results), and adds
// it to the anchors. The anchor rated 0 has no error: a rung rated only
// against the rungs below it would inherit their errors, which would add
// up along the ladder.
func (r *Run) climb(ctx context.Context, it int, player string, m *net.Model, nets map[string]*net.Batcher, results map[string]rating.Match, em *EvalMetrics, t0 time.Time) error {
	ec, a := r.cfg.Eval, r.anch
	name := rungName(m.Meta.Iteration)
	opponents := rungOpponents(a, em.Rating.Elo, ec.LadderOpponents)
	games := map[string]rating.Match{}
	for k, v := range results {
		games[k] = v
	}
	for _, opp := range opponents {
		if err := r.addRung(opp, nets); err != nil {
			return err
		}
		res, err := r.match(ctx, pairing{it: it, kind: LadderGames, a: player, b: opp, games: ec.LadderGames, seed: r.seed(it, 4)}, nets)
		if err != nil {
			return err
		}
		games[opp] = addMatches(games[opp], matchInfo(res))
	}
	rating, load, fit := rateAgainst(a, r.rungs, games)
	if rating == nil {
		return nil
	}
	file := ladderDir + "/" + name + ".kmodel" // relative: the run folder may move
	b, err := net.Marshal(m)
	if err != nil {
		return fmt.Errorf("train: ladder rung %s: %w", name, err)
	}
	if err := os.MkdirAll(r.dir.Ladder(), 0o755); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := writeFile(r.dir.file(file), b); err != nil {
		return err
	}
	load[name] = fit
	rg := Rung{Name: name, Iteration: m.Meta.Iteration, Frozen: it, ElapsedSec: r.state.ElapsedSec + r.opt.Now().Sub(t0).Seconds(),
		File: file, SHA256: fileSum(b), Sims: ec.Sims, Elo: rating.Elo, Err: rating.Err, Games: clampMatches(games), Loadings: load}
	a.Ratings[name], a.Errors[name] = rg.Elo, rg.Err
	r.rungs = append(r.rungs, rg)
	if err := r.saveAnchors(); err != nil {
		return err
	}
	em.Rating, em.Rung = rating, name
	fmt.Fprintf(r.log, "ladder: %s frozen as rung %d, rated %s ± %.0f from %d games\n", name, len(r.rungs), signed(rg.Elo), rg.Err, gamesOf(games))
	return nil
}

// clampMatches returns ms with infinite Elo bounds, which JSON can't
// hold, replaced by ±9999 (sanitize).
func clampMatches(ms map[string]rating.Match) map[string]rating.Match {
	if len(ms) == 0 {
		return ms
	}
	out := make(map[string]rating.Match, len(ms))
	for k, x := range ms {
		x.Elo, x.EloLo, x.EloHi = rating.ClampElo(x.Elo), rating.ClampElo(x.EloLo), rating.ClampElo(x.EloHi)
		out[k] = x
	}
	return out
}

// rungOpponents returns the anchors that rate a new rung rated elo: the n
// rated nearest it, and the anchor rated 0 (error-free: it keeps the
// rungs' errors from adding up along the ladder).
func rungOpponents(a *net.Anchors, elo float64, n int) []string {
	opponents := make([]string, 0, len(a.Ratings))
	for name := range a.Ratings {
		opponents = append(opponents, name)
	}
	slices.SortFunc(opponents, func(x, y string) int {
		return cmp.Or(cmp.Compare(math.Abs(a.Ratings[x]-elo), math.Abs(a.Ratings[y]-elo)), cmp.Compare(x, y))
	})
	opponents = opponents[:min(len(opponents), n)]
	if zero := a.ZeroName(); !slices.Contains(opponents, zero) {
		opponents = append(opponents, zero)
	}
	return opponents
}

// addMatches sums two matches against the same opponent.
func addMatches(x, y rating.Match) rating.Match {
	c := rating.Counts{W: x.Wins + y.Wins, D: x.Draws + y.Draws, L: x.Losses + y.Losses}
	e := rating.EloOfCounts(c)
	return rating.Match{Games: c.Games(), Wins: c.W, Draws: c.D, Losses: c.L, Score: c.Score(), Elo: e.Diff, EloLo: e.Lo, EloHi: e.Hi}
}

func gamesOf(ms map[string]rating.Match) int {
	n := 0
	for _, m := range ms {
		n += m.Games
	}
	return n
}
