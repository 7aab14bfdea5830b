package learn

import (
	"fmt"
	"math"
)

// Schedule names accepted by Config.Schedule.
const (
	ScheduleCosine   = "cosine"   // half a cosine from LR down to MinLR
	ScheduleStep     = "step"     // LR, then sqrt(LR*MinLR) from half-way, then MinLR from three quarters
	ScheduleConstant = "constant" // LR throughout (MinLR unused)
)

// Config holds the hyper-parameters of a Trainer.
//
// The loss of a batch of B rows is
//
//	policy cross-entropy (mean over rows)
//	+ ValueWeight * mean squared value error
//	+ ScoreWeight * mean squared score error   (auxiliary head; 0 = off)
//
// and AdamW minimises it: Adam with bias correction, and a weight decay
// decoupled from the loss, each step multiplying every weight matrix (not
// the biases) by 1 - rate*WeightDecay before Adam's update.
//
// The rate follows Schedule over the run's progress p in [0, 1] (the share
// of its horizon done, set by SetProgress; see Rate), after a linear
// warm-up over the first WarmupSteps steps (Trainer.LearningRate).
type Config struct {
	Batch       int     `yaml:"batch"`        // rows per step; the graph is built for exactly this size
	LR          float64 `yaml:"lr"`           // peak learning rate
	MinLR       float64 `yaml:"min_lr"`       // rate at the end of the schedule
	Schedule    string  `yaml:"schedule"`     // "cosine", "step" or "constant"
	WarmupSteps int     `yaml:"warmup_steps"` // linear warm-up length in steps (also of a re-warm); 0 = none
	WeightDecay float64 `yaml:"weight_decay"` // decoupled (AdamW) decay of the weight matrices per unit of rate
	ValueWeight float64 `yaml:"value_weight"` // weight of the value loss
	ScoreWeight float64 `yaml:"score_weight"` // weight of the auxiliary score loss; 0 = off
	Seed        uint64  `yaml:"seed"`         // seeds the auxiliary score head's initial weights
	// Parallel is the number of copies of the graph that compute one
	// step's gradient at once, each on its share of the batch (Batch
	// rows split as evenly as they go), their gradients averaged by rows
	// before the update: data parallelism over the cores. 1 = one graph.
	Parallel int `yaml:"parallel"`
}

// DefaultConfig returns settings that train the default network well.
func DefaultConfig() Config {
	return Config{
		Batch:       256,
		LR:          1e-3,
		MinLR:       5e-5,
		Schedule:    ScheduleCosine,
		WarmupSteps: 100,
		WeightDecay: 0.01,
		ValueWeight: 1,
		ScoreWeight: 0,
		Seed:        1,
		Parallel:    2,
	}
}

// Validate names the first field out of range.
func (c Config) Validate() error {
	switch {
	case c.Batch < 1 || c.Batch > 1<<16:
		return fmt.Errorf("learn: batch %d out of range 1..65536", c.Batch)
	case !(c.LR > 0 && c.LR <= 10):
		return fmt.Errorf("learn: lr %g out of range (0, 10]", c.LR)
	case !(c.MinLR >= 0 && c.MinLR <= c.LR):
		return fmt.Errorf("learn: min_lr %g out of range [0, lr=%g]", c.MinLR, c.LR)
	case c.Schedule != ScheduleCosine && c.Schedule != ScheduleStep && c.Schedule != ScheduleConstant:
		return fmt.Errorf("learn: schedule %q is not %q, %q or %q", c.Schedule, ScheduleCosine, ScheduleStep, ScheduleConstant)
	case c.WarmupSteps < 0 || c.WarmupSteps > 1e9:
		return fmt.Errorf("learn: warmup_steps %d out of range 0..1e9", c.WarmupSteps)
	case !(c.WeightDecay >= 0 && c.WeightDecay*c.LR < 1):
		return fmt.Errorf("learn: weight_decay %g out of range [0, 1/lr=%g)", c.WeightDecay, 1/c.LR)
	case !(c.ValueWeight >= 0 && c.ValueWeight <= 100):
		return fmt.Errorf("learn: value_weight %g out of range [0, 100]", c.ValueWeight)
	case !(c.ScoreWeight >= 0 && c.ScoreWeight <= 100):
		return fmt.Errorf("learn: score_weight %g out of range [0, 100]", c.ScoreWeight)
	case c.Parallel < 1 || c.Parallel > min(64, c.Batch):
		return fmt.Errorf("learn: parallel %d out of range 1..min(64, batch=%d)", c.Parallel, c.Batch)
	}
	return nil
}

// Rate returns the scheduled rate at progress p (clamped to [0, 1]),
// without warm-up: cosine falls from LR at p = 0 to MinLR at p = 1; step
// holds LR until p = 1/2, sqrt(LR*MinLR) until p = 3/4 and MinLR after;
// constant is LR throughout.
func (c Config) Rate(p float64) float64 {
	p = math.Min(math.Max(p, 0), 1)
	switch c.Schedule {
	case ScheduleCosine:
		return c.MinLR + (c.LR-c.MinLR)*0.5*(1+math.Cos(math.Pi*p))
	case ScheduleStep:
		switch {
		case p < 0.5:
			return c.LR
		case p < 0.75:
			return math.Sqrt(c.LR * c.MinLR)
		}
		return c.MinLR
	}
	return c.LR
}
