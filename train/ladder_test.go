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

	"kumalak/net"
	"kumalak/rating"
)

// TestRateAgainstRungs: a rung's error passes into the ratings measured
// against it, and rungs that share a source add it whole (correlated),
// not in quadrature.
func TestRateAgainstRungs(t *testing.T) {
	a := &net.Anchors{Zero: "ab", Ratings: map[string]float64{"ab": 0, "r1": 300, "r2": 300}, Errors: map[string]float64{"ab": 0, "r1": 50, "r2": 50}}
	even := rating.Match{Games: 100, Wins: 40, Draws: 20, Losses: 40}
	_, fit := rating.RateAgainst([]float64{300}, []float64{50}, []float64{100}, ratePrior)
	_, fit2 := rating.RateAgainst([]float64{300, 300}, []float64{50, 50}, []float64{100, 100}, ratePrior)
	shared := []Rung{{Name: "r1", Loadings: loadings{"s": 50}}, {Name: "r2", Loadings: loadings{"s": 50}}}
	apart := []Rung{{Name: "r1", Loadings: loadings{"r1": 50}}, {Name: "r2", Loadings: loadings{"r2": 50}}}
	cases := []struct {
		name    string
		rungs   []Rung
		res     map[string]rating.Match
		hw      float64
		sources int
	}{
		{"one rung", apart, map[string]rating.Match{"r1": even}, math.Sqrt(fit*fit + 50*50), 1},
		{"independent rungs", apart, map[string]rating.Match{"r1": even, "r2": even}, math.Sqrt(fit2*fit2 + 2*25*25), 2},
		{"rungs sharing a source", shared, map[string]rating.Match{"r1": even, "r2": even}, math.Sqrt(fit2*fit2 + 50*50), 1},
	}
	for _, c := range cases {
		r, load, f := rateAgainst(a, c.rungs, c.res)
		if r == nil || math.Abs(r.Elo-300) > 0.01 || math.Abs(r.Err-c.hw) > 0.01 || len(load) != c.sources {
			t.Errorf("%s: %+v, loadings %v, want 300 ± %.2f from %d sources", c.name, r, load, c.hw, c.sources)
		}
		if want := math.Sqrt(r.Err*r.Err - load.variance()); math.Abs(f-want) > 0.01 {
			t.Errorf("%s: fit %.2f, want %.2f", c.name, f, want)
		}
	}
}

// TestLadderInterval: near the top, games against a rung rated close to
// the network give a narrower final interval than the same games against
// baselines far below it, the rung's own error included: the reason for
// the ladder. Expected scores stand in for games.
func TestLadderInterval(t *testing.T) {
	// Baselines as in togyz (ab:depth=6 = 0); the network at +400.
	a := &net.Anchors{Zero: "ab6", Ratings: map[string]float64{"ab6": 0, "ab4": -250, "r1": 200, "r2": 350},
		Errors: map[string]float64{"ab4": 40, "r1": 40, "r2": 50}}
	rungs := []Rung{{Name: "r1", Elo: 200, Loadings: loadings{"r1": 40}}, {Name: "r2", Elo: 350, Loadings: loadings{"r1": 25, "r2": 43}}}
	at := func(opp string, games int) rating.Match {
		p := rating.ScoreFromElo(400 - a.Ratings[opp])
		w := int(math.Round(p * float64(games)))
		return rating.Match{Games: games, Wins: w, Losses: games - w}
	}
	base, _, _ := rateAgainst(a, rungs, map[string]rating.Match{"ab6": at("ab6", 400), "ab4": at("ab4", 400)})
	ladder, _, _ := rateAgainst(a, rungs, map[string]rating.Match{"ab6": at("ab6", 200), "ab4": at("ab4", 200), "r2": at("r2", 200), "r1": at("r1", 200)})
	if base == nil || ladder == nil || !(ladder.Err < base.Err-5) {
		t.Fatalf("800 games: baselines only %+v, with the ladder %+v: want the ladder's interval narrower", base, ladder)
	}
	if math.Abs(ladder.Elo-400) > 15 || math.Abs(base.Elo-400) > 15 {
		t.Errorf("ratings %+v, %+v: want about 400", base, ladder)
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
		if _, err := rungModel(dir, rg); err != nil {
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
	want, _, _ := rateAgainst(&g.Anchors, g.Ladder, results)
	without, _, _ := rateAgainst(&g.Anchors, g.Ladder, last.Baseline)
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

func readLadder(t *testing.T, d Dir) *ladderFile {
	t.Helper()
	f, err := loadAnchors(d.Anchors())
	if err != nil || f == nil {
		t.Fatalf("anchors: %v, %v", f, err)
	}
	return f
}

func writeLadder(t *testing.T, d Dir, f *ladderFile) {
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
// ab:depth=6 (its curve flattening as in BENCHMARKS.md), evaluated every
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
		alone, _, _ = rateAgainst(a, r.rungs, res)
		for _, rg := range r.topRungs() {
			res[rg.Name] = at(elo, rg.Name, games)
		}
		rating, _, _ := rateAgainst(a, r.rungs, res)
		if k == 60 {
			final = rating
			break
		}
		if !r.climbs(a, rating.Elo) {
			continue
		}
		name := fmt.Sprintf("r%d", k)
		for _, opp := range rungOpponents(a, rating.Elo, ec.LadderOpponents) {
			res[opp] = addMatches(res[opp], at(elo, opp, ec.LadderGames))
		}
		rr, load, fit := rateAgainst(a, r.rungs, res)
		load[name] = fit
		r.rungs = append(r.rungs, Rung{Name: name, Elo: rr.Elo, Err: rr.Err, Loadings: load})
		a.Ratings[name], a.Errors[name] = rr.Elo, rr.Err
	}
	t.Logf("final %+v with %d rungs, %+v from the baselines alone", final, len(r.rungs), alone)
	if len(r.rungs) < 3 || final == nil || final.Err > 60 || math.Abs(final.Elo-390) > 30 || !(alone.Err > final.Err+10) {
		t.Errorf("final rating %+v with %d rungs, %+v from the baselines alone: want within ±60, narrower", final, len(r.rungs), alone)
	}
}
