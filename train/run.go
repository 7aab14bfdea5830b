package train

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"go.yaml.in/yaml/v3"

	"kumalak/data"
	"kumalak/env"
	"kumalak/net"
	"kumalak/net/learn"
	"kumalak/selfplay"
)

// Options are the per-invocation settings of a run that are not part of its
// config: where it lives, whether to resume, and where progress goes.
type Options struct {
	Dir      string    // run folder
	Resume   bool      // continue the run in Dir from its checkpoint
	Progress io.Writer // progress bars; nil = none
	Log      io.Writer // one summary line per iteration; nil = none
	Now      func() time.Time
}

// Run is one training run: its folder, config, checkpoint and the parts it
// keeps between iterations.
type Run struct {
	cfg    Config
	spec   *env.Spec
	opt    Options
	state  State
	window *data.Window
	best   *net.Model // the network self-play and gating use
	latest *net.Model // the network the optimizer continues from
	out    io.Writer  // progress bars
	log    io.Writer  // iteration summaries

	anch *Anchors // the baselines' ratings, once measured

	// The self-play pool and its batcher live as long as the run; spGen is
	// the best iteration whose network the batcher holds.
	pool  *selfplay.Pool
	spNet *net.Batcher
	spGen int

	// trainer keeps the optimizer's state from one iteration to the next;
	// it starts from latest when the process (re)starts.
	trainer *learn.Trainer
}

// Open prepares the run folder: a new run writes its resolved config; a
// resumed one restores its checkpoint, replay window and networks, dropping
// whatever an interrupted iteration left behind. Opening an existing run
// without Resume is an error, so nothing is overwritten by accident.
func Open(cfg Config, opt Options) (*Run, error) {
	spec, err := cfg.Resolve()
	if err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	r := &Run{cfg: cfg, spec: spec, opt: opt, out: opt.Progress}
	if r.out == nil {
		r.out = io.Discard
	}
	r.log = opt.Log
	if r.log == nil {
		r.log = io.Discard
	}
	_, statErr := os.Stat(filepath.Join(opt.Dir, stateFile))
	switch {
	case statErr == nil && !opt.Resume:
		return nil, fmt.Errorf("train: %s already holds a run: resume it with --resume, or choose another --run", opt.Dir)
	case statErr == nil:
		err = r.resume()
	case errors.Is(statErr, os.ErrNotExist):
		err = r.create()
	default:
		err = fmt.Errorf("train: %w", statErr)
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// layout returns the data layout of the run's samples.
func (r *Run) layout() data.Layout {
	return data.Layout{Game: r.spec.Name, ObsVersion: r.spec.ObsVersion, ObsLen: r.spec.ObsLen, NumActions: r.spec.NumActions}
}

func (r *Run) create() error {
	for _, d := range []string{r.opt.Dir, filepath.Join(r.opt.Dir, shardsDir), filepath.Join(r.opt.Dir, modelsDir), filepath.Join(r.opt.Dir, gamesDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("train: %w", err)
		}
	}
	b, err := yaml.Marshal(r.cfg)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := writeFile(filepath.Join(r.opt.Dir, configFile), b); err != nil {
		return err
	}
	w, err := data.NewWindow(r.cfg.Window, r.layout())
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	r.window = w
	p := net.NewParams(r.cfg.Net)
	p.Init(rand.New(rand.NewPCG(r.cfg.Seed, 0x6e6574)))
	r.latest = &net.Model{Params: p, Meta: net.Meta{Game: r.spec.Name, ObsVersion: r.spec.ObsVersion, Created: r.opt.Now().UTC()}}
	r.best = r.latest
	r.state = State{Started: r.opt.Now().UTC()}
	for _, f := range []string{bestFile, latestFile} {
		if err := net.Save(filepath.Join(r.opt.Dir, f), r.latest); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(r.opt.Dir, metricsFile), nil, 0o644); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return saveState(r.opt.Dir, r.state)
}

func (r *Run) resume() error {
	st, err := LoadState(r.opt.Dir)
	if err != nil {
		return err
	}
	r.state = st
	if err := r.dropUnfinished(); err != nil {
		return err
	}
	shards := filepath.Join(r.opt.Dir, shardsDir)
	if r.state.Iteration == 0 {
		r.window, err = data.NewWindow(r.cfg.Window, r.layout())
	} else {
		r.window, err = data.LoadWindow(shards, r.cfg.Window, r.layout())
	}
	if err != nil {
		return fmt.Errorf("train: resume %s: %w", r.opt.Dir, err)
	}
	if r.window.Total() != r.state.Samples {
		return fmt.Errorf("train: resume %s: shards hold %d samples in all, the checkpoint says %d", r.opt.Dir, r.window.Total(), r.state.Samples)
	}
	if r.latest, err = net.LoadFor(filepath.Join(r.opt.Dir, latestFile), r.spec.Name, r.spec.ObsVersion); err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	if r.best, err = net.LoadFor(filepath.Join(r.opt.Dir, bestFile), r.spec.Name, r.spec.ObsVersion); err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	if r.latest.Params.Config != r.cfg.Net {
		return fmt.Errorf("train: resume: the run's network is %+v, the config asks for %+v", r.latest.Params.Config, r.cfg.Net)
	}
	return nil
}

// dropUnfinished removes what an interrupted iteration wrote after the
// checkpoint: its shard, its candidate model and its metrics line.
func (r *Run) dropUnfinished() error {
	infos, err := data.ListShards(filepath.Join(r.opt.Dir, shardsDir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("train: resume: %w", err)
	}
	for _, in := range infos {
		if in.Header.Iteration > r.state.Iteration {
			if err := os.Remove(in.Path); err != nil {
				return fmt.Errorf("train: resume: %w", err)
			}
		}
	}
	if err := os.Remove(modelPath(r.opt.Dir, r.state.Iteration+1)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("train: resume: %w", err)
	}
	return truncateMetrics(filepath.Join(r.opt.Dir, metricsFile), r.state.Iteration)
}

// Close releases the run's trainer and self-play workers.
func (r *Run) Close() error {
	if r.spNet != nil {
		r.spNet.Close()
		r.pool, r.spNet = nil, nil
	}
	if r.trainer == nil {
		return nil
	}
	err := r.trainer.Close()
	r.trainer = nil
	return err
}

// State returns the run's checkpoint.
func (r *Run) State() State { return r.state }

// Dir returns the run folder.
func (r *Run) Dir() string { return r.opt.Dir }

// BestPath returns the path of the run's best model.
func (r *Run) BestPath() string { return filepath.Join(r.opt.Dir, bestFile) }

// done reports whether the run has reached its iteration count or budget.
func (r *Run) done() bool {
	if r.cfg.Iterations > 0 && r.state.Iteration >= r.cfg.Iterations {
		return true
	}
	return r.cfg.Budget > 0 && r.state.Elapsed() >= r.cfg.Budget
}

// Train runs iterations until the run is done or ctx is cancelled. A
// cancelled iteration is dropped whole (the checkpoint stays at the last
// completed one) and Train returns ctx's error.
func (r *Run) Train(ctx context.Context) error {
	for !r.done() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := r.iterate(ctx); err != nil {
			return err
		}
	}
	return nil
}
