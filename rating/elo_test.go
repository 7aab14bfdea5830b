package rating

import (
	"math"
	"strings"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestEloFromScore(t *testing.T) {
	for _, tc := range []struct{ s, elo float64 }{
		{0.5, 0}, {0.75, 190.848501887865}, {0.25, -190.848501887865},
		{10.0 / 11, 400}, {0.9, 381.697003775730}, {1, math.Inf(1)}, {0, math.Inf(-1)},
	} {
		if got := EloFromScore(tc.s); !(got == tc.elo || near(got, tc.elo, 1e-9)) {
			t.Errorf("EloFromScore(%v) = %v, want %v", tc.s, got, tc.elo)
		}
		if !math.IsInf(tc.elo, 0) && !near(ScoreFromElo(tc.elo), tc.s, 1e-12) {
			t.Errorf("ScoreFromElo(%v) = %v, want %v", tc.elo, ScoreFromElo(tc.elo), tc.s)
		}
	}
}

// TestEloInterval checks the trinomial interval against a hand computation:
// 60 W, 20 D, 20 L: s = 0.7, per-game variance (60·0.09 + 20·0.04 +
// 20·0.49)/100 = 0.16, so s ± 1.96·0.04.
func TestEloInterval(t *testing.T) {
	e := EloOfCounts(Counts{W: 60, D: 20, L: 20})
	half := Z95 * 0.04
	want := Elo{EloFromScore(0.7), EloFromScore(0.7 - half), EloFromScore(0.7 + half)}
	if !near(e.Diff, 147.2, 0.1) || !near(e.Lo, want.Lo, 1e-9) || !near(e.Hi, want.Hi, 1e-9) {
		t.Errorf("got %v, want %v", e, want)
	}
	if got := e.String(); got != "+147.2 [+86.2, +218.3]" {
		t.Errorf("String() = %q", got)
	}
	// All wins: below, the score at which 10 straight wins have a 2.5%
	// chance: 0.025^(1/10) = 0.6915, +140.2; the estimate and the upper
	// bound the +0.5 pseudo-count's 10.5/11, +529.9.
	if e := EloOfCounts(Counts{W: 10}); !near(e.Diff, EloFromScore(10.5/11), 1e-9) || e.Hi != e.Diff || !near(e.Lo, 140.2, 0.05) {
		t.Errorf("all wins: %v", e)
	}
	if e := EloOfPairs(Pairs{5}); !near(e.Lo, -EloFromScore(5.5/6), 1e-9) || !near(e.Hi, -EloFromScore(math.Pow(0.025, 0.2)), 1e-9) {
		t.Errorf("all pairs lost: %v", e)
	}
	// Near a sweep the normal bound passes 1: it stops at the pseudo-count's.
	if e := EloOfCounts(Counts{W: 15, L: 1}); math.IsInf(e.Hi, 0) || !near(e.Hi, EloFromScore(1-0.5/17), 1e-9) || e.Lo >= e.Diff {
		t.Errorf("15-1: %v", e)
	}
	if got := EloOfCounts(Counts{W: 16}).String(); strings.Contains(got, "inf") {
		t.Errorf("16-0 prints %q", got)
	}
	// Pairs: 10 pairs of 1.5 and 10 of 0.5: mean 0.5, per-pair variance
	// 1/16, so ±1.96·0.25/sqrt(20).
	p := EloOfPairs(Pairs{0, 10, 0, 10, 0})
	h := Z95 * 0.25 / math.Sqrt(20)
	if p.Diff != 0 || !near(p.Hi, EloFromScore(0.5+h), 1e-9) || !near(p.Lo, -p.Hi, 1e-9) {
		t.Errorf("pairs: %v", p)
	}
}

func TestLOS(t *testing.T) {
	if got := LOS(Counts{W: 10, L: 10, D: 50}); got != 0.5 {
		t.Errorf("even: %v", got)
	}
	// (W-L)/sqrt(W+L) = 2: Φ(2) = 0.97725.
	if got := LOS(Counts{W: 12, L: 4}); !near(got, 0.977249868, 1e-8) {
		t.Errorf("12-4: %v", got)
	}
}
