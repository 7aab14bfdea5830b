package train

import (
	"fmt"
	"time"

	"kumalak/net"
	"kumalak/rating"
)

// Finished returns why the run is finished, "" while it is not: its
// iteration count is done, its budget spent, or its budget's final
// evaluation played (finalEval ends a budget's run a little before the
// budget rather than after it).
func (r *Run) Finished() string {
	c, st := r.cfg, r.state
	switch {
	case c.Iterations > 0 && st.Iteration >= c.Iterations:
		return fmt.Sprintf("its %d iterations are done", c.Iterations)
	case c.Budget > 0 && st.Elapsed() >= c.Budget:
		return fmt.Sprintf("its budget of %s is spent (%s trained)", shortDuration(c.Budget), st.Elapsed().Round(time.Second))
	case c.Budget > 0 && st.FinalBudgetSec >= c.Budget.Seconds():
		return fmt.Sprintf("its budget of %s ended with the final evaluation (%s trained)", shortDuration(c.Budget), st.Elapsed().Round(time.Second))
	}
	return ""
}

// Further returns the train flags that continue the finished run as far
// again: twice its budget, or twice its iterations.
func (r *Run) Further() string {
	c := r.cfg
	if c.Budget > 0 && (c.Iterations == 0 || r.state.Iteration < c.Iterations) {
		return "--budget " + shortDuration(2*c.Budget)
	}
	return fmt.Sprintf("--iterations %d", 2*max(c.Iterations, r.state.Iteration))
}

// shortDuration writes d as a person types it: 6m, 1h30m, 45s.
func shortDuration(d time.Duration) string {
	s := d.Round(time.Second).String()
	for _, z := range []string{"m0s", "h0m"} {
		if len(s) > len(z) && s[len(s)-len(z):] == z {
			s = s[:len(s)-len(z)+1]
		}
	}
	return s
}

// left returns the time the run has still to train at now, in an
// iteration begun at t0, and whether it is known: with a budget, the rest
// of it (its final evaluation is counted in it, finalEval); with an
// iteration count, the iterations still to go at the mean iteration's
// time so far and the final evaluation's extra games (unknown before the
// first iteration ends); the sooner of the two with both.
func (r *Run) left(now, t0 time.Time) (time.Duration, bool) {
	c, st := r.cfg, r.state
	ran := st.Elapsed() + now.Sub(t0)
	var left time.Duration
	known := false
	if c.Iterations > 0 && st.Iteration > 0 {
		mean := st.Elapsed() / time.Duration(st.Iteration)
		left = time.Duration(c.Iterations-st.Iteration)*mean - now.Sub(t0)
		if r.hasFinal() {
			left += r.finalTook() - r.evalTook
		}
		known = true
	}
	if c.Budget > 0 && (!known || c.Budget-ran < left) {
		left, known = c.Budget-ran, true
	}
	return max(left, 0), known
}

// leftText is left for a progress bar: "run 1m5s of 3m, 1m55s left".
func (r *Run) leftText(t0 time.Time) string {
	now := r.opt.Now()
	ran := (r.state.Elapsed() + now.Sub(t0)).Round(time.Second)
	left, ok := r.left(now, t0)
	switch {
	case r.cfg.Budget > 0:
		return fmt.Sprintf("run %s of %s, %s left", ran, shortDuration(r.cfg.Budget), left.Round(time.Second))
	case ok:
		return fmt.Sprintf("run %s, iteration %d of %d, about %s left", ran, r.state.Iteration+1, r.cfg.Iterations, left.Round(time.Second))
	}
	return fmt.Sprintf("run %s, iteration %d of %d", ran, r.state.Iteration+1, r.cfg.Iterations)
}

// Versus is what the run's rating says of its best network against
// another model's card (the shipped model's): the two ratings, and
// whether they are on one scale (the same player rated 0) at all.
type Versus struct {
	Rating, Other *rating.Rating
	Zero          string // the player rated 0 on the run's scale
	Iteration     int    // the iteration whose evaluation rated the best network
	Comparable    bool   // both rated, on scales with the same player at 0
}

// Verdict says, from the intervals alone, how the two compare: "weaker
// than" or "stronger than" when the 95% intervals lie apart, else "not
// told apart from" (the ratings alone cannot say); "" when they are not
// comparable.
func (v Versus) Verdict() string {
	switch {
	case !v.Comparable:
		return ""
	case v.Rating.Elo+v.Rating.Err < v.Other.Elo-v.Other.Err:
		return "weaker than"
	case v.Rating.Elo-v.Rating.Err > v.Other.Elo+v.Other.Err:
		return "stronger than"
	}
	return "not told apart from"
}

// Against compares the rating of the run's best network (its last
// evaluation that rated it, from the metrics log) with card's.
func (r *Run) Against(card *net.Card) (Versus, error) {
	v := Versus{Zero: r.cfg.Eval.zero()}
	ms, err := ReadMetrics(r.dir.Metrics())
	if err != nil {
		return v, err
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Eval.Rating != nil && ms[i].Best == r.state.BestIteration {
			v.Rating, v.Iteration = ms[i].Eval.Rating, ms[i].Iteration
			break
		}
	}
	if card != nil {
		v.Other = card.Rating
		v.Comparable = v.Rating != nil && v.Other != nil && card.Anchors != nil && card.Anchors.ZeroName() == v.Zero
	}
	return v, nil
}
