package selfplay

import (
	"fmt"

	"kumalak/mcts"
)

// Config sets how self-play games are played. The zero ResignThreshold turns
// resignation off.
type Config struct {
	// Games is the number of games played at the same time; together they
	// fill the evaluator's batches.
	Games int `yaml:"games"`
	// Steppers is the number of goroutines that play the games, each
	// stepping the searches of its share of them and evaluating all their
	// leaves in one Evaluate call (at most Games); 0, the default, is one
	// per core (GOMAXPROCS). -1 plays each game on a goroutine of its own,
	// which hands the evaluator one game's leaves at a time (the older
	// way, slower: BENCHMARKS.md). A game is the same either way (with a
	// deterministic evaluator).
	Steppers int `yaml:"steppers"`
	// Search configures every search. Its Dirichlet root noise (NoiseAlpha,
	// NoiseWeight) is used on full searches only. Batch 1 suits self-play:
	// the parallelism comes from the games, not from within a search.
	Search mcts.Config `yaml:"search"`
	// FullSims is the simulation budget of a full search; only moves chosen
	// by a full search become training samples.
	FullSims int `yaml:"full_sims"`
	// CheapSims is the budget of a cheap search (no noise, no sample).
	CheapSims int `yaml:"cheap_sims"`
	// HonestBudget makes FullSims and CheapSims count the visits a search
	// keeps from the previous move's tree (KataGo's way), instead of adding
	// that many simulations to every search.
	HonestBudget bool `yaml:"honest_budget"`
	// FullFraction is the probability that a move gets a full search
	// (playout-cap randomisation); 1 searches every move fully.
	FullFraction float64 `yaml:"full_fraction"`
	// TempPlies is the number of opening plies whose move is sampled from
	// the visit counts with temperature Temp; later moves are the most
	// visited.
	TempPlies int `yaml:"temp_plies"`
	// Temp is the opening temperature (0 plays the most visited move).
	Temp float32 `yaml:"temp"`
	// OpeningPlies: each game starts with a number of uniformly random
	// moves drawn from 0..OpeningPlies (no search, no sample), so that
	// self-play leaves the one line a sharp policy keeps playing (0 = off).
	OpeningPlies int `yaml:"opening_plies"`
	// ResignThreshold: a player resigns when the root value of its search
	// stays below -ResignThreshold for ResignPlies consecutive own moves.
	// 0 disables resignation.
	ResignThreshold float32 `yaml:"resign_threshold"`
	// ResignPlies is the number of consecutive own moves below the threshold
	// that make a player resign.
	ResignPlies int `yaml:"resign_plies"`
	// ResignOffFraction is the fraction of games played to the end with
	// resignation disabled, to measure how often resigning would be wrong.
	ResignOffFraction float64 `yaml:"resign_off_fraction"`
	// MaxPlies caps a game's length; a capped game is scored by comparing
	// stores (env.Scorer) or, for games without stores, as a draw.
	MaxPlies int `yaml:"max_plies"`
	// ExactTargets makes the outcome target of a sample whose position the
	// pool's oracle knows (Pool.SetOracle: a tablebase) the exact result of
	// perfect play instead of the game's result. Off by default; whether it
	// helps is to be measured.
	ExactTargets bool `yaml:"exact_targets"`
	// TablebaseLeaves makes the positions the pool's oracle knows exact
	// leaves of every search (the default). Off, the oracle only gives
	// exact targets (with ExactTargets): the games are played by the
	// network's own search to their end, and the samples of the endgame
	// learn from the exact result instead of the game's.
	TablebaseLeaves bool `yaml:"tablebase_leaves"`
}

// DefaultConfig returns a configuration for CPU-sized training runs.
func DefaultConfig() Config {
	search := mcts.DefaultConfig()
	search.NoiseAlpha = 1 // about 10 / legal moves, for 6 to 9 actions
	return Config{
		Games:             128,
		Search:            search,
		FullSims:          200,
		CheapSims:         40,
		FullFraction:      0.25,
		TempPlies:         16,
		Temp:              1,
		ResignThreshold:   0.9,
		ResignPlies:       3,
		ResignOffFraction: 0.1,
		MaxPlies:          600,
		TablebaseLeaves:   true,
	}
}

// MaxGames bounds Config.Games.
const MaxGames = 1 << 14

// Validate names the first field out of range.
func (c Config) Validate() error {
	switch {
	case c.Games < 1 || c.Games > MaxGames:
		return fmt.Errorf("selfplay: games %d out of range 1..%d", c.Games, MaxGames)
	case c.Steppers < -1 || c.Steppers > MaxGames:
		return fmt.Errorf("selfplay: steppers %d out of range -1..%d", c.Steppers, MaxGames)
	case c.FullSims < 1 || c.FullSims > 1<<20:
		return fmt.Errorf("selfplay: full_sims %d out of range 1..%d", c.FullSims, 1<<20)
	case c.CheapSims < 1 || c.CheapSims > c.FullSims:
		return fmt.Errorf("selfplay: cheap_sims %d out of range 1..full_sims (%d)", c.CheapSims, c.FullSims)
	case !(c.FullFraction > 0 && c.FullFraction <= 1):
		return fmt.Errorf("selfplay: full_fraction %g out of range (0, 1]", c.FullFraction)
	case c.TempPlies < 0 || c.TempPlies > 1<<16:
		return fmt.Errorf("selfplay: temp_plies %d out of range 0..%d", c.TempPlies, 1<<16)
	case c.OpeningPlies < 0 || c.OpeningPlies > 64:
		return fmt.Errorf("selfplay: opening_plies %d out of range 0..64", c.OpeningPlies)
	case !(c.Temp >= 0 && c.Temp <= 10):
		return fmt.Errorf("selfplay: temp %g out of range 0..10", c.Temp)
	case !(c.ResignThreshold >= 0 && c.ResignThreshold < 1):
		return fmt.Errorf("selfplay: resign_threshold %g out of range [0, 1)", c.ResignThreshold)
	case c.ResignThreshold > 0 && (c.ResignPlies < 1 || c.ResignPlies > 1<<10):
		return fmt.Errorf("selfplay: resign_plies %d out of range 1..%d", c.ResignPlies, 1<<10)
	case !(c.ResignOffFraction >= 0 && c.ResignOffFraction <= 1):
		return fmt.Errorf("selfplay: resign_off_fraction %g out of range [0, 1]", c.ResignOffFraction)
	case c.MaxPlies < 1 || c.MaxPlies > maxPly:
		return fmt.Errorf("selfplay: max_plies %d out of range 1..%d", c.MaxPlies, maxPly)
	}
	if err := c.Search.Validate(); err != nil {
		return fmt.Errorf("selfplay: search: %w", err)
	}
	return nil
}

// maxPly is the largest ply a sample can record (data.Sample.Ply is uint16).
const maxPly = 1<<16 - 1
