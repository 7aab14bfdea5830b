package train

import (
	"strings"
	"testing"
	"time"

	"kumalak/net"
	"kumalak/rating"
)

// fakeRun is a run of cfg at state st whose clock reads now.
func fakeRun(cfg Config, st State, now *time.Time) *Run {
	return &Run{cfg: cfg, state: st, opt: Options{Now: func() time.Time { return *now }}}
}

// TestLeftFromTheFirstIteration: the run's time left, on a fake clock, is
// sane from the first iteration on: a budget's rest (not a rolling rate's
// hours), an iteration count's iterations at their mean time plus the
// final evaluation's extra games, unknown before any iteration ended.
func TestLeftFromTheFirstIteration(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC)
	now := t0.Add(10 * time.Second)
	budget := DefaultConfig()
	budget.Budget, budget.Iterations = 3*time.Minute, 0
	iters := DefaultConfig()
	iters.Budget, iters.Iterations = 0, 10
	both := iters
	both.Budget = time.Minute
	for _, c := range []struct {
		name     string
		cfg      Config
		st       State
		evalTook time.Duration
		want     time.Duration
		known    bool
		text     string
	}{
		{"budget, first iteration", budget, State{}, 0, 170 * time.Second, true, "run 10s of 3m, 2m50s left"},
		{"budget, later", budget, State{Iteration: 5, ElapsedSec: 100}, 2 * time.Second, 70 * time.Second, true, "run 1m50s of 3m, 1m10s left"},
		{"budget spent", budget, State{Iteration: 20, ElapsedSec: 200}, 0, 0, true, "run 3m30s of 3m, 0s left"},
		{"iterations, first", iters, State{}, 0, 0, false, "run 10s, iteration 1 of 10"},
		// 8 iterations of 20 s to go, 10 s of this one done, and the final
		// evaluation plays 200 games a baseline where a regular one played
		// 20 in 2 s: 18 s more.
		{"iterations, third", iters, State{Iteration: 2, ElapsedSec: 40}, 2 * time.Second, 168 * time.Second, true, "run 50s, iteration 3 of 10, about 2m48s left"},
		{"both, the budget first", both, State{Iteration: 2, ElapsedSec: 40}, 2 * time.Second, 10 * time.Second, true, "run 50s of 1m, 10s left"},
	} {
		r := fakeRun(c.cfg, c.st, &now)
		r.evalTook = c.evalTook
		got, known := r.left(now, t0)
		if got != c.want || known != c.known {
			t.Errorf("%s: left %v (known %v), want %v (%v)", c.name, got, known, c.want, c.known)
		}
		if text := r.leftText(t0); text != c.text {
			t.Errorf("%s: %q, want %q", c.name, text, c.text)
		}
	}
}

// TestFinalEvalFitsTheBudget: on a fake clock, a budget's final evaluation
// is played when another iteration and the final evaluation (its games
// scaled from the last regular one's time) would not fit in the rest of
// the budget, so that the run ends by its budget; once played, the run is
// finished, and a larger budget goes on.
func TestFinalEvalFitsTheBudget(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Budget, cfg.Iterations = 3*time.Minute, 0
	cfg.Eval.BaselineGames, cfg.Eval.FinalBaselineGames = 20, 200
	t0 := time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC)
	now := t0.Add(5 * time.Second) // self-play, training and gating took 5 s
	for _, c := range []struct {
		elapsed float64
		final   bool
	}{
		{100, false}, // 100 + 2*5 + 2 + 20 = 132 < 180
		{140, false}, // 172
		{150, true},  // 182: the next iteration and a final evaluation would end past 3m
		{178, true},
	} {
		r := fakeRun(cfg, State{Iteration: 10, ElapsedSec: c.elapsed}, &now)
		r.evalTook = 2 * time.Second
		if got := r.finalEval(11, t0); got != c.final {
			t.Errorf("at %.0fs trained: final %v, want %v", c.elapsed, got, c.final)
		}
	}
	// The final evaluation at 150 s ends the iteration at 150+5+20 = 175 s:
	// inside the budget, and the run is finished there.
	r := fakeRun(cfg, State{Iteration: 11, ElapsedSec: 175, FinalBudgetSec: 180}, &now)
	if why := r.Finished(); !strings.Contains(why, "ended with the final evaluation") || !r.done() {
		t.Errorf("after the final evaluation: finished %q", why)
	}
	if got := r.Further(); got != "--budget 6m" {
		t.Errorf("further: %q, want --budget 6m", got)
	}
	cfg.Budget = 6 * time.Minute
	if r := fakeRun(cfg, r.state, &now); r.done() {
		t.Error("a run resumed with a larger budget is finished")
	}
}

// TestFinished: why a run is finished, and the flags that extend it.
func TestFinished(t *testing.T) {
	var now time.Time
	iters := DefaultConfig()
	iters.Budget, iters.Iterations = 0, 2
	budget := DefaultConfig()
	budget.Budget, budget.Iterations = 90*time.Minute, 0
	for _, c := range []struct {
		cfg          Config
		st           State
		why, further string
	}{
		{iters, State{Iteration: 1}, "", "--iterations 4"},
		{iters, State{Iteration: 2}, "its 2 iterations are done", "--iterations 4"},
		{budget, State{Iteration: 9, ElapsedSec: 5401}, "its budget of 1h30m is spent (1h30m1s trained)", "--budget 3h"},
		{budget, State{Iteration: 9, ElapsedSec: 60}, "", "--budget 3h"},
	} {
		r := fakeRun(c.cfg, c.st, &now)
		if why, further := r.Finished(), r.Further(); why != c.why || further != c.further {
			t.Errorf("%+v: %q, %q; want %q, %q", c.st, why, further, c.why, c.further)
		}
	}
}

// TestVerdict: a run's rating is weaker or stronger than another only when
// the 95% intervals lie apart, and compared only on one scale.
func TestVerdict(t *testing.T) {
	shipped := &rating.Rating{Elo: 504, Err: 55}
	for _, c := range []struct {
		v    Versus
		want string
	}{
		{Versus{Rating: &rating.Rating{Elo: -462, Err: 80}, Other: shipped, Comparable: true}, "weaker than"},
		{Versus{Rating: &rating.Rating{Elo: 420, Err: 40}, Other: shipped, Comparable: true}, "not told apart from"},
		{Versus{Rating: &rating.Rating{Elo: 700, Err: 40}, Other: shipped, Comparable: true}, "stronger than"},
		{Versus{Rating: &rating.Rating{Elo: -462, Err: 80}, Other: shipped}, ""},
	} {
		if got := c.v.Verdict(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.v.Rating, got, c.want)
		}
	}
}

// TestAgainst reads the best network's last rating from the metrics log
// and compares it with a card rated on the same scale; on another scale
// (another player rated 0) it claims nothing.
func TestAgainst(t *testing.T) {
	d := Dir(t.TempDir())
	for _, m := range []Metrics{
		{Iteration: 1, Best: 1, Eval: EvalMetrics{Rating: &rating.Rating{Elo: -900, Err: 90}}},
		{Iteration: 2, Best: 2, Eval: EvalMetrics{Rating: &rating.Rating{Elo: -462, Err: 80}, Final: true}},
		{Iteration: 3, Best: 2}, // not promoted, not rated: iteration 2's rating still is the best's
	} {
		if err := appendMetrics(d.Metrics(), m); err != nil {
			t.Fatal(err)
		}
	}
	cfg := DefaultConfig()
	cfg.Eval.Anchor = "ab:depth=6"
	var now time.Time
	r := fakeRun(cfg, State{Iteration: 3, BestIteration: 2}, &now)
	r.dir = d
	card := &net.Card{Rating: &rating.Rating{Elo: 504, Err: 55}, Anchors: &net.Anchors{Zero: "ab:depth=6"}}
	v, err := r.Against(card)
	if err != nil || !v.Comparable || v.Iteration != 2 || v.Rating.Elo != -462 || v.Verdict() != "weaker than" {
		t.Fatalf("against the shipped card: %+v, %v; want iteration 2's -462, weaker", v, err)
	}
	card.Anchors.Zero = "random"
	if v, _ := r.Against(card); v.Comparable || v.Verdict() != "" {
		t.Errorf("on another scale: %+v, want no verdict", v)
	}
}
