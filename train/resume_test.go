package train

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"kumalak/net"
)

// A kill inside a checkpoint, after latest.kmodel (and best.kmodel) were
// replaced by the next candidate but before the state was written, must not
// let the resumed run continue from that candidate: its samples are gone.
func TestResumeInsideCheckpoint(t *testing.T) {
	for _, iters := range []int{0, 1} {
		dir := Dir(t.TempDir())
		cfg := tinyConfig("mangala")
		cfg.Iterations, cfg.Eval.Gate = max(iters, 1), "always"
		r := openRun(t, cfg, dir, false)
		if iters > 0 {
			if err := r.Train(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		wantLatest, wantBest := r.latest.Params.Clone(), r.best.Params.Clone()
		r.Close()

		next := iters + 1
		ahead := &net.Model{Params: wantLatest.Clone(), Meta: r.latest.Meta}
		ahead.Meta.Iteration = next
		for i := range ahead.Params.Tensors[0].Data {
			ahead.Params.Tensors[0].Data[i] += 1
		}
		for _, path := range []string{dir.Model(next), dir.Latest(), dir.Best()} {
			if err := net.Save(path, ahead); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(dir.Games(next, GateGames), []byte(`{"torn":`), 0o644); err != nil {
			t.Fatal(err)
		}

		r2 := openRun(t, cfg, dir, true)
		if st := r2.State(); st.Iteration != iters || st.BestIteration != iters {
			t.Fatalf("iteration %d: resumed state %+v", iters, st)
		}
		if !sameParams(r2.latest.Params, wantLatest) || r2.latest.Meta.Iteration != iters {
			t.Errorf("iteration %d: latest is not the checkpoint's network (iteration %d)", iters, r2.latest.Meta.Iteration)
		}
		if !sameParams(r2.best.Params, wantBest) {
			t.Errorf("iteration %d: best is not the checkpoint's network", iters)
		}
		if _, err := os.Stat(dir.Games(next, GateGames)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("iteration %d: games of the unfinished iteration kept: %v", iters, err)
		}
	}
}

func sameParams(a, b *net.Params) bool {
	if a.Config != b.Config {
		return false
	}
	for i, t := range a.Tensors {
		for j, v := range t.Data {
			if v != b.Tensors[i].Data[j] {
				return false
			}
		}
	}
	return true
}

// cancelAfter is a Log writer that cancels a run's context once it has
// printed n iteration summaries: a kill between two iterations.
type cancelAfter struct {
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	if c.n--; c.n == 0 {
		c.cancel()
	}
	return len(p), nil
}

// deterministicConfig is a tiny run that a seed reproduces bit for bit:
// one self-play game at a time, so that the shards' order and the network's
// batches (one row each) do not depend on timing, and a gate that does not
// depend on evaluation games.
func deterministicConfig() Config {
	cfg := tinyConfig("mangala")
	cfg.Iterations, cfg.Budget = 3, 0
	cfg.SelfPlay.Games = 1
	cfg.Train.ScoreWeight, cfg.Train.WeightDecay = 0.5, 0.05
	cfg.Eval.Gate, cfg.Eval.Baselines, cfg.Eval.AnchorGames = "always", nil, 0
	return cfg
}

// A run stopped after k iterations and resumed trains exactly as one that
// was never stopped: the same weights bit for bit, the same optimizer
// state, the same learning rates.
func TestResumedRunMatchesUninterrupted(t *testing.T) {
	cfg := deterministicConfig()
	whole := Dir(t.TempDir())
	r := openRun(t, cfg, whole, false)
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	wantParams := r.latest.Params.Clone()
	r.Close()

	const k = 1 // iterations before the stop
	dir := Dir(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	r, err := Open(cfg, Options{Dir: dir, Log: &cancelAfter{n: k, cancel: cancel}})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Train(ctx); !errors.Is(err, context.Canceled) || r.State().Iteration != k {
		t.Fatalf("k=%d: stopped at iteration %d: %v", k, r.State().Iteration, err)
	}
	r.Close()
	cancel()
	r2 := openRun(t, cfg, dir, true)
	if err := r2.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !sameParams(r2.latest.Params, wantParams) {
		t.Errorf("k=%d: the resumed run's weights differ from the uninterrupted run's", k)
	}
	sameFile(t, whole.Optimizer(cfg.Iterations), dir.Optimizer(cfg.Iterations))
	if _, err := os.Stat(dir.Optimizer(cfg.Iterations - 1)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("k=%d: the previous iteration's optimizer state was kept: %v", k, err)
	}
	a, errA := ReadMetrics(whole.Metrics())
	b, errB := ReadMetrics(dir.Metrics())
	if errA != nil || errB != nil || len(a) != len(b) {
		t.Fatalf("k=%d: metrics %d and %d lines (%v, %v)", k, len(a), len(b), errA, errB)
	}
	for i := range a {
		if a[i].Train.LR != b[i].Train.LR || a[i].Train.LossTotal != b[i].Train.LossTotal {
			t.Errorf("k=%d iteration %d: lr %g loss %g, uninterrupted lr %g loss %g",
				k, i+1, b[i].Train.LR, b[i].Train.LossTotal, a[i].Train.LR, a[i].Train.LossTotal)
		}
	}
}

func sameFile(t *testing.T, a, b string) {
	t.Helper()
	x, errA := os.ReadFile(a)
	y, errB := os.ReadFile(b)
	if errA != nil || errB != nil || !bytes.Equal(x, y) {
		t.Errorf("%s and %s differ (%v, %v)", a, b, errA, errB)
	}
}

// A damaged optimizer state stops the resume with an error naming the file
// and what is wrong; a missing one (a run folder from before optimizer
// states were saved) continues with fresh moments, saying so.
func TestResumeOptimizerState(t *testing.T) {
	cfg := deterministicConfig()
	cfg.Iterations = 1
	dir := Dir(t.TempDir())
	r := openRun(t, cfg, dir, false)
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.Close()
	good, err := os.ReadFile(dir.Optimizer(1))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Iterations = 2
	damage := map[string][]byte{
		"truncated": good[:len(good)/2],
		"checksum":  append(append([]byte(nil), good[:40]...), append([]byte{good[40] ^ 1}, good[41:]...)...),
	}
	for want, b := range damage {
		if err := os.WriteFile(dir.Optimizer(1), b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Open(cfg, Options{Dir: dir, Resume: true})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), dir.Optimizer(1)) {
			t.Errorf("%s optimizer state: Open = %v", want, err)
		}
	}
	if err := os.Remove(dir.Optimizer(1)); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	r2, err := Open(cfg, Options{Dir: dir, Resume: true, Log: &log})
	if err != nil {
		t.Fatalf("resume without an optimizer state: %v", err)
	}
	defer r2.Close()
	if !strings.Contains(log.String(), "no optimizer state") || r2.trainer == nil || r2.trainer.Steps() != r2.State().Steps {
		t.Errorf("resume without an optimizer state: log %q", log.String())
	}
	if err := r2.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir.Optimizer(2)); err != nil {
		t.Errorf("no optimizer state after the resumed iteration: %v", err)
	}
}

func TestProgress(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		iters      int
		budget     time.Duration
		elapsedSec float64
		since      time.Duration // of the iteration so far
		it, s, n   int
		want       float64
	}{
		{4, 0, 0, 0, 1, 0, 2, 0.125},          // first of two steps of iteration 1 of 4
		{4, 0, 0, 0, 4, 1, 2, 1},              // the last step
		{0, time.Hour, 1800, 0, 9, 0, 5, 0.5}, // half the budget trained
		{0, time.Hour, 1800, 15 * time.Minute, 9, 0, 5, 0.75},
		{10, time.Hour, 1800, 0, 2, 0, 1, 0.5}, // budget further along
		{2, time.Hour, 60, 0, 2, 0, 1, 1},      // iterations further along
		{0, time.Hour, 7200, 0, 30, 0, 1, 2},   // past the budget (the trainer clamps)
	}
	for _, c := range cases {
		r := &Run{cfg: Config{Iterations: c.iters, Budget: c.budget}, state: State{ElapsedSec: c.elapsedSec},
			opt: Options{Now: func() time.Time { return t0.Add(c.since) }}}
		if got := r.progress(c.it, c.s, c.n, t0); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%+v: progress %g, want %g", c, got, c.want)
		}
	}
}

// Extending a finished run re-stretches the schedule: the run ended at
// min_lr, and the resumed iterations climb back towards the longer
// schedule's rate, then decay to min_lr again by the new end.
func TestExtendedRunRewarms(t *testing.T) {
	cfg := deterministicConfig()
	cfg.Iterations = 2
	dir := Dir(t.TempDir())
	r := openRun(t, cfg, dir, false)
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.Close()
	cfg.Iterations = 4
	r2 := openRun(t, cfg, dir, true)
	if err := r2.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	ms, err := ReadMetrics(dir.Metrics())
	if err != nil || len(ms) != 4 {
		t.Fatalf("metrics: %d lines, %v", len(ms), err)
	}
	lr := func(i int) float64 { return ms[i-1].Train.LR }
	minLR := cfg.Train.MinLR
	switch {
	case math.Abs(lr(2)-minLR) > 1e-12:
		t.Errorf("the 2-iteration run ended at rate %g, want min_lr %g", lr(2), minLR)
	case !(lr(3) > 2*minLR && lr(3) <= cfg.Train.Rate(0.75)):
		t.Errorf("first extended iteration ended at rate %g, want above %g and at most %g", lr(3), 2*minLR, cfg.Train.Rate(0.75))
	case math.Abs(lr(4)-minLR) > 1e-12:
		t.Errorf("the extended run ended at rate %g, want min_lr %g", lr(4), minLR)
	}
}
