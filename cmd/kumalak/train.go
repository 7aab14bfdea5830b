package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"kumalak/agent"
	"kumalak/env"
	"kumalak/models"
	"kumalak/net"
	"kumalak/train"
)

// trainFlags are the per-run items the command line may override.
type trainFlags struct {
	config, run        string
	resume             bool
	seed               uint64
	workers, iters     int
	budget             time.Duration
	quiet              bool
	tablebase          string // overrides the config's tablebase when given
	seedSet, itersSet  bool
	budgetSet, wrkrSet bool
	host               hostFlags
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
			"  kumalak train --config configs/tiny.yaml --run runs/tiny --iterations 2\n" +
			"  kumalak train --config configs/tiny.yaml --run runs/tiny --listen 0.0.0.0:4222",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			fl := c.Flags()
			f.seedSet, f.itersSet, f.budgetSet, f.wrkrSet = fl.Changed("seed"), fl.Changed("iterations"), fl.Changed("budget"), fl.Changed("workers")
			return runTrain(c, f)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.config, "config", "configs/togyz.yaml", "YAML config of the run (see configs/)")
	fl.StringVar(&f.run, "run", "", "run folder (default runs/<game>)")
	fl.BoolVar(&f.resume, "resume", false, "continue the run in --run from its checkpoint (starts it when there is none)")
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
	cfg, dir, err := f.request().Resolve()
	if err != nil {
		return usageError{err}
	}
	f.run = dir.String()
	opt := train.Options{Dir: dir, Resume: f.resume, Progress: c.ErrOrStderr(), Log: c.OutOrStdout(),
		Command: commandLine()}
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
	if id := run.RunID(); id != "" {
		fmt.Fprintf(out, "nats: run id %s\n", id)
	}
	st := run.State()
	fmt.Fprintf(out, "run %s: game %s, iteration %d done, %s trained, inference kernel %s\n",
		f.run, cfg.Game, st.Iteration, st.Elapsed().Round(time.Second), kernelName())
	if why := run.Finished(); why != "" {
		fmt.Fprintf(out, "run %s is already finished: %s; nothing to train\n", f.run, why)
	} else if cfg.Budget > 0 && cfg.Eval.FinalBaselineGames > 0 {
		fmt.Fprintf(out, "budget %s: the run stops by then, its final evaluation (%d games a baseline) included\n", cfg.Budget, cfg.Eval.FinalBaselineGames)
	}
	err = run.Train(ctx)
	st = run.State()
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(out, "stopped; the run continues from iteration %d with: kumalak train --run %s --resume\n", st.Iteration, f.run)
	case err != nil:
		return err
	default:
		fmt.Fprintf(out, "finished: %s; to train it further: %s train --run %s --resume %s\n", run.Finished(), selfName(), f.run, run.Further())
	}
	dir = run.Dir()
	fmt.Fprintf(out, "best model: %s (iteration %d of %d, %d games, %d samples, %s)\n",
		dir.Best(), st.BestIteration, st.Iteration, st.Games, st.Samples, st.Elapsed().Round(time.Second))
	fmt.Fprintf(out, "metrics:    %s, plots %s and %s\n", dir.Metrics(), dir.LossPlot(), dir.EloPlot())
	self := selfName()
	fmt.Fprintf(out, "play it:    %s play --model %s\n", self, dir.Best())
	fmt.Fprintf(out, "            %s serve --model %s   (then open http://127.0.0.1:8080)\n", self, dir.Best())
	if sp, err := agent.ModelSpec(dir.Best(), 0); err == nil { // a path with a comma has no spec
		fmt.Fprintf(out, "measure it: %s arena --game %s --a %s --b ab:depth=4 --games 100\n", self, cfg.Game, sp)
		if err := versusShipped(out, run, cfg.Game, sp.String()); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "export it:  %s export --run %s\n", self, f.run)
	return nil
}

// versusShipped says how the run's best network compares with the game's
// shipped model (none for a game with none shipped): by their ratings when
// both were rated on one scale, always with the arena command that
// measures them head to head.
func versusShipped(w io.Writer, run *train.Run, game, spec string) error {
	g, err := env.Lookup(game)
	if err != nil || g.Facts.Model == "" {
		return nil
	}
	b, err := models.Bytes(g.Facts.Model)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	m, err := net.Unmarshal(b)
	if err != nil {
		return fmt.Errorf("train: the shipped %s model: %w", game, err)
	}
	v, err := run.Against(m.Meta.Card)
	if err != nil {
		return err
	}
	cmd := fmt.Sprintf("%s arena --game %s --a %s --b model --games 100", selfName(), game, spec)
	if verdict := v.Verdict(); verdict != "" {
		fmt.Fprintf(w, "vs shipped: %s the model shipped in the binary by their ratings (%s = 0): this run's %+.0f ± %.0f at iteration %d, the shipped model's %+.0f ± %.0f\n",
			verdict, v.Zero, v.Rating.Elo, v.Rating.Err, v.Iteration, v.Other.Elo, v.Other.Err)
		fmt.Fprintf(w, "            head to head: %s\n", cmd)
		return nil
	}
	fmt.Fprintf(w, "vs shipped: not rated on the shipped model's scale; measure it head to head: %s\n", cmd)
	return nil
}

// selfName is how the user ran this binary ("bin/kumalak" from make),
// for the commands printed at the end of a run.
func selfName() string {
	if p := os.Args[0]; filepath.Base(p) == "kumalak" {
		return p
	}
	return "kumalak"
}

// request is what the flags ask of the run: the flags set override the
// config.
func (f trainFlags) request() train.Request {
	r := train.Request{Config: f.config, Run: train.Dir(f.run), Resume: f.resume, Tablebase: f.tablebase}
	if f.seedSet {
		r.Seed = &f.seed
	}
	if f.itersSet {
		r.Iterations = &f.iters
	}
	if f.budgetSet {
		r.Budget = &f.budget
	}
	if f.wrkrSet {
		r.Games = &f.workers
	}
	return r
}

// commandLine is the command that is running, as a person would type it:
// "kumalak" and its arguments, quoted where a shell needs it.
func commandLine() string {
	args := []string{"kumalak"}
	for _, a := range os.Args[1:] {
		if a == "" || strings.ContainsAny(a, " \t'\"$\\*?;&|<>()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		args = append(args, a)
	}
	return strings.Join(args, " ")
}
