package agent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"kumalak/env"
	"kumalak/mcts"
	"kumalak/models"
	"kumalak/net"
	"kumalak/solve"
)

// MaxLevel is the strongest level; levels run 1..MaxLevel.
const MaxLevel = 10

// Level is the search of one strength level of the model agent. A weaker
// level plays as a weaker person does: it looks at fewer moves (Consider),
// reads them less deep (Sims), proves no long wins (Solver off), and among
// the moves that look about as good as its best (within Margin) it does
// not always pick the best (a softmax at Temp over their values). It never
// plays a move its own search values more than Margin below the move the
// search chose, so its mistakes are misjudged near-equal moves and missed
// tactics, not random blunders. Levels count simulations, never time, so a
// level is as strong on a loaded machine as on an idle one.
type Level struct {
	Sims int // simulations added per move
	// Consider is the root moves the search looks at: the top Consider by
	// prior plus Gumbel noise (a Gumbel root, sequential halving over
	// them); 0 looks at every move with PUCT, the agent's full search.
	Consider int
	Margin   float32 // the largest value loss, in -1..1 value units, of a move the level may play
	Temp     float32 // softmax temperature over the values of the moves within Margin; 0 plays the search's choice
	Solver   bool    // propagate proven wins and losses (MCTS-solver)
}

// levels are the strength levels of the games, weakest first: the
// game's own table (env.Facts.Levels, in its folder), else defaultLevels.
// Level MaxLevel is the model agent's own play at the shipped models' 400
// simulations. The same search weakens the games unequally, so each table
// was tuned by tournaments of its game (docs/PLAYING.md, "Levels": togyz,
// mangala and mangala-kale measured) until each level came out stronger than the one
// below.
var (
	// defaultLevels: mangala, and the games without their own table.
	defaultLevels = [MaxLevel]Level{
		{Sims: 2, Consider: 2, Margin: 1.2, Temp: 0.8},
		{Sims: 4, Consider: 3, Margin: 0.6, Temp: 0.3},
		{Sims: 10, Consider: 4, Margin: 0.35, Temp: 0.16},
		{Sims: 20, Consider: 6, Margin: 0.2, Temp: 0.1},
		{Sims: 35, Consider: 7, Margin: 0.14, Temp: 0.065},
		{Sims: 70, Consider: 12, Margin: 0.07, Temp: 0.04},
		{Sims: 100, Consider: 16, Margin: 0.05, Temp: 0.03, Solver: true},
		{Sims: 150, Consider: 16, Margin: 0.03, Temp: 0.015, Solver: true},
		{Sims: 250, Margin: 0.01, Temp: 0.005, Solver: true},
		{Sims: 400, Solver: true},
	}
)

// levelsOf returns the level table of the game: its own
// (env.Facts.Levels), else defaultLevels.
func levelsOf(game string) *[MaxLevel]Level {
	spec, err := env.Lookup(game)
	if err != nil || len(spec.Facts.Levels) != MaxLevel {
		return &defaultLevels
	}
	var t [MaxLevel]Level
	for i, l := range spec.Facts.Levels {
		t[i] = Level(l)
	}
	return &t
}

// LevelOf returns the search of level n, in 1..MaxLevel, of the game.
func LevelOf(game string, n int) (Level, error) {
	if n < 1 || n > MaxLevel {
		return Level{}, fmt.Errorf("level %d out of range 1..%d", n, MaxLevel)
	}
	return levelsOf(game)[n-1], nil
}

// The level keys of the model kind.
var (
	levelKeyDoc = key{"level", "none", fmt.Sprintf("strength level 1..%d (docs/PLAYING.md, Levels): fewer simulations, fewer moves considered and near-equal moves chosen by chance as it falls; sets sims, temp and solver", MaxLevel)}
	eloKeyDoc   = key{"elo", "none", "play at this rating on the game's Elo scale (docs/PLAYING.md, Levels), between its measured levels' (level's search, interpolated)"}
)

// levelSets are the keys a level decides, refused beside level= or elo=.
var levelSets = []string{"sims", "temp", "solver", "cpuct"}

// buildModel builds the model kind: a level agent when the spec gives
// level= or elo=, else the model agent.
func buildModel(spec *env.Spec, o *options, rng *rand.Rand) (Agent, error) {
	if !o.has("level") && !o.has("elo") {
		return newModel(spec, o, rng)
	}
	lv, err := levelOption(spec, o)
	if err != nil {
		return nil, err
	}
	for _, k := range levelSets {
		if o.has(k) || k == "sims" && o.lim.Sims > 0 {
			return nil, fmt.Errorf("%s= and a level: the level sets %s", k, k)
		}
	}
	return newLevelAgent(spec, o, lv, rng)
}

// levelOption reads level= or elo= (not both).
func levelOption(spec *env.Spec, o *options) (Level, error) {
	if o.has("level") && o.has("elo") {
		return Level{}, fmt.Errorf("level= and elo= together: give one")
	}
	if o.has("elo") {
		elo, err := o.float("elo", 0, -1e4, 1e4)
		if err != nil {
			return Level{}, err
		}
		return LevelAtElo(spec.Name, elo)
	}
	n, err := o.int("level", 0, 1, MaxLevel)
	if err != nil {
		return Level{}, err
	}
	return LevelOf(spec.Name, n)
}

// levelAgent is a searcher whose move is chosen as its level says.
type levelAgent struct {
	*searcher
	lv     Level
	rng    *rand.Rand
	played env.Action   // the last move chosen
	pv     []env.Action // the analysis' line when the level left the search's choice
}

// newLevelAgent builds the model agent (or, for a game without a shipped
// model or path=, the mcts agent's rollouts) searching as lv says; time=,
// batch, threads, hash and tablebase keys are kept.
func newLevelAgent(spec *env.Spec, o *options, lv Level, rng *rand.Rand) (*levelAgent, error) {
	// A level errs on purpose, in the endgame too: the exact solver only
	// when the spec asks for it (its Elo were measured without it).
	vals := map[string]string{"solver": strconv.FormatBool(lv.Solver), exactKey: "0"}
	for k, v := range o.vals {
		if _, auto, _ := solve.AutoSize(v); k != "level" && k != "elo" && (k != tablebaseKey || !auto) {
			vals[k] = v // a level plays without the front ends' default tablebase, as measured
		}
	}
	lo := &options{vals: vals, lim: Limits{Sims: lv.Sims, Time: o.lim.Time}}
	own := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	s, err := levelSearcher(spec, lo, lv, rng)
	if err != nil {
		return nil, err
	}
	return &levelAgent{searcher: s, lv: lv, rng: own, pv: make([]env.Action, 1)}, nil
}

// levelSearcher builds the search of lv: the model's (or for a game with
// no model, random rollouts'), its root a Gumbel one over lv.Consider
// moves when lv.Consider > 0.
func levelSearcher(spec *env.Spec, o *options, lv Level, rng *rand.Rand) (*searcher, error) {
	path := o.str("path", "")
	m, err := loadModel(spec, path)
	var cfg mcts.Config
	var ev mcts.Evaluator
	var newEval func() mcts.Evaluator
	switch {
	case path == "" && isNoModel(err):
		cfg = mcts.DefaultConfig()
		cfg.Rollouts = 1
	case err != nil:
		return nil, err
	default:
		if cfg, _, err = modelConfig(m.Meta.Card, o); err != nil {
			return nil, err
		}
		if c := m.Params.Config; c.InputLen != spec.ObsLen || c.Actions != spec.NumActions {
			return nil, fmt.Errorf("model: network takes %d inputs and %d actions, %s has %d and %d",
				c.InputLen, c.Actions, spec.Name, spec.ObsLen, spec.NumActions)
		}
		newEval = func() mcts.Evaluator { return inferEval{net.NewInfer(m.Params, cfg.Batch)} }
		ev = newEval()
	}
	if lv.Consider > 0 {
		cfg.Kind, cfg.GumbelM, cfg.GumbelScale = mcts.Gumbel, lv.Consider, 1
	}
	return newSearcherAgent(spec, ev, newEval, cfg, o, lv.Sims, rng)
}

// isNoModel reports whether err says the game ships no model.
func isNoModel(err error) bool { return err != nil && errors.Is(err, models.ErrNone) }

// Level returns the agent's level search.
func (l *levelAgent) Level() Level { return l.lv }

// MaxLimits: a level takes a time, and sims up to its own.
func (l *levelAgent) MaxLimits() Limits { return Limits{Sims: l.lv.Sims, Time: MaxTime} }

// SetLimits caps the level's search: sims up to the level's (none given:
// the level's), and a time when given. A clock or a time limit thus
// shortens a level's search but never lengthens it.
func (l *levelAgent) SetLimits(lim Limits) error {
	if err := lim.check(l.MaxLimits()); err != nil {
		return err
	}
	if lim.Sims == 0 {
		lim.Sims = l.lv.Sims
	}
	l.lim = mcts.Limits{Sims: lim.Sims, Time: lim.Time}
	return nil
}

// Move searches as the level says and chooses among the moves within its
// margin.
func (l *levelAgent) Move(ctx context.Context, st env.State) (env.Action, error) {
	a, err := l.searcher.Move(ctx, st)
	if err != nil {
		return 0, err
	}
	l.played = l.choose(a)
	return l.played, nil
}

// choose returns, from the root moves the search visited, one whose value
// is within the margin of a's (the search's choice), drawn with weights
// exp((q - q_a) / Temp), a value above a's counting as a's; a proven win
// or a move from the tablebase (a perfect endgame) is kept.
func (l *levelAgent) choose(a env.Action) env.Action {
	if l.lv.Temp <= 0 || l.tb != nil {
		return a
	}
	qa, ok := float32(0), false
	for _, k := range l.kids {
		if k.Action == a {
			qa, ok = k.Q, k.Visits > 0 && k.Proof != mcts.ProvenWin
		}
	}
	if !ok {
		return a
	}
	total := 0.0
	for _, k := range l.kids {
		total += l.weight(k, qa)
	}
	x := total * l.rng.Float64()
	for _, k := range l.kids {
		if w := l.weight(k, qa); w > 0 {
			if x -= w; x < 0 {
				return k.Action
			}
		}
	}
	return a
}

// weight is the chance weight of root move k beside the search's choice
// of value qa: 0 outside the margin, unvisited or proven lost.
func (l *levelAgent) weight(k mcts.ChildStats, qa float32) float64 {
	if k.Visits == 0 || k.Proof == mcts.ProvenLoss || k.Q < qa-l.lv.Margin {
		return 0
	}
	return math.Exp(float64(min(k.Q, qa)-qa) / float64(l.lv.Temp))
}

// Analysis is the search's, its line starting with the move played: the
// search's line when the level played the search's choice, else that
// move alone.
func (l *levelAgent) Analysis() Analysis {
	a := l.searcher.Analysis()
	if len(a.PV) > 0 && a.PV[0] != l.played {
		l.pv[0] = l.played
		a.PV = l.pv
	}
	return a
}
