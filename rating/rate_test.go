package rating

import (
	"math"
	"testing"
)

func TestRateAgainst(t *testing.T) {
	// 75 points of 100 against a player rated 0: +190.85, the Elo of a 75% score.
	elo, err := RateAgainst([]float64{0}, []float64{75}, []float64{100}, 0)
	if math.Abs(elo-190.848) > 0.01 {
		t.Errorf("elo %.3f, want 190.848", elo)
	}
	// Fisher information: 100 * 0.75 * 0.25 * (ln10/400)^2.
	want := 1.959964 / math.Sqrt(100*0.75*0.25*eloScale*eloScale)
	if math.Abs(err-want) > 0.01 {
		t.Errorf("interval %.3f, want %.3f", err, want)
	}
	// Half the points against 1000 and 1200: the mean rating, 1100.
	elo, _ = RateAgainst([]float64{1000, 1200}, []float64{20, 20}, []float64{40, 40}, 0)
	if math.Abs(elo-1100) > 0.01 {
		t.Errorf("symmetric: %.3f, want 1100", elo)
	}
	// The rating reproduces the points: expected scores add up to them.
	r, p, g := []float64{0, 400, 800}, []float64{38, 25, 6}, []float64{40, 40, 40}
	elo, _ = RateAgainst(r, p, g, 0)
	sum := 0.0
	for i := range r {
		sum += g[i] * expected(elo, r[i])
	}
	if math.Abs(sum-69) > 1e-6 {
		t.Errorf("expected points %.6f, want 69", sum)
	}
	// A clean sweep is infinite without a prior, finite with one.
	if elo, _ := RateAgainst([]float64{0}, []float64{10}, []float64{10}, 0); !math.IsInf(elo, 1) {
		t.Errorf("sweep without prior: %v", elo)
	}
	if elo, err := RateAgainst([]float64{0}, []float64{10}, []float64{10}, 1); math.IsInf(elo, 0) || elo < 300 || math.IsNaN(err) {
		t.Errorf("sweep with prior: %v ± %v", elo, err)
	}
	if elo, _ := RateAgainst([]float64{0}, []float64{0}, []float64{0}, 1); !math.IsNaN(elo) {
		t.Errorf("no games: %v", elo)
	}
}
