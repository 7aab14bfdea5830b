package mcts

import (
	"strings"
	"testing"
)

// TestVisitsLimit: Visits counts the visits kept from tree reuse.
func TestVisitsLimit(t *testing.T) {
	for _, kind := range []Kind{PUCT, Gumbel} {
		cfg := DefaultConfig()
		cfg.Kind = kind
		s := newTest(kala6, Uniform{}, cfg, 1)
		st := kala6.New()
		s.Reset(st)
		if err := s.Run(ctx, Limits{Visits: 300}); err != nil {
			t.Fatal(err)
		}
		if v := s.Root().Visits; v != 300 {
			t.Fatalf("%s: %d root visits, want 300", kind, v)
		}
		a := s.Choose(0)
		st.Apply(a)
		s.Advance(a, st)
		kept := s.Root().Visits
		if kept < 2 {
			t.Fatalf("%s: kept %d visits", kind, kept)
		}
		if err := s.Run(ctx, Limits{Visits: kept + 10}); err != nil {
			t.Fatal(err)
		}
		if v := s.Root().Visits; v != kept+10 {
			t.Errorf("%s: %d visits after Visits %d, want %d", kind, v, kept+10, kept+10)
		}
		if err := s.Run(ctx, Limits{Visits: kept}); err != nil {
			t.Fatal(err)
		}
		if v := s.Root().Visits; v != kept+10 {
			t.Errorf("%s: a met Visits limit still searched (%d visits)", kind, v)
		}
	}
}

func TestValidateGumbel(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(*Config)
	}{
		{"Kind", func(c *Config) { c.Kind = "alphabeta" }},
		{"Kind", func(c *Config) { c.Kind = "" }},
		{"GumbelM", func(c *Config) { c.GumbelM = 0 }},
		{"GumbelM", func(c *Config) { c.GumbelM = 257 }},
		{"GumbelScale", func(c *Config) { c.GumbelScale = -1 }},
		{"CVisit", func(c *Config) { c.CVisit = -1 }},
		{"CScale", func(c *Config) { c.CScale = 0 }},
	} {
		c := gumbelConfig(4)
		tc.edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("bad %s: error %v, want one naming the field", tc.field, err)
		}
	}
	if err := (Limits{Visits: -1}).validate(); err == nil {
		t.Error("negative Visits accepted")
	}
	if err := (Limits{Visits: 5}).validate(); err != nil {
		t.Errorf("Visits alone: %v", err)
	}
}
