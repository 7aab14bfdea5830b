package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"kumalak/net"
	"kumalak/rating"
	"kumalak/train/ladder"
)

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

// ladderConfig is the tiny run with a ladder that climbs at every
// evaluation (a negative step): it grows by one rung an iteration.
func ladderConfig() Config {
	cfg := tinyConfig("togyz")
	cfg.Eval.Gate = "always"
	cfg.Eval.LadderRungs, cfg.Eval.LadderStep, cfg.Eval.LadderGames, cfg.Eval.LadderOpponents, cfg.Eval.LadderPlay = 2, -1000, 2, 2, 1
	return cfg
}

// TestLadderGrowsAndResumes: a tiny run with a ladder freezes a rung at
// each evaluation until the ladder is full, keeps the rungs (ratings,
// models, checksums) across a resume, plays them and rates with them; a
// rung frozen by an iteration after the checkpoint is dropped on resume,
// and a rung whose model changed is refused.
func TestLadderGrowsAndResumes(t *testing.T) {
	dir := Dir(t.TempDir())
	cfg := ladderConfig()
	r := openRun(t, cfg, dir, false)
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.Close()
	f := readLadder(t, dir)
	if len(f.Ladder) != 2 || f.Ladder[0].Name != "iter-0001" || f.Ladder[1].Name != "iter-0002" {
		t.Fatalf("ladder after 2 iterations: %+v", f.Ladder)
	}
	for _, rg := range f.Ladder {
		if _, ok := f.Ratings[rg.Name]; !ok || rg.Err <= 0 || rg.Sims != cfg.Eval.Sims || len(rg.Games) < 2 || rg.Loadings[rg.Name] <= 0 {
			t.Errorf("rung %+v: not rated, or no games or loadings", rg)
		}
		if _, err := rg.Model(dir.String()); err != nil {
			t.Error(err)
		}
	}
	ms, err := ReadMetrics(dir.Metrics())
	if err != nil || len(ms) != 2 {
		t.Fatalf("metrics: %d lines, %v", len(ms), err)
	}
	if ms[0].Eval.Rung != "iter-0001" || ms[1].Eval.Rung != "iter-0002" || len(ms[1].Eval.Ladder) != 1 || ms[1].Eval.Ladder["iter-0001"].Games != 2 {
		t.Errorf("metrics' ladder: %+v, %+v", ms[0].Eval, ms[1].Eval)
	}
	// A resumed, extended run keeps the full ladder, plays its top rung and
	// rates the network with it.
	cfg.Iterations = 3
	r = openRun(t, cfg, dir, true)
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.Close()
	g := readLadder(t, dir)
	if len(g.Ladder) != 2 || g.Ladder[1].SHA256 != f.Ladder[1].SHA256 || g.Ratings["iter-0002"] != f.Ratings["iter-0002"] {
		t.Fatalf("ladder after the resume: %+v, was %+v", g.Ladder, f.Ladder)
	}
	ms, _ = ReadMetrics(dir.Metrics())
	last := ms[len(ms)-1].Eval
	top := r.topRungs()[0].Name
	if last.Rung != "" || last.Ladder[top].Games != cfg.Eval.BaselineGames {
		t.Fatalf("iteration 3 played %+v against the ladder (top rung %s), froze %q", last.Ladder, top, last.Rung)
	}
	results := map[string]rating.Match{top: last.Ladder[top]}
	for k, v := range last.Baseline {
		results[k] = v
	}
	want, _, _ := ladder.Rate(&g.Anchors, g.Ladder, results)
	without, _, _ := ladder.Rate(&g.Anchors, g.Ladder, last.Baseline)
	if last.Rating == nil || want == nil || *last.Rating != *want || *without == *want {
		t.Errorf("rating %+v, want %+v from the baselines and the rung (%+v without it)", last.Rating, want, without)
	}

	// A rung frozen after the checkpoint (a kill before it) is dropped.
	extra := g.Ladder[1]
	extra.Name, extra.Frozen, extra.File = "iter-0004", 4, "ladder/iter-0004.kmodel"
	b, _ := os.ReadFile(dir.file(g.Ladder[1].File))
	if err := os.WriteFile(dir.file(extra.File), b, 0o644); err != nil {
		t.Fatal(err)
	}
	g.Ladder = append(g.Ladder, extra)
	g.Ratings[extra.Name], g.Errors[extra.Name] = extra.Elo, extra.Err
	writeLadder(t, dir, g)
	r = openRun(t, cfg, dir, true)
	r.Close()
	if h := readLadder(t, dir); len(h.Ladder) != 2 || h.Ratings[extra.Name] != 0 {
		t.Errorf("the unfinished iteration's rung was kept: %+v", h.Ladder)
	}
	if _, err := os.Stat(dir.file(extra.File)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the unfinished iteration's rung model was kept: %v", err)
	}

	// A rung whose model changed is refused, naming it.
	if err := os.WriteFile(dir.file(g.Ladder[0].File), append(b, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Iterations = 4
	r = openRun(t, cfg, dir, true)
	if err := r.Train(context.Background()); err == nil || !strings.Contains(err.Error(), "iter-0001") || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("a changed rung model: %v", err)
	}
}

func readLadder(t *testing.T, d Dir) *ladder.File {
	t.Helper()
	f, err := ladder.Load(d.Anchors())
	if err != nil || f == nil {
		t.Fatalf("anchors: %v, %v", f, err)
	}
	return f
}

func writeLadder(t *testing.T, d Dir, f *ladder.File) {
	t.Helper()
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(d.Anchors(), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLadderConfig: the ladder's keys are checked, naming the field.
func TestLadderConfig(t *testing.T) {
	for _, c := range []struct {
		key string
		set func(*EvalConfig)
	}{
		{"ladder_rungs", func(e *EvalConfig) { e.LadderRungs = -1 }},
		{"anchor_games", func(e *EvalConfig) { e.AnchorGames = 0 }},
		{"ladder_step", func(e *EvalConfig) { e.LadderStep = math.NaN() }},
		{"ladder_games", func(e *EvalConfig) { e.LadderGames = 1 }},
		{"ladder_opponents", func(e *EvalConfig) { e.LadderOpponents = 0 }},
		{"ladder_play", func(e *EvalConfig) { e.LadderPlay = e.LadderRungs + 1 }},
	} {
		e := ladderConfig().Eval
		c.set(&e)
		if err := e.Validate(); err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%s: %v", c.key, err)
		}
	}
	e := ladderConfig().Eval
	e.LadderRungs, e.LadderGames, e.AnchorGames = 0, 0, 0
	if err := e.Validate(); err != nil {
		t.Errorf("no ladder: %v", err)
	}
}

// TestLadderSimulation plays a 30-minute togyz run's evaluations with
// expected scores in place of games: a network rising to +400 over
// ab:depth=6 (its curve flattening as in the note
// docs/notes/2026-12-02-ladder-and-elo-over-time.md), evaluated every
// half minute with DefaultConfig's eval settings and the ladder growing
// as climb grows it. The final rating's interval must come within ±60,
// where the baselines' games alone give about ±70.
func TestLadderSimulation(t *testing.T) {
	ec := DefaultConfig().Eval
	a := &net.Anchors{Zero: "ab:depth=6", Ratings: map[string]float64{"ab:depth=6": 0, "ab:depth=4": -250, "ab:depth=2": -450, "greedy": -700},
		Errors: map[string]float64{"ab:depth=4": 35, "ab:depth=2": 40, "greedy": 50}}
	r := &Run{cfg: Config{Eval: ec}, anch: a}
	at := func(elo float64, opp string, games int) rating.Match {
		w := rating.ScoreFromElo(elo-a.Ratings[opp]) * float64(games)
		d := int(math.Round(2 * (w - math.Floor(w))))
		return rating.Match{Games: games, Wins: int(w), Draws: d, Losses: games - int(w) - d}
	}
	var final, alone *rating.Rating
	for k := 1; k <= 60; k++ {
		elo := 500*(1-math.Exp(-float64(k)/12)) - 100
		games := ec.BaselineGames
		if k == 60 {
			games = ec.FinalBaselineGames
		}
		res := map[string]rating.Match{}
		for _, b := range ec.Baselines {
			res[b] = at(elo, b, games)
		}
		alone, _, _ = ladder.Rate(a, r.rungs, res)
		for _, rg := range r.topRungs() {
			res[rg.Name] = at(elo, rg.Name, games)
		}
		rating, _, _ := ladder.Rate(a, r.rungs, res)
		if k == 60 {
			final = rating
			break
		}
		if !r.climbs(a, rating.Elo) {
			continue
		}
		name := fmt.Sprintf("r%d", k)
		for _, opp := range ladder.Opponents(a, rating.Elo, ec.LadderOpponents) {
			res[opp] = ladder.AddMatches(res[opp], at(elo, opp, ec.LadderGames))
		}
		rr, load, fit := ladder.Rate(a, r.rungs, res)
		load[name] = fit
		r.rungs = append(r.rungs, ladder.Rung{Name: name, Elo: rr.Elo, Err: rr.Err, Loadings: load})
		a.Ratings[name], a.Errors[name] = rr.Elo, rr.Err
	}
	t.Logf("final %+v with %d rungs, %+v from the baselines alone", final, len(r.rungs), alone)
	if len(r.rungs) < 3 || final == nil || final.Err > 60 || math.Abs(final.Elo-390) > 30 || !(alone.Err > final.Err+10) {
		t.Errorf("final rating %+v with %d rungs, %+v from the baselines alone: want within ±60, narrower", final, len(r.rungs), alone)
	}
}
