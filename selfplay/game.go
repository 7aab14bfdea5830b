package selfplay

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"kumalak/data"
	"kumalak/env"
	"kumalak/mcts"
)

// GameResult is one finished self-play game and its training samples. The
// receiver owns every slice in it.
type GameResult struct {
	Index   int           // game number within its Run, 0-based; the game's seed stream
	Moves   []env.Action  // the moves played, in order; one per ply
	Full    []bool        // Full[i]: move i came from a full search, and has a sample (false for a forced move)
	Samples []data.Sample // one per full search, in ply order (a resigned game's last position included)
	Result  env.Result    // final result, resignations and capped games included

	Resigned bool       // the game ended by resignation
	Resigner env.Player // who resigned (or, in a resign-off game, would have)
	Capped   bool       // the game reached MaxPlies and was scored by the stores

	ResignOff   bool // resignation was disabled in this game
	WouldResign bool // resign-off game in which a player met the resign condition
	FalseResign bool // ... and that player went on to win or draw

	Positions int64 // simulations searched in this game
	Forced    int   // moves played at once, without a search or a sample: the position's only legal move
}

// Plies returns the game's length in plies.
func (g *GameResult) Plies() int { return len(g.Moves) }

// worker plays games one at a time with its own searches and random source.
// It is used by one goroutine only. The game in progress lives in scratch
// memory that is reused; a finished game is copied out in a few exact-size
// allocations.
type worker struct {
	spec  *env.Spec
	cfg   Config
	pcg   *rand.PCG
	rng   *rand.Rand
	tree  *mcts.Search // every search of the game, one tree reused move to move
	start env.State    // the start position
	st    env.State    // the game's current position
	legal []env.Action // scratch for legal moves
	low   [2]int       // consecutive own moves below the resign threshold
	rand  int          // the game's random opening plies (Config.OpeningPlies)
	full  bool         // the current move's search is full
	// the root's visits before the current move's search
	before int
	count  func(plies, positions int64)

	// the game in progress
	g      GameResult   // Samples' Obs and Policy are nil until finish
	mover  []env.Player // mover of each sample
	floats []float32    // each sample's observation then policy, back to back

	oracle mcts.Oracle // nil: none
	exact  []float32   // each sample's exact outcome, NaN where unknown (ExactTargets)
}

// setOracle makes o the worker's source of exact targets and, with
// Config.TablebaseLeaves, its search's oracle.
func (w *worker) setOracle(o mcts.Oracle) {
	w.oracle = o
	if w.cfg.TablebaseLeaves {
		w.tree.SetOracle(o)
	}
}

// exactOutcome returns the oracle's result for the current position when
// the config asks for exact targets and the oracle knows it, else NaN.
func (w *worker) exactOutcome() float32 {
	if !w.cfg.ExactTargets || w.oracle == nil {
		return float32(math.NaN())
	}
	if v, ok := w.oracle.Exact(w.st); ok {
		return v
	}
	return float32(math.NaN())
}

func newWorker(spec *env.Spec, ev mcts.Evaluator, cfg Config, count func(plies, positions int64)) *worker {
	pcg := rand.NewPCG(0, 0)
	w := &worker{
		spec:  spec,
		cfg:   cfg,
		pcg:   pcg,
		rng:   rand.New(pcg),
		start: spec.New(),
		st:    spec.New(),
		legal: make([]env.Action, 0, spec.NumActions),
		count: count,
	}
	w.tree = mcts.New(spec, ev, cfg.Search, w.rng)
	return w
}

// play plays game number index of a run seeded with seed. The game's
// randomness depends on (seed, index) only, so with a deterministic
// evaluator a game is the same whichever worker plays it, and whether its
// searches run by Search.Run here or are stepped with other games' (a
// stepper's). A search error, cancellation included, abandons the game.
func (w *worker) play(ctx context.Context, seed uint64, index int) (GameResult, error) {
	w.begin(seed, index)
	for {
		if err := ctx.Err(); err != nil {
			if w.over() { // the old order: a finished game is kept
				break
			}
			return GameResult{}, err
		}
		lim, over := w.turn()
		if over {
			break
		}
		if err := w.tree.Run(ctx, lim); err != nil {
			return GameResult{}, w.wrap(err)
		}
		if err := ctx.Err(); err != nil { // a search cut short is no sample
			return GameResult{}, w.wrap(err)
		}
		if w.played() {
			break
		}
	}
	return w.finish(), nil
}

// begin sets up game index: its random stream, the start position, and
// empty scratch records.
func (w *worker) begin(seed uint64, index int) {
	w.pcg.Seed(seed, uint64(index))
	w.g = GameResult{
		Index:   index,
		Moves:   w.g.Moves[:0],
		Full:    w.g.Full[:0],
		Samples: w.g.Samples[:0],
	}
	w.g.ResignOff = w.cfg.ResignThreshold > 0 && w.rng.Float64() < w.cfg.ResignOffFraction
	w.mover, w.floats, w.exact = w.mover[:0], w.floats[:0], w.exact[:0]
	w.low = [2]int{}
	w.rand = 0
	if w.cfg.OpeningPlies > 0 {
		w.rand = w.rng.IntN(w.cfg.OpeningPlies + 1)
	}
	w.st.CopyFrom(w.start)
	w.tree.Reset(w.st)
}

// wrap names the game and ply of a search error.
func (w *worker) wrap(err error) error {
	return fmt.Errorf("selfplay: game %d, ply %d: %w", w.g.Index, len(w.g.Moves), err)
}

// over reports whether the game has ended on the board or at MaxPlies,
// and records its result.
func (w *worker) over() bool {
	g := &w.g
	if r := w.st.Result(); r != env.Ongoing {
		g.Result = r
		return true
	}
	if len(g.Moves) >= w.cfg.MaxPlies {
		g.Result, g.Capped = adjudicate(w.st), true
		return true
	}
	return false
}

// turn brings the game to its next search: it plays forced moves (the
// only legal move, at once, with no search and no sample) and the random
// opening plies (a uniformly random legal move, no search, no sample), and
// draws whether the search is full. It returns the search's limits, or over when
// the game has ended instead.
func (w *worker) turn() (lim mcts.Limits, over bool) {
	g := &w.g
	for {
		if w.over() {
			return mcts.Limits{}, true
		}
		w.legal = w.st.Legal(w.legal[:0])
		if len(w.legal) > 1 && len(g.Moves) < w.rand {
			w.count(1, 0)
			w.advance(w.legal[w.rng.IntN(len(w.legal))], false)
			continue
		}
		if len(w.legal) > 1 {
			break
		}
		g.Forced++
		w.count(1, 0)
		w.advance(w.legal[0], false)
	}
	w.full = w.cfg.FullFraction >= 1 || w.rng.Float64() < w.cfg.FullFraction
	w.before = w.tree.Root().Visits
	return w.limits(w.full), false
}

// played ends the move whose search is over: it records a sample after a
// full search and plays the chosen move, or resigns, and reports whether
// the game is over by resignation.
func (w *worker) played() bool {
	g := &w.g
	s := w.tree
	// Fewer than sims when the solver proved the root or the arena is full.
	done := int64(s.Root().Visits - w.before)
	g.Positions += done
	w.count(1, done)
	mover := w.st.ToMove()
	value := s.RootValue()
	if w.full {
		w.sample(s, value, len(g.Moves), w.legal)
	}
	if w.resigns(mover, value) {
		g.Result = env.WinFor(g.Resigner.Other())
		return true
	}
	temp := float32(0)
	if len(g.Moves) < w.cfg.TempPlies {
		temp = w.cfg.Temp
	}
	w.advance(s.Choose(temp), w.full)
	return false
}

// advance plays a, records it and moves the tree's root along.
func (w *worker) advance(a env.Action, full bool) {
	g := &w.g
	w.st.Apply(a)
	g.Moves = append(g.Moves, a)
	g.Full = append(g.Full, full)
	w.tree.Advance(a, w.st)
}

// limits are those of a full search (root noise, FullSims) or a cheap one
// (no noise, CheapSims): playout-cap randomisation on one tree. With
// HonestBudget the budget counts the visits kept from the previous move.
func (w *worker) limits(full bool) mcts.Limits {
	sims := w.cfg.CheapSims
	if full {
		sims = w.cfg.FullSims
	}
	if w.cfg.HonestBudget {
		return mcts.Limits{Visits: sims, NoNoise: !full}
	}
	return mcts.Limits{Sims: sims, NoNoise: !full}
}

// resigns updates the mover's run of hopeless root values and reports
// whether the mover resigns now. In a resign-off game it only notes the
// first player who would have resigned.
func (w *worker) resigns(mover env.Player, value float32) bool {
	g := &w.g
	if w.cfg.ResignThreshold <= 0 {
		return false
	}
	if value >= -w.cfg.ResignThreshold {
		w.low[mover] = 0
		return false
	}
	w.low[mover]++
	if w.low[mover] < w.cfg.ResignPlies {
		return false
	}
	if g.ResignOff {
		if !g.WouldResign {
			g.WouldResign, g.Resigner = true, mover
		}
		return false
	}
	g.Resigned, g.Resigner = true, mover
	return true
}

// sample records the current position, whose legal moves are legal, with
// the search's visit distribution; its observation and policy go to
// w.floats.
func (w *worker) sample(s *mcts.Search, value float32, ply int, legal []env.Action) {
	nobs, n := w.spec.ObsLen, w.spec.NumActions
	at := len(w.floats)
	w.floats = slices.Grow(w.floats, nobs+2*n)[:at+nobs+2*n]
	obs, pol, visits := w.floats[at:at+nobs], w.floats[at+nobs:at+nobs+n], w.floats[at+nobs+n:]
	w.st.Observe(obs)
	var mask uint64
	for _, a := range legal {
		mask |= 1 << uint(a)
	}
	s.Policy(visits)
	normalize(pol, visits, mask)
	w.floats = w.floats[:at+nobs+n] // the visits were scratch
	w.g.Samples = append(w.g.Samples, data.Sample{Legal: mask, RootValue: clamp(value), Ply: uint16(ply)})
	w.mover = append(w.mover, w.st.ToMove())
	w.exact = append(w.exact, w.exactOutcome())
}

// finish fills in every sample's outcome, score, observation and policy and
// the false-resignation verdict, and returns a copy of the game that shares
// no memory with the worker.
func (w *worker) finish() GameResult {
	g := w.g
	g.Moves = slices.Clone(g.Moves)
	g.Full = slices.Clone(g.Full)
	g.Samples = slices.Clone(g.Samples)
	floats := slices.Clone(w.floats)
	per := w.spec.ObsLen + w.spec.NumActions
	store := storeFunc(w.st)
	for i := range g.Samples {
		smp, p, f := &g.Samples[i], w.mover[i], floats[i*per:(i+1)*per:(i+1)*per]
		smp.Obs, smp.Policy = f[:w.spec.ObsLen:w.spec.ObsLen], f[w.spec.ObsLen:]
		smp.Outcome = g.Result.Value(p)
		if v := w.exact[i]; !math.IsNaN(float64(v)) {
			smp.Outcome = v
		}
		if store != nil {
			smp.Score = agree(float32(store(p)-store(p.Other()))/float32(w.spec.Stones), smp.Outcome, w.spec.Stones)
		}
	}
	if g.WouldResign {
		g.FalseResign = g.Result.Value(g.Resigner) >= 0
	}
	return g
}

// normalize writes into dst the visit distribution src restricted to the
// legal actions and scaled to sum 1; with no visits at all it is uniform
// over the legal actions.
func normalize(dst, src []float32, legal uint64) {
	var sum float32
	for a := range dst {
		dst[a] = 0
		if legal>>uint(a)&1 == 1 && src[a] > 0 {
			dst[a] = src[a]
			sum += src[a]
		}
	}
	if sum == 0 {
		for a := range dst {
			dst[a] = float32(legal >> uint(a) & 1)
			sum += dst[a]
		}
	}
	for a := range dst {
		dst[a] /= sum
	}
}

// storeFunc returns the final-store function of the game's final position
// st, or nil for a game without stores.
// (env.StoreFunc: env.FinalScorer first, else env.Scorer).
func storeFunc(st env.State) func(env.Player) int { return env.StoreFunc(st) }

// agree returns the score target of a sample whose outcome is outcome,
// so that it never contradicts it (the stores of a resigned game may favour
// the resigner): a win scores at least one stone, a loss at most minus one,
// a draw 0.
func agree(score, outcome float32, stones int) float32 {
	one := 1 / float32(max(stones, 1))
	switch {
	case outcome > 0:
		return max(score, one)
	case outcome < 0:
		return min(score, -one)
	}
	return 0
}

// adjudicate scores an unfinished game: the larger store wins (the same
// stores as the score targets) when the game has stores, otherwise it is a
// draw; the arena scores its capped games the same way (env.Adjudicate).
func adjudicate(st env.State) env.Result { return env.Adjudicate(st) }

func clamp(v float32) float32 {
	return min(max(v, -1), 1)
}
