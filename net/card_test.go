package net

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kumalak/rating"
)

// The golden files were written by the build before Card was a type, when
// the card was free-form JSON written by the training loop's export: every
// field of today's Card must read back from them.
func TestCardGoldenFiles(t *testing.T) {
	m, err := LoadFor(filepath.Join("testdata", "card-v1.kmodel"), "togyz", "togyz-obs-1")
	if err != nil {
		t.Fatal(err)
	}
	c := m.Meta.Card
	if c == nil {
		t.Fatal("card-v1.kmodel: no card")
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"game", c.Game == "togyz" && c.Title == "Togyz Kumalak" && c.ObsVersion == "togyz-obs-1"},
		{"run", c.Run == "runs/togyz" && c.Iteration == 41 && c.Iterations == 48 && c.TrainedConfig == "runs/togyz/config.yaml"},
		{"training", c.TrainingTime == "30m0s" && c.TrainingSec == 1800.5 && c.Games == 9600 && c.Samples == 1234567 && c.Steps == 24000},
		{"network", c.Parameters == m.Params.Count() && c.Architecture == m.Params.Config.Describe()},
		{"search", c.SearchSettings() == Search{Sims: 400, CPuct: 1.25}},
		{"elo", len(c.Elo) == 2 && c.Elo["ab:depth=2"] == rating.Match{Games: 40, Wins: 20, Draws: 4, Losses: 16, Score: 0.55, Elo: 34.9, EloLo: -70.2, EloHi: 141.3} && c.EloIteration == 40},
		{"rating", c.Rating != nil && *c.Rating == rating.Rating{Elo: 812.5, Err: 61.2}},
		{"anchors", c.Anchors != nil && c.Anchors.Games == 60 && c.Anchors.Ratings["greedy"] == 310.4 && c.Anchors.Errors["greedy"] == 40.1},
		{"exported", c.Exported.Equal(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))},
	}
	for _, ch := range checks {
		if !ch.ok {
			t.Errorf("card-v1.kmodel: %s differs: %+v", ch.name, c)
		}
	}
	m, err = Load(filepath.Join("testdata", "nocard-v1.kmodel"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Meta.Card != nil || m.Meta.Card.SearchSettings() != (Search{}) || m.Meta.Iteration != 41 {
		t.Errorf("nocard-v1.kmodel: card %+v, iteration %d", m.Meta.Card, m.Meta.Iteration)
	}
}

// A card survives Save and Load field for field, and no card stays none.
func TestCardRoundTrip(t *testing.T) {
	for _, card := range []*Card{nil, {}, kmodelTestModel(kmodelTiny).Meta.Card} {
		m := kmodelTestModel(kmodelTiny)
		m.Meta.Card = card
		got := kmodelRoundTrip(t, m)
		sameModel(t, got, m)
	}
}

func TestEloNoBound(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct{ in, want float64 }{{inf, rating.EloNoBound}, {-inf, -rating.EloNoBound}, {math.NaN(), 0}, {12.5, 12.5}} {
		if got := rating.ClampElo(c.in); got != c.want {
			t.Errorf("rating.ClampElo(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	m := rating.Match{Elo: rating.ClampElo(inf), EloLo: 120.4, EloHi: rating.ClampElo(inf)}
	if got := m.EloText(); got != "+inf [+120, +inf]" {
		t.Errorf("EloText = %q", got)
	}
	var sb strings.Builder
	c := &Card{Run: "r", Elo: map[string]rating.Match{"random": m}}
	c.WriteText(&sb)
	if !strings.Contains(sb.String(), "vs random") || !strings.Contains(sb.String(), "elo +inf [+120, +inf]") {
		t.Errorf("WriteText:\n%s", sb.String())
	}
}
