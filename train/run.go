package train

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"

	"github.com/nats-io/nats.go"

	"kumalak/cluster"
	"kumalak/data"
	"kumalak/env"
	"kumalak/net"
	"kumalak/net/learn"
	"kumalak/selfplay"
	"kumalak/solve"
	"kumalak/train/ladder"
)

// Options are the per-invocation settings of a run that are not part of its
// config: where it lives, whether to resume, and where progress goes.
type Options struct {
	Dir      Dir       // run folder
	Resume   bool      // continue the run in Dir from its checkpoint
	Progress io.Writer // progress bars; nil = none
	Log      io.Writer // one summary line per iteration; nil = none
	Now      func() time.Time
	// NATS, when set, connects the run to workers on other machines (see
	// package cluster): their samples join each iteration's shard.
	NATS *nats.Conn
	// Command is the command line that started the run (kept in the
	// checkpoint for the model card); "" notes none.
	Command string
	// Init, when set, is a .kmodel file whose network a new run starts
	// from instead of the seed's random weights (the optimizer, the replay
	// window and the ratings start afresh); a resumed run keeps its own.
	Init string
}

// Run is one training run: its folder, config, checkpoint and the parts it
// keeps between iterations.
type Run struct {
	cfg    Config
	dir    Dir
	spec   *env.Spec
	opt    Options
	state  State
	window *data.Window
	best   *net.Model // the network self-play and gating use
	latest *net.Model // the network the optimizer continues from
	out    io.Writer  // progress bars
	log    io.Writer  // iteration summaries

	anch  *net.Anchors  // the baselines' and rungs' ratings, once measured
	rungs []ladder.Rung // the ladder: networks of the run frozen as anchors
	// evalTook is how long the last regular baseline evaluation took: an
	// iteration whose evaluation would end past the budget plays the final
	// one instead (finalEval).
	evalTook time.Duration
	// roundRobin is the time this process spent rating the baselines (a
	// one-off, not part of a regular evaluation's time).
	roundRobin time.Duration
	// mark is when the last iteration's time was taken (zero before the
	// first of this process): the next iteration's time starts there, so
	// its checkpoint's tail (metrics, plots, the state, pruning) and the
	// acknowledgement of workers' samples count in the run's training time.
	mark time.Time
	// iterStart is when the running iteration's time began (zero between
	// iterations): the progress bars' run clock counts from it.
	iterStart time.Time
	// plotted is when the plots were last drawn (plotDue).
	plotted time.Time

	// The self-play pool and its batcher live as long as the run; spGen is
	// the best iteration whose network the batcher holds.
	pool  *selfplay.Pool
	spNet *net.Batcher
	spGen int

	// tb is the config's tablebase, opened on first use (tablebase()).
	tb *solve.Tablebase

	// trainer keeps the optimizer's state from one iteration to the next;
	// a resumed run rebuilds it from latest and its saved state.
	trainer *learn.Trainer

	// hub and ledger take worker samples when Options.NATS is set;
	// published is the best iteration whose network the workers have.
	hub       *cluster.Hub
	ledger    *cluster.Ledger
	published int
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
	r := &Run{cfg: cfg, dir: opt.Dir, spec: spec, opt: opt, out: opt.Progress}
	if r.out == nil {
		r.out = io.Discard
	}
	r.log = opt.Log
	if r.log == nil {
		r.log = io.Discard
	}
	exists, err := opt.Dir.Exists()
	switch {
	case err != nil:
	case exists && !opt.Resume:
		err = fmt.Errorf("train: %s already holds a run: resume it with --resume, or choose another --run", opt.Dir)
	case exists:
		err = r.resume()
	default:
		err = r.create()
	}
	if err != nil {
		return nil, err
	}
	if opt.NATS != nil {
		if err := r.attach(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// layout returns the data layout of the run's samples.
func (r *Run) layout() data.Layout {
	return data.Layout{Game: r.spec.Name, ObsVersion: r.spec.ObsVersion, ObsLen: r.spec.ObsLen, NumActions: r.spec.NumActions}
}

func (r *Run) create() error {
	first, err := r.first() // before the folder: a bad --init leaves nothing behind
	if err != nil {
		return err
	}
	if err := r.dir.mkdirs(); err != nil {
		return err
	}
	if err := saveConfig(r.dir, r.cfg); err != nil {
		return err
	}
	w, err := data.NewWindow(r.cfg.Window, r.layout())
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	r.window = w
	r.latest, r.best = first, first
	r.state = State{Started: r.opt.Now().UTC()}.started(Machine(), r.opt.Command)
	for _, path := range []string{r.dir.Best(), r.dir.Latest()} {
		if err := net.Save(path, r.latest); err != nil {
			return err
		}
	}
	if err := os.WriteFile(r.dir.Metrics(), nil, 0o644); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return saveState(r.dir, r.state)
}

func (r *Run) resume() error {
	st, err := LoadState(r.dir)
	if err != nil {
		return err
	}
	r.state = st.started(Machine(), r.opt.Command)
	if err := r.dropUnfinished(); err != nil {
		return err
	}
	if r.state.Iteration == 0 {
		r.window, err = data.NewWindow(r.cfg.Window, r.layout())
	} else {
		r.window, err = data.LoadWindow(r.dir.Shards(), r.cfg.Window, r.layout())
	}
	if err != nil {
		return fmt.Errorf("train: resume %s: %w", r.dir, err)
	}
	if r.window.Total() != r.state.Samples {
		return fmt.Errorf("train: resume %s: shards hold %d samples in all, the checkpoint says %d", r.dir, r.window.Total(), r.state.Samples)
	}
	if r.latest, err = r.network(r.dir.Latest(), st.Iteration); err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	if r.best, err = r.network(r.dir.Best(), st.BestIteration); err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	if r.latest.Params.Config != r.cfg.Net {
		return fmt.Errorf("train: resume: the run's network is %+v, the config asks for %+v", r.latest.Params.Config, r.cfg.Net)
	}
	if r.state.Steps > 0 {
		return r.restoreTrainer()
	}
	return nil
}

// initial is the network a run starts from, drawn from the run's seed: the
// same weights every time.
func (r *Run) initial() *net.Model {
	p := net.NewParams(r.cfg.Net)
	p.Init(rand.New(rand.NewPCG(r.cfg.Seed, 0x6e6574)))
	return r.fresh(p)
}

// fresh is a network of this run at iteration 0 with weights p.
func (r *Run) fresh(p *net.Params) *net.Model {
	return &net.Model{Params: p, Meta: net.Meta{Game: r.spec.Name, ObsVersion: r.spec.ObsVersion, Created: r.opt.Now().UTC()}}
}

// first is the network a new run starts from: Options.Init's, checked to
// fit the game and the config's network, else the seed's (initial).
func (r *Run) first() (*net.Model, error) {
	if r.opt.Init == "" {
		return r.initial(), nil
	}
	m, err := net.LoadFor(r.opt.Init, r.spec.Name, r.spec.ObsVersion)
	if err != nil {
		return nil, fmt.Errorf("train: init: %w", err)
	}
	if m.Params.Config != r.cfg.Net {
		return nil, fmt.Errorf("train: init: %s's network is %+v, the config asks for %+v", r.opt.Init, m.Params.Config, r.cfg.Net)
	}
	return r.fresh(m.Params), nil
}

// network loads the checkpoint's network of iteration it from path (latest
// or best). A run killed inside a checkpoint may have replaced that file
// already by the next iteration's candidate; then the network comes from
// the models folder, which keeps every candidate the checkpoint can name,
// or is drawn again from the seed for iteration 0.
func (r *Run) network(path string, it int) (*net.Model, error) {
	m, err := net.LoadFor(path, r.spec.Name, r.spec.ObsVersion)
	switch {
	case err != nil:
		return nil, err
	case m.Meta.Iteration == it:
		return m, nil
	case it == 0:
		return r.initial(), nil
	}
	return net.LoadFor(r.dir.Model(it), r.spec.Name, r.spec.ObsVersion)
}

// dropUnfinished removes what an interrupted iteration wrote after the
// checkpoint: its shard, its candidate model, its optimizer state, its
// evaluation games and its metrics line; and the optimizer state of the
// iteration before the checkpoint's, if a kill kept it from being deleted.
func (r *Run) dropUnfinished() error {
	infos, err := data.ListShards(r.dir.Shards())
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
	next := r.state.Iteration + 1
	drop := []string{r.dir.Model(next), r.dir.Optimizer(next), r.dir.Games(next, GateGames), r.dir.Games(next, BaselineGames),
		r.dir.Games(next, LadderGames), cluster.LedgerFile(r.dir.Cluster(), next)}
	if r.state.Iteration > 1 {
		drop = append(drop, r.dir.Optimizer(r.state.Iteration-1))
	}
	for _, path := range drop {
		if err := removeIfExists(path); err != nil {
			return fmt.Errorf("train: resume: %w", err)
		}
	}
	if err := r.pruneLadder(); err != nil {
		return err
	}
	return truncateMetrics(r.dir.Metrics(), r.state.Iteration)
}

// Close releases the run's trainer and self-play workers.
func (r *Run) Close() error {
	if r.hub != nil {
		r.hub.Close()
		r.hub = nil
	}
	if r.tb != nil {
		r.tb.Close()
		r.tb = nil
	}
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
func (r *Run) Dir() Dir { return r.dir }

// done reports whether the run has reached its iteration count or budget,
// or played its budget's final evaluation (finalEval).
func (r *Run) done() bool { return r.Finished() != "" }

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
