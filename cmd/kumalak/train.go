package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"kumalak/train"
)

// trainFlags are the per-run items the command line may override.
type trainFlags struct {
	config, run, init string
	resume            bool
	seed              uint64
	workers, iters    int
	budget            time.Duration
	quiet             bool
	tablebase         string // overrides the config's tablebase when given
	host              hostFlags
}

func newTrainCmd() *cobra.Command {
	var f trainFlags
	c := &cobra.Command{
		Use:   "train",
		Short: "Train an agent by self-play: self-play, training, evaluation, checkpoint, repeated",
		Long: "train runs iterations of self-play with the best network, training on the replay window,\n" +
			"evaluation (gating and fixed baselines) and a checkpoint, until the config's iteration\n" +
			"count or time budget is reached. The run folder holds the resolved config, the checkpoint,\n" +
			"the metrics log and its plots, a network per iteration and the best network (docs/TRAINING.md's\n" +
			"run-folder table names every file). Ctrl-C stops at the next safe point; a stopped\n" +
			"or killed run continues with --resume from its last checkpoint. It hosts an embedded NATS\n" +
			"server (loopback only unless --listen; --nats uses another server, --nats off none)\n" +
			"through which workers on other machines (kumalak worker) join the run and send samples;\n" +
			"see docs/DISTRIBUTED.md.",
		Example: "  kumalak train --config configs/togyz.yaml\n" +
			"  kumalak train --config configs/togyz.yaml --run runs/togyz --resume --budget 2h\n" +
			"  kumalak train --config configs/mangala-kale.yaml --init models/mangala-kale.kmodel --budget 1h\n" +
			"  kumalak train --config configs/tiny.yaml --run runs/tiny --iterations 2\n" +
			"  kumalak train --config configs/tiny.yaml --run runs/tiny --listen 0.0.0.0:4222",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runTrain(c, f) },
	}
	fl := c.Flags()
	fl.StringVar(&f.config, "config", "configs/togyz.yaml", "YAML config of the run (see configs/)")
	fl.StringVar(&f.run, "run", "", "run folder (default runs/<game>)")
	fl.BoolVar(&f.resume, "resume", false, "continue the run in --run from its checkpoint (starts it when there is none)")
	fl.StringVar(&f.init, "init", "", "a new run starts from this .kmodel's network (e.g. a shipped model, to go on training it on another machine) instead of random weights")
	fl.Uint64Var(&f.seed, "seed", 0, "override the config's seed")
	fl.IntVar(&f.workers, "workers", 0, "override selfplay.games: games played at once")
	fl.IntVar(&f.iters, "iterations", 0, "override the config's iteration count (0 = no limit)")
	fl.DurationVar(&f.budget, "budget", 0, "override the config's time budget for the whole run, e.g. 30m (0 = none)")
	fl.BoolVar(&f.quiet, "quiet", false, "no progress bars, one line per iteration")
	f.host.add(c)
	fl.StringVar(&f.tablebase, "tablebase", "", "override the config's tablebase: a mangala tablebase folder for exact leaves and the mistake rate")
	return c
}

func runTrain(c *cobra.Command, f trainFlags) error {
	cfg, dir, err := f.request(c.Flags().Changed).Resolve()
	if err != nil {
		return usageError{err}
	}
	opt := train.Options{Dir: dir, Resume: f.resume, Init: f.init, Progress: c.ErrOrStderr(), Log: c.OutOrStdout(),
		Command: train.CommandLine(append([]string{"kumalak"}, os.Args[1:]...))}
	if f.quiet {
		opt.Progress = nil
	}
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out := c.OutOrStdout()
	h, err := openHost(ctx, f.host, opt.Dir, out, c.ErrOrStderr())
	if err != nil {
		return err
	}
	defer h.Close()
	opt.NATS = h.Conn
	run, err := train.Open(cfg, opt)
	if err != nil {
		return err
	}
	defer run.Close()
	run.WriteStart(out)
	err = run.Train(ctx)
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return run.WriteEnd(out, selfName(), err != nil)
}

// selfName is how the user ran this binary ("bin/kumalak" from make),
// for the commands printed at the end of a run.
func selfName() string {
	if p := os.Args[0]; filepath.Base(p) == "kumalak" {
		return p
	}
	return "kumalak"
}

// request is what the flags ask of the run: the flags set (changed)
// override the config.
func (f trainFlags) request(changed func(flag string) bool) train.Request {
	r := train.Request{Config: f.config, Run: train.Dir(f.run), Resume: f.resume, Tablebase: f.tablebase}
	if changed("seed") {
		r.Seed = &f.seed
	}
	if changed("iterations") {
		r.Iterations = &f.iters
	}
	if changed("budget") {
		r.Budget = &f.budget
	}
	if changed("workers") {
		r.Games = &f.workers
	}
	return r
}
