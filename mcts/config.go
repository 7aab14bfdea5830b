package mcts

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Kind names the root search algorithm.
type Kind string

// The search kinds.
const (
	PUCT   Kind = "puct"   // AlphaZero: PUCT everywhere, the visit distribution as target, Dirichlet root noise
	Gumbel Kind = "gumbel" // Gumbel AlphaZero: Gumbel-top-k and sequential halving at the root, the improved policy as target
)

// Config holds the search settings. DefaultConfig gives settings for
// strong play; self-play turns on root noise (NoiseAlpha).
type Config struct {
	Kind         Kind    `yaml:"search"`        // root search: puct or gumbel
	CPuct        float32 `yaml:"cpuct"`         // exploration constant of PUCT, in (0, 100]
	FPUReduction float32 `yaml:"fpu_reduction"` // first-play urgency: an unvisited child is valued at the parent's Q minus this, in [-2, 2]
	NoiseAlpha   float32 `yaml:"noise_alpha"`   // Dirichlet alpha of the root noise, in [0, 100]; 0 = no noise
	NoiseWeight  float32 `yaml:"noise_weight"`  // fraction of noise mixed into the root priors, in [0, 1]
	Batch        int     `yaml:"batch"`         // leaves gathered per Evaluate call, in [1, 4096]
	VirtualLoss  float32 `yaml:"virtual_loss"`  // value counted against each visit in flight, in [0, 10]
	Solver       bool    `yaml:"solver"`        // MCTS-solver: propagate proven wins, losses and draws
	Rollouts     int     `yaml:"rollouts"`      // with a nil Evaluator: random playouts per leaf (pure MCTS), in [0, 1e6]
	MaxNodes     int     `yaml:"max_nodes"`     // arena capacity in nodes, in [64, 1<<30]; the search stops growing when full
	ProofTargets bool    `yaml:"proof_targets"` // policy targets: no weight on root moves proven lost (unless all are), a proven draw spread over the drawing moves

	// Gumbel search only (Kind gumbel); the root noise fields are unused.
	GumbelM     int     `yaml:"gumbel_m"`     // root actions sampled without replacement (Gumbel-top-k) for sequential halving, in [1, 256]
	GumbelScale float32 `yaml:"gumbel_scale"` // scale of the Gumbel noise, in [0, 10]: 1 for self-play, 0 for deterministic play
	CVisit      float32 `yaml:"c_visit"`      // sigma(q) = (CVisit + max visits) * CScale * q, q in [0, 1]: in [0, 1e6]
	CScale      float32 `yaml:"c_scale"`      // see CVisit, in (0, 100]
	GumbelPUCT  bool    `yaml:"gumbel_puct"`  // select below the root by PUCT instead of the paper's deterministic improved-policy rule
}

// DefaultConfig returns settings for play: no root noise, one leaf per
// evaluation, the solver on.
func DefaultConfig() Config {
	return Config{
		CPuct:        1.25,
		FPUReduction: 0.25,
		NoiseAlpha:   0,
		NoiseWeight:  0.25,
		Batch:        1,
		VirtualLoss:  1,
		Solver:       true,
		Rollouts:     0,
		MaxNodes:     1 << 20,
		ProofTargets: true,
		Kind:         PUCT,
		GumbelM:      16,
		GumbelScale:  1,
		CVisit:       50,
		CScale:       1,
	}
}

// Validate returns an error naming every field out of its range.
func (c Config) Validate() error {
	var errs []error
	check := func(ok bool, name string, v any, want string) {
		if !ok {
			errs = append(errs, fmt.Errorf("mcts: %s = %v, want %s", name, v, want))
		}
	}
	check(in32(c.CPuct, 0, 100) && c.CPuct > 0, "CPuct", c.CPuct, "in (0, 100]")
	check(in32(c.FPUReduction, -2, 2), "FPUReduction", c.FPUReduction, "in [-2, 2]")
	check(in32(c.NoiseAlpha, 0, 100), "NoiseAlpha", c.NoiseAlpha, "in [0, 100]")
	check(in32(c.NoiseWeight, 0, 1), "NoiseWeight", c.NoiseWeight, "in [0, 1]")
	check(c.Batch >= 1 && c.Batch <= 4096, "Batch", c.Batch, "in [1, 4096]")
	check(in32(c.VirtualLoss, 0, 10), "VirtualLoss", c.VirtualLoss, "in [0, 10]")
	check(c.Rollouts >= 0 && c.Rollouts <= 1e6, "Rollouts", c.Rollouts, "in [0, 1000000]")
	check(c.Kind == PUCT || c.Kind == Gumbel, "Kind", c.Kind, "puct or gumbel")
	check(c.GumbelM >= 1 && c.GumbelM <= 256, "GumbelM", c.GumbelM, "in [1, 256]")
	check(in32(c.GumbelScale, 0, 10), "GumbelScale", c.GumbelScale, "in [0, 10]")
	check(in32(c.CVisit, 0, 1e6), "CVisit", c.CVisit, "in [0, 1e6]")
	check(in32(c.CScale, 0, 100) && c.CScale > 0, "CScale", c.CScale, "in (0, 100]")
	check(c.MaxNodes >= 64 && c.MaxNodes <= 1<<30, "MaxNodes", c.MaxNodes, "in [64, 1073741824]")
	return errors.Join(errs...)
}

// in32 reports whether lo <= v <= hi (false for NaN).
func in32(v, lo, hi float32) bool {
	return v >= lo && v <= hi && !math.IsNaN(float64(v))
}

// Limits bounds one call of Run. At least one of Sims, Visits and Time
// must be set; when several are, the first reached ends the search.
type Limits struct {
	Sims int // simulations to add in this call (root visits added), 0 = no limit
	// Visits is the root's visit count to reach, the visits kept from tree
	// reuse included (KataGo's honest budget: a move whose subtree was
	// already searched costs only the difference), 0 = no limit.
	Visits int
	Time   time.Duration // wall-clock budget of this call, 0 = no limit
	// NoNoise keeps this call from drawing the root noise (the cheap searches
	// of playout-cap randomisation); a later call on the same root still
	// draws it.
	NoNoise bool
}

func (l Limits) validate() error {
	switch {
	case l.Sims < 0:
		return fmt.Errorf("mcts: Limits.Sims = %d, want >= 0", l.Sims)
	case l.Visits < 0:
		return fmt.Errorf("mcts: Limits.Visits = %d, want >= 0", l.Visits)
	case l.Time < 0:
		return fmt.Errorf("mcts: Limits.Time = %v, want >= 0", l.Time)
	case l.Sims == 0 && l.Visits == 0 && l.Time == 0:
		return errors.New("mcts: Limits sets none of Sims, Visits and Time")
	}
	return nil
}
