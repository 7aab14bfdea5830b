package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"kumalak/agent"
	"kumalak/arena"
	"kumalak/env"
	"kumalak/solve"
)

// matchFlags are the flags shared by arena and tournament.
type matchFlags struct {
	gameFlags
	cfg                       arena.Config // the flags' fields; Start, Clock and Openings set by config
	openings, out, tc, resume string
	quiet                     bool
}

// add adds the flags; gamesHelp says what --games counts.
func (f *matchFlags) add(c *cobra.Command, games int, gamesHelp string) {
	f.gameFlags.add(c)
	fl := c.Flags()
	fl.IntVar(&f.cfg.Games, "games", games, gamesHelp)
	fl.StringVar(&f.tc, "tc", "", "time control [moves/]base[+inc] in seconds, e.g. 60+1, 10+0.1, 40/60: each side's clock; a side whose flag falls loses (Termination tag), and agents search by the time manager's share of their clock (their sims, depth and time limits replaced); empty: no clock")
	fl.IntVar(&f.cfg.Parallel, "parallel", runtime.NumCPU(), "games played at once")
	fl.IntVar(&f.cfg.OpeningPlies, "openings-plies", 4, "random plies from the start that make each pair's opening")
	fl.BoolVar(&f.cfg.Balanced, "balanced", true, "keep only random openings that a quick alpha-beta search rates near even (mangala, mangala-kale, togyz)")
	fl.StringVar(&f.openings, "openings", "", "file of openings, one a line as pit numbers (instead of random ones)")
	fl.Uint64Var(&f.cfg.Seed, "seed", 1, "seed of the openings and the agents")
	fl.IntVar(&f.cfg.MaxPlies, "max-plies", 1000, "moves after the opening before a game is adjudicated by the stores")
	fl.StringVar(&f.out, "out", "runs/arena", "folder for the game logs (JSON lines and a record file); empty: keep none")
	fl.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	fl.StringVar(&f.resume, "resume", "", "go on with the "+c.Name()+" logged in this .jsonl file (one killed, or to more --games): its games are checked against the flags, counted and not played again; new games are added to it and its .kgn")
}

// config returns the game and the match settings, or a usage error.
func (f *matchFlags) config(cmd string) (*env.Spec, arena.Config, error) {
	spec, _, err := f.state(cmd)
	if err != nil {
		return nil, arena.Config{}, err
	}
	c := f.cfg
	c.Start = f.position
	if c.Clock, err = agent.ParseClock(f.tc); err != nil {
		return nil, c, badInput(cmd, "--tc: %s", reason(err))
	}
	if c.Openings, err = arena.ReadOpenings(f.openings); err != nil {
		return nil, c, badInput(cmd, "--openings: %v", err)
	}
	if err := c.Validate(); err != nil {
		return nil, c, badInput(cmd, "%s", reason(err))
	}
	return spec, c, nil
}

// checkAgents builds each spec once (agent.Check), so that a bad one is
// a usage error.
func checkAgents(cmd string, spec *env.Spec, specs ...string) error {
	err := agent.Check(spec, specs...)
	switch {
	case errors.Is(err, agent.ErrClose):
		return fmt.Errorf("%s: %w", cmd, err)
	case err != nil:
		return badInput(cmd, "%v (see kumalak %s --help)", err, cmd)
	}
	return nil
}

// event is how arena and tournament play: the logs of --out or
// --resume, a progress bar unless --quiet.
func (f *matchFlags) event(c *cobra.Command) arena.Event {
	e := arena.Event{Logs: arena.LogsConfig{Dir: f.out, Resume: f.resume, Event: c.Name(), Now: time.Now()}, Out: c.OutOrStdout()}
	if !f.quiet {
		e.Bar = c.ErrOrStderr()
	}
	return e
}

// eventError makes the error of an event a usage error when it is the
// input's fault: a log that cannot be resumed, or a game of it that is
// not of this event; an interrupted event says how far it got.
func (f *matchFlags) eventError(cmd string, err error, played string) error {
	if re, ok := errors.AsType[*arena.ResumeError](err); ok {
		return badInput(cmd, "--resume %s: game %d of the log: %s", f.resume, re.Index+1, re.Reason)
	}
	switch {
	case errors.Is(err, arena.ErrResumeLog):
		return usageError{err} // "arena: resume FILE: ..."
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("%s: interrupted after %s", cmd, played)
	}
	return err
}

func newArenaCmd() *cobra.Command {
	var f matchFlags
	var a, b, sprt, tbDir string
	var alpha, beta float64
	var jf judgeFlags
	c := &cobra.Command{
		Use:   "arena",
		Short: "Play a match between two agents and estimate their Elo difference",
		Long: "arena plays --games games between agents --a and --b, in pairs that share an opening\n" +
			"(--openings-plies random plies from the start, or --openings) with the colours swapped.\n" +
			"It prints W/D/L, the score and the Elo difference with its 95% interval, all from A's view,\n" +
			"and with --sprt the verdict of a sequential test that stops the match once it decides.\n" +
			"Every game is saved under --out twice: as a line of JSON (.jsonl) and in a record file\n" +
			"(.kgn, docs/RECORDS.md) that replay and analyze read.\n\n" + agent.Help(),
		Example: "  kumalak arena --game togyz --a ab:depth=4 --b random --games 100\n" +
			"  kumalak arena --game mangala --a mcts:sims=2000 --b mcts:sims=100 --games 20\n" +
			"  kumalak arena --game togyz --a model:path=runs/togyz/best.kmodel --b ab:depth=6 --games 400 --sprt 0,20",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if a == "" {
				return badInput("arena", "--a is required: the spec of agent A, e.g. ab:depth=4")
			}
			spec, cfg, err := f.config("arena")
			if err != nil {
				return err
			}
			if err := agent.SpecsWithTablebase(spec, tbDir, &a, &b); err != nil {
				return badInput("arena", "--tablebase: %v", err)
			}
			if err := checkAgents("arena", spec, a, b); err != nil {
				return err
			}
			if sprt != "" {
				t, err := arena.ParseSPRT(sprt, alpha, beta)
				if err != nil {
					return badInput("arena", "--sprt: %s", reason(err))
				}
				cfg.SPRT = &t
			}
			m := &arena.Match{Spec: spec, A: a, B: b, Config: cfg}
			if f.resume != "" && (jf.dir != "" || jf.cfg.Extra > 0) {
				return badInput("arena", "--resume with --judge or --judge-extra: judge the finished match's records with kumalak analyze --judge (or --judge-extra)")
			}
			j, err := jf.judge("arena", spec)
			if err != nil {
				return err
			}
			if j != nil {
				defer j.Close()
			}
			return runMatch(c, &f, m, j)
		},
	}
	f.add(c, 100, "games to play (in pairs: one opening, colours swapped)")
	fl := c.Flags()
	fl.StringVar(&a, "a", "", "agent A (required; see the kinds above); results are from A's view")
	fl.StringVar(&b, "b", "random", "agent B")
	fl.StringVar(&sprt, "sprt", "", "run an SPRT of elo0 against elo1, e.g. 0,10 (stops when it decides)")
	fl.Float64Var(&alpha, "alpha", 0.05, "SPRT false-positive rate")
	fl.Float64Var(&beta, "beta", 0.05, "SPRT false-negative rate")
	fl.StringVar(&tbDir, "tablebase", solve.DefaultTablebase(), "tablebase folder (mangala, or kalah for its exact solver) given to both agents (tb's dir, mcts's and model's tablebase); auto: the game's 16-stone one in the user's cache, built once on first use (auto:N for N stones); off: none")
	jf.add(c)
	return c
}

// runMatch plays m (arena.Event.PlayMatch), judged by j when not nil.
func runMatch(c *cobra.Command, f *matchFlags, m *arena.Match, j *solve.Judge) error {
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
	defer stop()
	res, err := f.event(c).PlayMatch(ctx, m, j)
	return f.eventError("arena", err, fmt.Sprintf("%d games", res.Counts.Games()))
}
