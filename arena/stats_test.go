package arena

import (
	"math"
	"testing"

	"kumalak/rating"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestLLR compares with values from an independent implementation of
// fishtest's LLR_logistic (Python, bisection on the secular equation).
func TestLLR(t *testing.T) {
	for _, tc := range []struct {
		counts     []int // L, D, W or the pentanomial
		elo0, elo1 float64
		want       float64
	}{
		{[]int{10, 20, 30}, 0, 10, 0.8291213438037827},
		{[]int{300, 400, 350}, 0, 5, 0.9870204773469334},
		{[]int{120, 80, 200}, -3, 3, 1.7269237319823285},
		{[]int{5, 40, 120, 45, 10}, 0, 5, 0.5217521025565371},
		{[]int{0, 12, 30, 10, 2}, 0, 10, 0.047304125643582544},
		{[]int{0, 0, 10}, 0, 50, 1.3358977898254127},
	} {
		s := NewSPRT(tc.elo0, tc.elo1)
		var got float64
		if len(tc.counts) == 3 {
			got = s.LLRCounts(rating.Counts{L: tc.counts[0], D: tc.counts[1], W: tc.counts[2]})
		} else {
			got = s.LLRPairs(rating.Pairs(tc.counts))
		}
		if !near(got, tc.want, 1e-9) {
			t.Errorf("LLR(%v, %v..%v) = %.12f, want %.12f", tc.counts, tc.elo0, tc.elo1, got, tc.want)
		}
	}
}

func TestSPRTBoundsAndVerdict(t *testing.T) {
	s := NewSPRT(0, 10)
	lo, hi := s.Bounds()
	if !near(lo, -2.944438979, 1e-9) || !near(hi, 2.944438979, 1e-9) {
		t.Errorf("bounds %v %v", lo, hi)
	}
	for _, tc := range []struct {
		llr  float64
		want Verdict
	}{{3, AcceptH1}, {-3, AcceptH0}, {0.5, Inconclusive}} {
		if got := s.Verdict(tc.llr); got != tc.want {
			t.Errorf("Verdict(%v) = %v", tc.llr, got)
		}
	}
	if err := (SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}).Validate(); err == nil {
		t.Error("elo0 > elo1 accepted")
	}
	if err := (SPRT{Elo0: 0, Elo1: 5, Alpha: 0, Beta: 0.05}).Validate(); err == nil {
		t.Error("alpha 0 accepted")
	}
}
