package train

import (
	"strings"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/rating"
)

// The command a run records reads back in a shell as the words given.
func TestCommandLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"kumalak", "train", "--config", "configs/togyz.yaml"}, "kumalak train --config configs/togyz.yaml"},
		{[]string{"kumalak", "train", "--run", "runs/my run"}, "kumalak train --run 'runs/my run'"},
		{[]string{"kumalak", "--budget", ""}, "kumalak --budget ''"},
		{[]string{"kumalak", "it's"}, `kumalak 'it'\''s'`},
		{[]string{"kumalak", "a;b", "$x", "*"}, "kumalak 'a;b' '$x' '*'"},
	} {
		if got := CommandLine(c.args); got != c.want {
			t.Errorf("%q: %s, want %s", c.args, got, c.want)
		}
	}
}

// reportRun is a fake run of game at state st in a temporary folder
// whose metrics rate its best network.
func reportRun(t *testing.T, game string, cfg Config, st State) *Run {
	t.Helper()
	spec, err := env.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	var now time.Time
	r := fakeRun(cfg, st, &now)
	r.dir, r.spec, r.cfg.Game = Dir(t.TempDir()), spec, game
	if err := appendMetrics(r.dir.Metrics(), Metrics{Iteration: st.Iteration, Best: st.BestIteration,
		Eval: EvalMetrics{Rating: &rating.Rating{Elo: -100, Err: 50}}}); err != nil {
		t.Fatal(err)
	}
	return r
}

// The opening lines say where the run stands: finished already, or a
// budget that its final evaluation fits in.
func TestWriteStart(t *testing.T) {
	iters := DefaultConfig()
	iters.Budget, iters.Iterations = 0, 2
	budget := DefaultConfig()
	budget.Budget, budget.Iterations, budget.Eval.FinalBaselineGames = 90*time.Minute, 0, 40
	for _, c := range []struct {
		cfg        Config
		st         State
		want, none string
	}{
		{iters, State{Iteration: 2}, "is already finished: its 2 iterations are done; nothing to train", "budget"},
		{iters, State{Iteration: 1}, "iteration 1 done", "finished"},
		{budget, State{Iteration: 1}, "budget 1h30m0s: the run stops by then, its final evaluation (40 games a baseline) included", "finished"},
	} {
		r := reportRun(t, "togyz", c.cfg, c.st)
		var b strings.Builder
		r.WriteStart(&b)
		out := b.String()
		if !strings.HasPrefix(out, "run "+r.dir.String()+": game togyz, ") || !strings.Contains(out, "inference kernel ") ||
			!strings.Contains(out, c.want) || strings.Contains(out, c.none) {
			t.Errorf("%+v: %q; want %q, no %q", c.st, out, c.want, c.none)
		}
	}
}

// The closing lines: how it ended, the best model and the commands that
// use it, and the comparison with the shipped model of a game that has
// one (none for a board without one).
func TestWriteEnd(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Budget, cfg.Iterations = 0, 2
	st := State{Iteration: 2, BestIteration: 2, Games: 10, Samples: 99}
	for _, c := range []struct {
		game    string
		stopped bool
		want    []string
		none    string
	}{
		{"togyz", false, []string{"finished: its 2 iterations are done; to train it further: kk train --run ", "--resume --iterations 4",
			"best model: ", "(iteration 2 of 2, 10 games, 99 samples", "play it:    kk play --model ", "measure it: kk arena --game togyz --a model:path=",
			"vs shipped: ", "--b model --games 100", "export it:  kk export --run "}, "stopped"},
		{"kalah:houses=4,seeds=3", true, []string{"stopped; the run continues from iteration 2 with: kumalak train --run ", "measure it: kk arena --game kalah:houses=4,seeds=3"}, "vs shipped"},
	} {
		r := reportRun(t, c.game, cfg, st)
		var b strings.Builder
		if err := r.WriteEnd(&b, "kk", c.stopped); err != nil {
			t.Fatalf("%s: %v", c.game, err)
		}
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", c.game, w, b.String())
			}
		}
		if strings.Contains(b.String(), c.none) {
			t.Errorf("%s: %q in\n%s", c.game, c.none, b.String())
		}
	}
}
