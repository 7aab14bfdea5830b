package train

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"kumalak/data"
	"kumalak/data/datatest"
	_ "kumalak/env/games"
	"kumalak/net"
)

// tinyConfig is a run of a fraction of a second (as configs/tiny.yaml).
func tinyConfig(game string) Config {
	c := DefaultConfig()
	c.Game, c.Seed, c.Iterations, c.Budget = game, 7, 2, 0
	c.Games, c.SampleReuse, c.MaxSteps = 4, 2, 4
	c.Net.Width, c.Net.Blocks, c.Net.ValueHidden = 16, 1, 8
	c.Train.Batch, c.Train.WarmupSteps = 32, 2
	c.Window = data.WindowConfig{MinSamples: 200, Exponent: 0.75, Growth: 0.4, MaxSamples: 2000}
	sp := &c.SelfPlay
	sp.Games, sp.FullSims, sp.CheapSims, sp.FullFraction, sp.MaxPlies = 4, 8, 2, 0.5, 200
	sp.Search.MaxNodes = 4096
	c.Batcher.MaxBatch, c.Batcher.MinBatch = 16, 1
	c.Eval = EvalConfig{Gate: "score", Games: 2, Threshold: 0.5, Sims: 4, Baselines: []string{"random", "greedy"},
		BaselineEvery: 1, BaselineGames: 2, AnchorGames: 2, Parallel: 2, OpeningPlies: 2}
	return c
}

func openRun(t *testing.T, cfg Config, dir Dir, resume bool) *Run {
	t.Helper()
	r, err := Open(cfg, Options{Dir: dir, Resume: resume})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestTinyRunFolder(t *testing.T) {
	for _, game := range []string{"togyz", "mangala", "mangala-kale"} {
		t.Run(game, func(t *testing.T) {
			dir := Dir(t.TempDir())
			r := openRun(t, tinyConfig(game), dir, false)
			if err := r.Train(context.Background()); err != nil {
				t.Fatal(err)
			}
			st := r.State()
			if st.Iteration != 2 || st.Games != 8 || st.Samples == 0 || st.Steps == 0 {
				t.Fatalf("state after 2 iterations: %+v", st)
			}
			for _, f := range []string{"config.yaml", "state.json", "metrics.jsonl", "best.kmodel", "latest.kmodel",
				"loss.png", "elo.png", "speed.png", "anchors.json", "models/iter-0001.kmodel", "models/iter-0002.kmodel",
				"shards/" + data.ShardName(2), "games/iter-0001-baseline.jsonl"} {
				if fi, err := os.Stat(filepath.Join(dir.String(), f)); err != nil || fi.Size() == 0 {
					t.Errorf("%s missing or empty: %v", f, err)
				}
			}
			ms, err := ReadMetrics(dir.Metrics())
			if err != nil || len(ms) != 2 {
				t.Fatalf("metrics: %d lines, %v", len(ms), err)
			}
			for i, m := range ms {
				if m.Iteration != i+1 || m.SelfPlay.Games != 4 || m.Train.Steps == 0 || m.Eval.Versus == nil {
					t.Errorf("metrics line %d: %+v", i, m)
				}
				if _, ok := m.Eval.Baseline["greedy"]; !ok {
					t.Errorf("metrics line %d has no baseline result", i)
				}
				if m.Eval.Rating == nil {
					t.Errorf("metrics line %d has no rating", i)
				}
			}
			if _, err := net.LoadFor(dir.Best(), game, r.spec.ObsVersion); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestExistingRunNeedsResume(t *testing.T) {
	dir := Dir(t.TempDir())
	r := openRun(t, tinyConfig("togyz"), dir, false)
	r.Close()
	if _, err := Open(tinyConfig("togyz"), Options{Dir: dir}); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Fatalf("opening an existing run without resume: %v", err)
	}
}

// TestResumeAfterInterruption stops a run in the middle of its second
// iteration, leaving that iteration's shard, candidate and metrics line
// behind as a kill would, then resumes: the run continues from iteration 1
// with its window, and ends where an uninterrupted run ends.
func TestResumeAfterInterruption(t *testing.T) {
	dir := Dir(t.TempDir())
	cfg := tinyConfig("mangala")
	cfg.Iterations = 1
	r := openRun(t, cfg, dir, false)
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	before := r.State()
	win := r.window.Len()
	r.Close()

	// What a kill in iteration 2 leaves: a shard, a candidate, a metrics line.
	samples := make([]data.Sample, 3)
	for i := range samples {
		samples[i] = data.Sample{Obs: make([]float32, r.spec.ObsLen), Policy: make([]float32, r.spec.NumActions), Legal: 1}
		samples[i].Policy[0] = 1
	}
	h := data.Header{Layout: r.layout(), Iteration: 2, RunTotal: before.Samples + 3, Created: time.Now()}
	if err := data.WriteShard(dir.Shard(2), h, samples); err != nil {
		t.Fatal(err)
	}
	if err := net.Save(dir.Model(2), r.latest); err != nil {
		t.Fatal(err)
	}
	if err := appendMetrics(dir.Metrics(), Metrics{Iteration: 2}); err != nil {
		t.Fatal(err)
	}

	cfg.Iterations = 2
	r2 := openRun(t, cfg, dir, true)
	if got := r2.State(); !reflect.DeepEqual(got, before) {
		t.Fatalf("resumed state %+v, want %+v", got, before)
	}
	if r2.window.Len() != win || r2.window.Total() != before.Samples {
		t.Fatalf("resumed window: %d samples of %d, want %d of %d", r2.window.Len(), r2.window.Total(), win, before.Samples)
	}
	if _, err := os.Stat(dir.Model(2)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("candidate of the unfinished iteration kept: %v", err)
	}
	if err := r2.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	ms, err := ReadMetrics(dir.Metrics())
	if err != nil || len(ms) != 2 || ms[1].Iteration != 2 || ms[1].SelfPlay.Games != 4 {
		t.Fatalf("metrics after resume: %+v, %v", ms, err)
	}
}

func TestCancelledIterationIsDropped(t *testing.T) {
	dir := Dir(t.TempDir())
	r := openRun(t, tinyConfig("togyz"), dir, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.Train(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Train with a cancelled context: %v", err)
	}
	if st, err := LoadState(dir); err != nil || st.Iteration != 0 {
		t.Fatalf("checkpoint after a cancelled start: %+v, %v", st, err)
	}
}

func TestCorruptFilesRefusedOnResume(t *testing.T) {
	cases := map[string]func(t *testing.T, dir Dir) error{
		"shard": func(t *testing.T, dir Dir) error {
			datatest.FlipByte(t, dir.Shard(1), 60)
			return nil
		},
		"model": func(t *testing.T, dir Dir) error {
			datatest.FlipByte(t, dir.Latest(), 200)
			return nil
		},
		"truncated model": func(t *testing.T, dir Dir) error {
			return os.Truncate(dir.Best(), 100)
		},
	}
	for name, corrupt := range cases {
		t.Run(name, func(t *testing.T) {
			dir := Dir(t.TempDir())
			cfg := tinyConfig("togyz")
			cfg.Iterations = 1
			r := openRun(t, cfg, dir, false)
			if err := r.Train(context.Background()); err != nil {
				t.Fatal(err)
			}
			r.Close()
			if err := corrupt(t, dir); err != nil {
				t.Fatal(err)
			}
			_, err := Open(cfg, Options{Dir: dir, Resume: true})
			if err == nil {
				t.Fatal("resumed from a corrupt file")
			}
			t.Logf("refused: %v", err)
		})
	}
}

func TestConfigValidate(t *testing.T) {
	cases := []struct {
		field string
		edit  func(*Config)
	}{
		{"games_per_iteration", func(c *Config) { c.Games = 0 }},
		{"sample_reuse", func(c *Config) { c.SampleReuse = 0 }},
		{"iterations", func(c *Config) { c.Iterations, c.Budget = 0, 0 }},
		{"eval.gate", func(c *Config) { c.Eval.Gate = "maybe" }},
		{"eval.threshold", func(c *Config) { c.Eval.Gate, c.Eval.Threshold = "score", 1.5 }},
		{"eval.sims", func(c *Config) { c.Eval.Sims = 0 }},
		{"max_samples", func(c *Config) { c.Window.MaxSamples = 10 }},
		{"width", func(c *Config) { c.Net.Width = 0 }},
		{"full_sims", func(c *Config) { c.SelfPlay.FullSims = 0 }},
		{"eval.anchor", func(c *Config) { c.Eval.Anchor = "ab:depth=9" }},
	}
	for _, tc := range cases {
		c := DefaultConfig()
		if _, err := c.Resolve(); err != nil {
			t.Fatal(err)
		}
		tc.edit(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: Validate() = %v, want an error naming it", tc.field, err)
		}
	}
	c := DefaultConfig()
	if _, err := c.Resolve(); err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("default config: %v", err)
	}
	c.Game = "chess"
	if _, err := c.Resolve(); err == nil {
		t.Fatal("unknown game accepted")
	}
}

func TestKeepModels(t *testing.T) {
	dir := Dir(t.TempDir())
	cfg := tinyConfig("mangala")
	cfg.Iterations, cfg.KeepModels = 5, 1
	cfg.Eval.Gate, cfg.Eval.BaselineEvery = "always", 3
	r := openRun(t, cfg, dir, false)
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	for it, keep := range map[int]bool{1: true, 2: false, 3: true, 4: false, 5: true} {
		_, err := os.Stat(dir.Model(it))
		if kept := err == nil; kept != keep {
			t.Errorf("iteration %d: model kept %v, want %v", it, kept, keep)
		}
	}
}

// TestTrainingTimeIsWallTime: a run's training time is the wall time of its
// iterations back to back, the checkpoints' tails (plots, state, pruning)
// included: from the first iteration's end to the last one's, the
// iterations' times add up to the clock's. Plots are redrawn at most every
// plotEvery, at baseline evaluations and at the run's end, which still
// leaves them drawn.
func TestTrainingTimeIsWallTime(t *testing.T) {
	cfg := tinyConfig("mangala")
	cfg.Iterations, cfg.Eval.BaselineEvery = 5, 4
	dir := Dir(t.TempDir())
	r := openRun(t, cfg, dir, false)
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	ms, err := ReadMetrics(dir.Metrics())
	if err != nil || len(ms) != 5 {
		t.Fatalf("metrics: %d lines, %v", len(ms), err)
	}
	sum := 0.0
	for _, m := range ms[1:] {
		sum += m.IterationSec
	}
	// The iterations' times come from the monotonic clock, the lines' times
	// from the wall clock, which NTP may slew by up to 500 ppm: allow 1 ms
	// plus that, far below one iteration's checkpoint tail.
	wall := ms[4].Time.Sub(ms[0].Time).Seconds()
	if d, tol := wall-sum, 1e-3+5e-4*wall; d > tol || d < -tol {
		t.Fatalf("iterations 2-5 took %.6f s of training time over %.6f s of wall time", sum, wall)
	}
	if d := ms[4].ElapsedSec - ms[0].ElapsedSec - sum; d > 1e-6 || d < -1e-6 {
		t.Fatalf("elapsed grew by %.6f s, the iterations' times add to %.6f s", ms[4].ElapsedSec-ms[0].ElapsedSec, sum)
	}
	st, err := os.Stat(dir.LossPlot())
	if err != nil || st.ModTime().Before(ms[4].Time.Add(-time.Second)) {
		t.Fatalf("loss plot not redrawn at the run's end: %v", err)
	}
}

// TestInitFromModel starts a run from another run's network: its first
// best and latest networks hold those weights, not the seed's; a network of
// another game or shape is refused before the folder is made.
func TestInitFromModel(t *testing.T) {
	cfg := tinyConfig("mangala")
	src := Dir(t.TempDir())
	r := openRun(t, cfg, src, false)
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.Close()
	trained, err := net.Load(src.Best())
	if err != nil {
		t.Fatal(err)
	}
	dir := Dir(filepath.Join(t.TempDir(), "run"))
	r2, err := Open(cfg, Options{Dir: dir, Init: src.Best()})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	for _, path := range []string{dir.Best(), dir.Latest()} {
		m, err := net.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if !sameParams(m.Params, trained.Params) {
			t.Errorf("%s does not hold the init network's weights", path)
		}
		if m.Meta.Iteration != 0 {
			t.Errorf("%s: iteration %d, want 0", path, m.Meta.Iteration)
		}
	}
	if sameParams(r2.initial().Params, trained.Params) {
		t.Fatal("the seed's network equals the trained one: the test proves nothing")
	}

	wide := cfg
	wide.Net.Width = 32
	other := tinyConfig("togyz")
	for name, c := range map[string]Config{"shape": wide, "game": other} {
		bad := Dir(filepath.Join(t.TempDir(), "run"))
		if _, err := Open(c, Options{Dir: bad, Init: src.Best()}); err == nil || !strings.Contains(err.Error(), "init") {
			t.Errorf("%s: init from a mismatched network: %v", name, err)
		}
		if _, err := os.Stat(bad.String()); !os.IsNotExist(err) {
			t.Errorf("%s: a refused init left the folder behind: %v", name, err)
		}
	}
	if _, err := Open(cfg, Options{Dir: Dir(filepath.Join(t.TempDir(), "run")), Init: filepath.Join(t.TempDir(), "none.kmodel")}); err == nil {
		t.Error("init from a missing file: no error")
	}
}
