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
		{"min_lr", func(c *Config) { c.MinLR = c.LR * 2 }},
		{"min_lr", func(c *Config) { c.MinLR = -1 }},
		{"schedule", func(c *Config) { c.Schedule = "linear" }},
		{"schedule", func(c *Config) { c.Schedule = "" }},
		{"weight_decay", func(c *Config) { c.WeightDecay = -1e-4 }},
		{"weight_decay", func(c *Config) { c.WeightDecay = 1 / c.LR }},
		{"weight_decay", func(c *Config) { c.WeightDecay = math.NaN() }},
		{"value_weight", func(c *Config) { c.ValueWeight = -1 }},
		{"score_weight", func(c *Config) { c.ScoreWeight = math.Inf(1) }},
		{"parallel", func(c *Config) { c.Parallel = 0 }},
		{"parallel", func(c *Config) { c.Parallel = 65 }},
		{"parallel", func(c *Config) { c.Batch, c.Parallel = 3, 4 }},
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

func TestRate(t *testing.T) {
	base := Config{LR: 1e-2, MinLR: 1e-4}
	cases := []struct {
		schedule string
		p, want  float64
	}{
		{ScheduleCosine, 0, 1e-2},
		{ScheduleCosine, -1, 1e-2}, // clamped
		{ScheduleCosine, 0.25, 1e-4 + (1e-2-1e-4)*0.5*(1+math.Sqrt(0.5))},
		{ScheduleCosine, 0.5, 1e-4 + (1e-2-1e-4)*0.5},
		{ScheduleCosine, 1, 1e-4},
		{ScheduleCosine, 7, 1e-4}, // clamped
		{ScheduleStep, 0, 1e-2},
		{ScheduleStep, 0.4999, 1e-2},
		{ScheduleStep, 0.5, 1e-3},
		{ScheduleStep, 0.7499, 1e-3},
		{ScheduleStep, 0.75, 1e-4},
		{ScheduleStep, 1, 1e-4},
		{ScheduleConstant, 0, 1e-2},
		{ScheduleConstant, 1, 1e-2},
	}
	for _, k := range cases {
		c := base
		c.Schedule = k.schedule
		if got := c.Rate(k.p); math.Abs(got-k.want) > 1e-12 {
			t.Errorf("%s Rate(%g) = %g, want %g", k.schedule, k.p, got, k.want)
		}
	}
}
