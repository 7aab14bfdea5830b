package learn

import (
	"fmt"
	"math"
)

// Optimizer names accepted by Config.Optimizer.
const (
	OptimizerAdam     = "adam"
	OptimizerMomentum = "momentum"
)

// Config holds the hyper-parameters of a Trainer.
//
// The loss of a batch of B rows is
//
//	policy cross-entropy (mean over rows)
//	+ ValueWeight * mean squared value error
//	+ ScoreWeight * mean squared score error   (auxiliary head; 0 = off)
//	+ L2 * sum of squared weights               (matrices only, not biases)
//
// The learning rate at global step s, k steps after the Trainer was built
// (s == k on a fresh start), is
//
//	LR * min(1, (k+1)/WarmupSteps) * cosine(s)
//
// where cosine falls from 1 at s = 0 to MinLR/LR at s = DecaySteps and stays
// there; DecaySteps = 0 keeps the rate constant after warm-up.
type Config struct {
	Batch       int     `yaml:"batch"`        // rows per step; the graph is built for exactly this size
	LR          float64 `yaml:"lr"`           // peak learning rate
	WarmupSteps int     `yaml:"warmup_steps"` // linear warm-up length after every (re)start; 0 = none
	DecaySteps  int     `yaml:"decay_steps"`  // cosine decay length in global steps; 0 = constant
	MinLR       float64 `yaml:"min_lr"`       // rate at the end of the decay
	Optimizer   string  `yaml:"optimizer"`    // "adam" or "momentum"
	Momentum    float64 `yaml:"momentum"`     // momentum coefficient (momentum optimizer only)
	L2          float64 `yaml:"l2"`           // weight decay coefficient in the loss
	ValueWeight float64 `yaml:"value_weight"` // weight of the value loss
	ScoreWeight float64 `yaml:"score_weight"` // weight of the auxiliary score loss; 0 = off
	Seed        uint64  `yaml:"seed"`         // seeds the auxiliary score head's initial weights
}

// DefaultConfig returns settings that train the default network well
// with Adam.
func DefaultConfig() Config {
	return Config{
		Batch:       256,
		LR:          1e-3,
		WarmupSteps: 100,
		DecaySteps:  0,
		MinLR:       1e-5,
		Optimizer:   OptimizerAdam,
		Momentum:    0.9,
		L2:          1e-4,
		ValueWeight: 1,
		ScoreWeight: 0,
		Seed:        1,
	}
}

// Validate names the first field out of range.
func (c Config) Validate() error {
	switch {
	case c.Batch < 1 || c.Batch > 1<<16:
		return fmt.Errorf("learn: batch %d out of range 1..65536", c.Batch)
	case !(c.LR > 0 && c.LR <= 10):
		return fmt.Errorf("learn: lr %g out of range (0, 10]", c.LR)
	case c.WarmupSteps < 0 || c.WarmupSteps > 1e9:
		return fmt.Errorf("learn: warmup_steps %d out of range 0..1e9", c.WarmupSteps)
	case c.DecaySteps < 0 || c.DecaySteps > 1e9:
		return fmt.Errorf("learn: decay_steps %d out of range 0..1e9", c.DecaySteps)
	case !(c.MinLR >= 0 && c.MinLR <= c.LR):
		return fmt.Errorf("learn: min_lr %g out of range [0, lr=%g]", c.MinLR, c.LR)
	case c.Optimizer != OptimizerAdam && c.Optimizer != OptimizerMomentum:
		return fmt.Errorf("learn: optimizer %q is not %q or %q", c.Optimizer, OptimizerAdam, OptimizerMomentum)
	case !(c.Momentum >= 0 && c.Momentum < 1):
		return fmt.Errorf("learn: momentum %g out of range [0, 1)", c.Momentum)
	case !(c.L2 >= 0 && c.L2 <= 1):
		return fmt.Errorf("learn: l2 %g out of range [0, 1]", c.L2)
	case !(c.ValueWeight >= 0 && c.ValueWeight <= 100):
		return fmt.Errorf("learn: value_weight %g out of range [0, 100]", c.ValueWeight)
	case !(c.ScoreWeight >= 0 && c.ScoreWeight <= 100):
		return fmt.Errorf("learn: score_weight %g out of range [0, 100]", c.ScoreWeight)
	}
	return nil
}

// LearningRate returns the rate for global step step, taken sinceStart steps
// after the Trainer was built (equal to step on a fresh start). Warm-up
// counts from the (re)start because optimizer moments do not survive a
// restart; the decay follows the global step.
func (c Config) LearningRate(step, sinceStart int) float64 {
	lr := c.LR
	if c.WarmupSteps > 0 && sinceStart < c.WarmupSteps {
		lr *= float64(sinceStart+1) / float64(c.WarmupSteps)
	}
	if c.DecaySteps > 0 {
		f := math.Min(float64(step)/float64(c.DecaySteps), 1)
		lo := c.MinLR / c.LR
		lr *= lo + (1-lo)*0.5*(1+math.Cos(math.Pi*f))
	}
	return lr
}
