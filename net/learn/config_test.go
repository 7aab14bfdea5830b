package learn

import (
	"math"
	"strings"
	"testing"
)

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default config: %v", err)
	}
	bad := []struct {
		field string
		edit  func(*Config)
	}{
		{"batch", func(c *Config) { c.Batch = 0 }},
		{"batch", func(c *Config) { c.Batch = 1<<16 + 1 }},
		{"lr", func(c *Config) { c.LR = 0 }},
		{"lr", func(c *Config) { c.LR = math.NaN() }},
		{"warmup_steps", func(c *Config) { c.WarmupSteps = -1 }},
		{"decay_steps", func(c *Config) { c.DecaySteps = -1 }},
		{"min_lr", func(c *Config) { c.MinLR = c.LR * 2 }},
		{"min_lr", func(c *Config) { c.MinLR = -1 }},
		{"optimizer", func(c *Config) { c.Optimizer = "sgd" }},
		{"momentum", func(c *Config) { c.Momentum = 1 }},
		{"l2", func(c *Config) { c.L2 = -1e-4 }},
		{"value_weight", func(c *Config) { c.ValueWeight = -1 }},
		{"score_weight", func(c *Config) { c.ScoreWeight = math.Inf(1) }},
	}
	for _, b := range bad {
		c := DefaultConfig()
		b.edit(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), b.field) {
			t.Errorf("%s: Validate() = %v, want an error naming %s", b.field, err, b.field)
		}
	}
}

func TestLearningRate(t *testing.T) {
	c := Config{LR: 1e-2, MinLR: 1e-4, WarmupSteps: 10, DecaySteps: 1000}
	decay := func(step int) float64 { // cosine factor from 1 down to MinLR/LR = 0.01
		return 0.01 + 0.99*0.5*(1+math.Cos(math.Pi*float64(step)/1000))
	}
	cases := []struct {
		step, since int
		want        float64
	}{
		{0, 0, 1e-3},                             // first warm-up step: LR/10
		{4, 4, 1e-2 * 0.5 * decay(4)},            // half-way through warm-up
		{9, 9, 1e-2 * decay(9)},                  // warm-up done
		{500, 500, 1e-4 + (1e-2-1e-4)*0.5},       // cosine midpoint
		{1000, 1000, 1e-4},                       // end of decay
		{5000, 5000, 1e-4},                       // stays at MinLR
		{500, 0, 0.1 * (1e-4 + (1e-2-1e-4)*0.5)}, // resumed: warm-up again
	}
	for _, k := range cases {
		if got := c.LearningRate(k.step, k.since); math.Abs(got-k.want) > 1e-12 {
			t.Errorf("LearningRate(%d, %d) = %g, want %g", k.step, k.since, got, k.want)
		}
	}
	flat := Config{LR: 3e-3}
	for _, s := range []int{0, 1, 1e6} {
		if got := flat.LearningRate(s, s); got != 3e-3 {
			t.Errorf("constant schedule at %d = %g, want 3e-3", s, got)
		}
	}
}
