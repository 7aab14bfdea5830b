package train

import (
	"fmt"
	"slices"
	"time"

	"kumalak/data"
	"kumalak/env"
	"kumalak/net"
	"kumalak/net/learn"
	"kumalak/selfplay"
	"kumalak/solve"
)

// Config is everything a training run needs; configs/*.yaml hold it, every
// field commented. cmd decodes it strictly; Validate names a bad field.
type Config struct {
	Game        string            `yaml:"game"`                    // game name: togyz, mangala, mangala-kale
	Seed        uint64            `yaml:"seed"`                    // seeds everything random in the run
	Iterations  int               `yaml:"iterations"`              // stop after this many iterations; 0 = no limit
	Budget      time.Duration     `yaml:"budget"`                  // stop once the run has trained this long in all; 0 = no limit
	Games       int               `yaml:"games_per_iteration"`     // self-play games per iteration
	Net         net.Config        `yaml:"net"`                     // network sizes (input and actions come from the game)
	Train       learn.Config      `yaml:"train"`                   // optimizer and loss
	SampleReuse float64           `yaml:"sample_reuse"`            // training steps per iteration = new samples * reuse / batch
	MaxSteps    int               `yaml:"max_steps_per_iteration"` // cap on training steps per iteration
	Window      data.WindowConfig `yaml:"window"`                  // replay window
	SelfPlay    selfplay.Config   `yaml:"selfplay"`                // self-play games and search
	Batcher     net.BatcherConfig `yaml:"batcher"`                 // batching of network calls
	Eval        EvalConfig        `yaml:"eval"`                    // gating and baselines
	KeepShards  int               `yaml:"keep_shards"`             // shards kept beyond the window (0 = prune all older)
	KeepModels  int               `yaml:"keep_models"`             // latest candidates kept in models/ (those measured against the baselines are always kept); 0 = keep all
	Cluster     ClusterConfig     `yaml:"cluster"`                 // samples from workers on other machines
	// Tablebase is a mangala tablebase folder (kumalak tablebase build):
	// self-play's exact leaves (and its exact targets with
	// selfplay.exact_targets), and the judge of the network's mistakes at
	// each baseline evaluation; "" = none.
	Tablebase string `yaml:"tablebase"`
}

// EvalConfig sets how candidates are judged and how the run's strength is
// measured against fixed baselines.
type EvalConfig struct {
	Gate          string   `yaml:"gate"`           // "always" (promote every candidate), "score" or "sprt"
	Games         int      `yaml:"games"`          // candidate-vs-best games per iteration (gate score/sprt)
	Threshold     float64  `yaml:"threshold"`      // gate score: the candidate's minimum score, (0, 1)
	SPRTElo0      float64  `yaml:"sprt_elo0"`      // gate sprt: H0 Elo difference
	SPRTElo1      float64  `yaml:"sprt_elo1"`      // gate sprt: H1 Elo difference
	Sims          int      `yaml:"sims"`           // simulations per move of the model agent in every evaluation game
	Baselines     []string `yaml:"baselines"`      // fixed opponents (agent specs), e.g. ab:depth=2
	BaselineEvery int      `yaml:"baseline_every"` // play the baselines every this many iterations (and at the last)
	BaselineGames int      `yaml:"baseline_games"` // games against each baseline
	// FinalBaselineGames is the games against each baseline at a run's
	// last evaluation (at the iteration count, or near the budget), so
	// that the final rating's interval is narrow; 0 = BaselineGames.
	FinalBaselineGames int `yaml:"final_baseline_games"`
	AnchorGames        int `yaml:"anchor_games"` // games per pairing of the round robin that rates the baselines once (0 = no rating)
	// Anchor is the player rated 0 on the baselines' scale: random (which
	// then joins the round robin) or one of the baselines. Ratings' intervals
	// are relative to it, so a baseline the others score against keeps them
	// narrow where random never scores (togyz). "" means random.
	Anchor       string `yaml:"anchor"`
	Parallel     int    `yaml:"parallel"`      // evaluation games played at once
	OpeningPlies int    `yaml:"opening_plies"` // random opening plies of evaluation games
	// BalancedOpenings keeps only random openings that a quick search
	// rates near even (arena.BalanceOf), as the arena does by default.
	BalancedOpenings bool `yaml:"balanced_openings"`

	// The ladder (with anchor_games > 0): anchors above the baselines.
	// When an evaluation rates the network LadderStep Elo above every
	// anchor, it is frozen as a rung, rated by LadderGames games against
	// each of the LadderOpponents anchors rated nearest it and the anchor
	// rated 0 (its evaluation games counting too) and kept; every evaluation then also plays the
	// LadderPlay top rungs, baseline_games each (final_baseline_games at
	// the final one). At most LadderRungs rungs; 0 = no ladder.
	LadderRungs     int     `yaml:"ladder_rungs"`
	LadderStep      float64 `yaml:"ladder_step"`
	LadderGames     int     `yaml:"ladder_games"`
	LadderOpponents int     `yaml:"ladder_opponents"`
	LadderPlay      int     `yaml:"ladder_play"`
}

// zero returns the player rated 0: Anchor, or random when it is empty.
func (e EvalConfig) zero() string {
	if e.Anchor == "" {
		return "random"
	}
	return e.Anchor
}

// DefaultConfig returns the defaults for togyz, sized for a 2-core machine.
func DefaultConfig() Config {
	return Config{
		Game:        env.DefaultGame,
		Seed:        1,
		KeepModels:  10,
		Budget:      30 * time.Minute,
		Games:       64,
		Net:         net.DefaultConfig(1, 1),
		Train:       learn.DefaultConfig(),
		SampleReuse: 4,
		MaxSteps:    400,
		Window:      data.DefaultWindowConfig(),
		SelfPlay:    selfplay.DefaultConfig(),
		Batcher:     trainBatcher(),
		Cluster:     DefaultClusterConfig(),
		Eval: EvalConfig{
			Gate: "always", Games: 20, Threshold: 0.55, SPRTElo0: 0, SPRTElo1: 30,
			Sims: 100, Baselines: []string{"greedy", "ab:depth=2", "ab:depth=4", "ab:depth=6"},
			BaselineEvery: 3, BaselineGames: 20, FinalBaselineGames: 200, AnchorGames: 100, Anchor: "random", Parallel: 8, OpeningPlies: 4,
			BalancedOpenings: true,
			LadderRungs:      12, LadderStep: 50, LadderGames: 100, LadderOpponents: 3, LadderPlay: 2,
		},
	}
}

// trainBatcher never waits for a minimum batch (measured fastest: the
// games fill batches by themselves) and runs one network worker per core.
func trainBatcher() net.BatcherConfig {
	c := net.DefaultBatcherConfig()
	c.MinBatch, c.Workers = 1, 2
	return c
}

// Resolve fills the fields that come from the game (the network's input and
// action sizes) and returns the game's spec.
func (c *Config) Resolve() (*env.Spec, error) {
	spec, err := env.Lookup(c.Game)
	if err != nil {
		return nil, fmt.Errorf("train: game: %w", err)
	}
	c.Net.InputLen, c.Net.Actions = spec.ObsLen, spec.NumActions
	return spec, nil
}

// probedGame returns solve.Probed's error for the game named game, or
// none for a name that is no game (Validate's game check names it).
func probedGame(game string) error {
	spec, err := env.Lookup(game)
	if err != nil {
		return nil
	}
	return solve.Probed(spec)
}

// Validate names the first field out of range. Call Resolve first.
func (c Config) Validate() error {
	checks := []struct {
		bad  bool
		name string
		msg  string
	}{
		{c.Iterations < 0, "iterations", "must be >= 0"},
		{c.Budget < 0, "budget", "must be >= 0"},
		{c.Iterations == 0 && c.Budget == 0, "iterations", "and budget are both 0: the run would never stop"},
		{c.Games < 1 || c.Games > 1<<20, "games_per_iteration", "out of range 1..1048576"},
		{c.SampleReuse <= 0 || c.SampleReuse > 1000, "sample_reuse", "out of range (0, 1000]"},
		{c.MaxSteps < 1 || c.MaxSteps > 1<<24, "max_steps_per_iteration", "out of range 1..16777216"},
		{c.KeepShards < 0, "keep_shards", "must be >= 0"},
		{c.KeepModels < 0, "keep_models", "must be >= 0"},
	}
	for _, ch := range checks {
		if ch.bad {
			return fmt.Errorf("train: %s %s", ch.name, ch.msg)
		}
	}
	for _, v := range []interface{ Validate() error }{c.Net, c.Train, c.Window, c.SelfPlay, c.Batcher, c.Eval, c.Cluster} {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	if c.Tablebase != "" {
		if err := probedGame(c.Game); err != nil {
			return fmt.Errorf("train: tablebase %s: %w", c.Tablebase, err)
		}
	}
	if c.SelfPlay.ExactTargets && c.Tablebase == "" {
		return fmt.Errorf("train: selfplay.exact_targets needs a tablebase")
	}
	if c.Window.MaxSamples < c.Train.Batch {
		return fmt.Errorf("train: window.max_samples %d is smaller than train.batch %d", c.Window.MaxSamples, c.Train.Batch)
	}
	return nil
}

// Validate names the first field out of range.
func (e EvalConfig) Validate() error {
	switch {
	case e.Gate != "always" && e.Gate != "score" && e.Gate != "sprt":
		return fmt.Errorf("train: eval.gate %q: want always, score or sprt", e.Gate)
	case e.Gate != "always" && (e.Games < 2 || e.Games > 100000):
		return fmt.Errorf("train: eval.games %d out of range 2..100000", e.Games)
	case e.Gate == "score" && (e.Threshold <= 0 || e.Threshold >= 1):
		return fmt.Errorf("train: eval.threshold %g out of range (0, 1)", e.Threshold)
	case e.Gate == "sprt" && e.SPRTElo1 <= e.SPRTElo0:
		return fmt.Errorf("train: eval.sprt_elo1 %g must exceed sprt_elo0 %g", e.SPRTElo1, e.SPRTElo0)
	case e.Sims < 1 || e.Sims > 1000000:
		return fmt.Errorf("train: eval.sims %d out of range 1..1000000", e.Sims)
	case e.BaselineEvery < 0:
		return fmt.Errorf("train: eval.baseline_every %d must be >= 0 (0 = never)", e.BaselineEvery)
	case len(e.Baselines) > 0 && e.BaselineEvery > 0 && (e.BaselineGames < 2 || e.BaselineGames > 100000):
		return fmt.Errorf("train: eval.baseline_games %d out of range 2..100000", e.BaselineGames)
	case e.FinalBaselineGames < 0 || e.FinalBaselineGames == 1 || e.FinalBaselineGames > 100000:
		return fmt.Errorf("train: eval.final_baseline_games %d out of range 0 or 2..100000", e.FinalBaselineGames)
	case e.AnchorGames < 0 || e.AnchorGames == 1 || e.AnchorGames > 100000:
		return fmt.Errorf("train: eval.anchor_games %d out of range 0 or 2..100000", e.AnchorGames)
	case e.zero() != "random" && !slices.Contains(e.Baselines, e.Anchor):
		return fmt.Errorf("train: eval.anchor %q: want random or one of eval.baselines", e.Anchor)
	case e.Parallel < 1 || e.Parallel > 256:
		return fmt.Errorf("train: eval.parallel %d out of range 1..256", e.Parallel)
	case e.OpeningPlies < 0 || e.OpeningPlies > 64:
		return fmt.Errorf("train: eval.opening_plies %d out of range 0..64", e.OpeningPlies)
	case e.LadderRungs < 0 || e.LadderRungs > 100:
		return fmt.Errorf("train: eval.ladder_rungs %d out of range 0..100", e.LadderRungs)
	case e.LadderRungs == 0:
	case e.AnchorGames == 0:
		return fmt.Errorf("train: eval.ladder_rungs %d needs eval.anchor_games > 0: rungs are rated on the baselines' scale", e.LadderRungs)
	case !(e.LadderStep >= -1000 && e.LadderStep <= 1000):
		return fmt.Errorf("train: eval.ladder_step %g out of range -1000..1000", e.LadderStep)
	case e.LadderGames < 2 || e.LadderGames > 100000:
		return fmt.Errorf("train: eval.ladder_games %d out of range 2..100000", e.LadderGames)
	case e.LadderOpponents < 1 || e.LadderOpponents > 100:
		return fmt.Errorf("train: eval.ladder_opponents %d out of range 1..100", e.LadderOpponents)
	case e.LadderPlay < 0 || e.LadderPlay > e.LadderRungs:
		return fmt.Errorf("train: eval.ladder_play %d out of range 0..ladder_rungs (%d)", e.LadderPlay, e.LadderRungs)
	}
	return nil
}
