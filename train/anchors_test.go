package train

import (
	"math"
	"strings"
	"testing"
	"time"

	"kumalak/net"
	"kumalak/rating"
)

// TestRateAgainstAnchorErrors: the rating's interval adds the anchors'
// errors in quadrature, each weighted by its baseline's share of the
// Fisher information, on hand-made cases.
func TestRateAgainstAnchorErrors(t *testing.T) {
	// Symmetric results against baselines rated 0 and 800 put the network
	// at 400, where both weigh the same: the anchor at 800 (error 100)
	// adds (1/2)^2 * 100^2 to the variance; random (error 0) adds nothing.
	a := &net.Anchors{Ratings: map[string]float64{"random": 0, "ab": 800}, Errors: map[string]float64{"random": 0, "ab": 100}}
	res := map[string]rating.Match{"random": {Games: 100, Wins: 90, Losses: 10}, "ab": {Games: 100, Wins: 10, Losses: 90}}
	_, fit := rating.RateAgainst([]float64{0, 800}, []float64{90, 10}, []float64{100, 100}, ratePrior)
	cases := []struct {
		name    string
		a       *net.Anchors
		res     map[string]rating.Match
		elo, hw float64
	}{
		{"two baselines", a, res, 400, math.Sqrt(fit*fit + 50*50)},
		{"exact anchors", &net.Anchors{Ratings: a.Ratings, Errors: map[string]float64{}}, res, 400, fit},
	}
	// One baseline rated 300 ± 60, an even score: the whole anchor error
	// passes to the rating.
	_, fit1 := rating.RateAgainst([]float64{300}, []float64{50}, []float64{100}, ratePrior)
	cases = append(cases, struct {
		name    string
		a       *net.Anchors
		res     map[string]rating.Match
		elo, hw float64
	}{"one baseline", &net.Anchors{Ratings: map[string]float64{"ab": 300}, Errors: map[string]float64{"ab": 60}},
		map[string]rating.Match{"ab": {Games: 100, Wins: 40, Draws: 20, Losses: 40}}, 300, math.Sqrt(fit1*fit1 + 60*60)})
	for _, c := range cases {
		r, _, _ := rateAgainst(c.a, nil, c.res)
		if r == nil || math.Abs(r.Elo-c.elo) > 0.01 || math.Abs(r.Err-c.hw) > 0.01 {
			t.Errorf("%s: %+v, want elo %.2f ± %.2f", c.name, r, c.elo, c.hw)
		}
	}
	if fit1 < 60 || fit1 > 75 { // 1.96 / sqrt(101/4 * (ln10/400)^2) = 67.8
		t.Errorf("fit half-width at 50%% over 100 games %.1f, want about 67.8", fit1)
	}
	if r, _, _ := rateAgainst(a, nil, map[string]rating.Match{"other": {Games: 10}}); r != nil {
		t.Errorf("no rated baseline: %+v", r)
	}
}

// TestFinalEval: the last iteration of a count, and an iteration after
// which another as long, a regular evaluation (as long as the last one)
// and the final one (that scaled by its games) would not fit in the
// budget, play the final evaluation's games; nothing does when they are
// off or the baselines are.
func TestFinalEval(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	at := func(d time.Duration) func() time.Time { return func() time.Time { return t0.Add(d) } }
	ev := EvalConfig{Baselines: []string{"greedy"}, BaselineEvery: 3, BaselineGames: 20, FinalBaselineGames: 200}
	cases := []struct {
		name       string
		ev         EvalConfig
		iters, it  int
		budget     time.Duration
		elapsed    float64 // seconds before the iteration
		iterSoFar  time.Duration
		evalTook   time.Duration // the last regular baseline evaluation
		final, due bool
	}{
		{"last of a count", ev, 10, 10, 0, 0, time.Minute, 0, true, true},
		{"not last of a count", ev, 10, 4, 0, 0, time.Minute, 0, false, false},
		{"ends past the budget", ev, 0, 50, 30 * time.Minute, 1780, time.Minute, 0, true, true},
		{"next one will", ev, 0, 50, 30 * time.Minute, 1700, 60 * time.Second, 0, true, true},
		{"its evaluation ends past the budget", ev, 0, 50, 30 * time.Minute, 1785, 7 * time.Second, 5 * time.Second, true, true},
		// 1780 + 2*7 + 5 = 1799 s, but the final evaluation's 200 games take
		// ten times the regular 20's 5 s: the next one's would end past it.
		{"its final evaluation would end past the budget", ev, 0, 50, 30 * time.Minute, 1780, 7 * time.Second, 5 * time.Second, true, true},
		{"its final evaluation ends before the budget", ev, 0, 50, 30 * time.Minute, 1730, 7 * time.Second, 5 * time.Second, false, false},
		{"far from the budget", ev, 0, 50, 30 * time.Minute, 1000, time.Minute, 0, false, false},
		{"off", EvalConfig{Baselines: ev.Baselines, BaselineEvery: 3, BaselineGames: 20}, 10, 10, 0, 0, time.Minute, 0, false, true},
		{"no baselines", EvalConfig{BaselineEvery: 3, FinalBaselineGames: 200}, 10, 10, 0, 0, time.Minute, 0, false, false},
	}
	for _, c := range cases {
		r := &Run{cfg: Config{Iterations: c.iters, Budget: c.budget, Eval: c.ev}, state: State{ElapsedSec: c.elapsed}, opt: Options{Now: at(c.iterSoFar)}, evalTook: c.evalTook}
		if got := r.finalEval(c.it, t0); got != c.final {
			t.Errorf("%s: final %v, want %v", c.name, got, c.final)
		}
		if got := r.finalEval(c.it, t0) || r.baselinesDue(c.it); got != c.due {
			t.Errorf("%s: baselines played %v, want %v", c.name, got, c.due)
		}
	}
	bad := DefaultConfig().Eval
	bad.FinalBaselineGames = 1
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "final_baseline_games") {
		t.Errorf("final_baseline_games 1: %v", err)
	}
}

// A run folder's anchors are used only when they rate the config's anchor
// and every baseline; files without a zero were rated on random.
func TestAnchorsRateTheConfig(t *testing.T) {
	ev := DefaultConfig().Eval
	ev.Baselines = []string{"greedy", "ab:depth=2"}
	old := &net.Anchors{Ratings: map[string]float64{"random": 0, "greedy": 300, "ab:depth=2": 700}}
	onAB := &net.Anchors{Zero: "ab:depth=2", Ratings: map[string]float64{"greedy": -400, "ab:depth=2": 0}}
	for _, c := range []struct {
		anchor string
		a      *net.Anchors
		want   bool
	}{
		{"random", old, true},
		{"ab:depth=2", old, false},
		{"ab:depth=2", onAB, true},
		{"random", onAB, false},
		{"random", &net.Anchors{Ratings: map[string]float64{"random": 0, "greedy": 300}}, false},
	} {
		ev.Anchor = c.anchor
		r := &Run{cfg: Config{Eval: ev}}
		if got := r.rates(c.a); got != c.want {
			t.Errorf("anchor %s, anchors %v (zero %q): %v, want %v", c.anchor, c.a, c.a.Zero, got, c.want)
		}
	}
}
