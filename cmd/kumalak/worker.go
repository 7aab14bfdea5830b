package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"kumalak/cluster"
	"kumalak/train"
)

// workerFlags are the settings of one worker process.
type workerFlags struct {
	conn           natsFlags
	creds, id, run string
	cfg            cluster.WorkerConfig // its counts and seed; ID, Run and Log set by runWorker
	quiet          bool
}

// natsFlags say how to reach a NATS server: shared by worker and train.
type natsFlags struct {
	conn  cluster.ConnConfig // URL, NKeySeed, CAFile
	token cluster.TokenSource
}

func (n *natsFlags) add(c *cobra.Command, urlHelp string) {
	fl := c.Flags()
	fl.StringVar(&n.conn.URL, "nats", "", urlHelp)
	fl.StringVar(&n.token.Token, "token", "", "a standalone server's token (or set KUMALAK_NATS_TOKEN)")
	fl.StringVar(&n.token.File, "token-file", "", "file holding a standalone server's token")
	fl.StringVar(&n.conn.NKeySeed, "nkey", "", "file holding a user NKey seed (SU...), for a standalone server that wants NKeys")
	fl.StringVar(&n.conn.CAFile, "tls-ca", "", "PEM file of the CA that signed a TLS server's certificate")
}

// config returns the connection's settings with the token
// (cluster.TokenSource), a client name and a log.
func (n *natsFlags) config(cmd, name string, log func(string)) (cluster.ConnConfig, error) {
	n.token.URL = n.conn.URL
	tok, err := n.token.Secret(os.Getenv)
	switch {
	case errors.Is(err, cluster.ErrTokenSource):
		return cluster.ConnConfig{}, badInput(cmd, "--token and --token-file: give one")
	case err != nil:
		return cluster.ConnConfig{}, badInput(cmd, "--token-file: %v", err)
	}
	cc := n.conn
	cc.Token, cc.Name, cc.Log = tok, name, log
	return cc, nil
}

func newWorkerCmd() *cobra.Command {
	var f workerFlags
	c := &cobra.Command{
		Use:   "worker",
		Short: "Play self-play games for a training run on another machine, over NATS",
		Long: "worker joins the run a trainer publishes on a NATS server (kumalak train --listen, or a\n" +
			"standalone nats-server the trainer uses with --nats): it learns the game and the self-play\n" +
			"settings, fetches the best network, plays games and publishes their samples, switching to\n" +
			"each newly promoted network between rounds of games. It waits for the server and the run,\n" +
			"reconnects whenever the connection drops, and on Ctrl-C abandons the games in flight,\n" +
			"publishes the finished ones and exits. It joins with the credentials the run issued it\n" +
			"(kumalak worker-credentials issue), which name its run and its id, and exits when they\n" +
			"are revoked. See docs/DISTRIBUTED.md.",
		Example: "  kumalak worker --nats nats://127.0.0.1:4222 --creds wA.creds\n" +
			"  kumalak worker --nats nats://trainer.lan:4222 --creds wA.creds --games 100 --threads 2",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runWorker(c, f) },
	}
	f.conn.add(c, "URL of the NATS server, e.g. nats://host:4222 (required)")
	fl := c.Flags()
	fl.StringVar(&f.creds, "creds", "", "the worker's credentials file, from kumalak worker-credentials issue: its run, its id and its key")
	fl.StringVar(&f.id, "id", "", "without --creds: worker id shown in the trainer's metrics (default <host>-<pid>)")
	fl.StringVar(&f.run, "run", "", "without --creds: run id to join (default: the server's current run)")
	fl.IntVar(&f.cfg.Games, "games", 0, "stop after this many finished games (0 = until Ctrl-C)")
	fl.IntVar(&f.cfg.Parallel, "parallel", 0, "games played at once (default: the run's selfplay.games)")
	fl.IntVar(&f.cfg.Threads, "threads", 0, "network evaluation threads (default: the run's batcher.workers)")
	fl.IntVar(&f.cfg.BatchSamples, "batch", 0, "publish once this many samples of finished games wait (default 256)")
	fl.Uint64Var(&f.cfg.Seed, "seed", 0, "seed of the games (default: new at each start)")
	fl.DurationVar(&f.cfg.DrainTimeout, "drain", 30*time.Second, "on stop, how long to keep trying to publish finished games")
	fl.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	return c
}

func runWorker(c *cobra.Command, f workerFlags) error {
	if f.conn.conn.URL == "" {
		return badInput("worker", "--nats URL is required (the trainer prints it)")
	}
	errw := c.ErrOrStderr()
	log := func(m string) { fmt.Fprintln(errw, m) }
	cc, err := f.conn.config("worker", "", log)
	if err != nil {
		return err
	}
	id, err := cluster.ResolveIdentity(f.creds, f.id, f.run)
	if ie, ok := errors.AsType[*cluster.IdentityError](err); ok {
		hint := ""
		if errors.Is(err, cluster.ErrOtherWorker) {
			hint = ": drop --id and --run"
		}
		return badInput("worker", "--%s: %v%s", ie.Field, ie.Err, hint)
	} else if err != nil {
		return badInput("worker", "%v", err)
	}
	cc.Name, cc.Creds = "kumalak worker "+id.ID, id.Creds
	wc := f.cfg
	wc.ID, wc.Run, wc.Log = id.ID, id.Run, log
	if err := wc.Validate(); err != nil {
		return badInput("worker", "%v", err)
	}
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := func() {}
	w, err := cluster.RunWorker(ctx, cluster.WorkerRun{Conn: cc, Worker: wc, Started: func(w *cluster.Worker, url string) {
		fmt.Fprintf(c.OutOrStdout(), "worker %s: connected to %s\n", id.ID, url)
		done = watchWorker(errw, w, wc.Games, f.quiet)
	}})
	done()
	if w != nil {
		fmt.Fprintf(c.OutOrStdout(), "worker %s: %s\n", id.ID, w.Progress().Summary())
	}
	if err != nil {
		return fmt.Errorf("worker: %w", err)
	}
	return nil
}

// watchWorker shows a progress bar of the worker's games
// (cluster.Worker.ProgressBar), redrawn by train.Every, until the
// returned function is called.
func watchWorker(w io.Writer, wk *cluster.Worker, games int, quiet bool) func() {
	if quiet {
		return func() {}
	}
	draw, finish := wk.ProgressBar(w, games)
	stop := train.Every(500*time.Millisecond, draw)
	return func() {
		stop()
		finish()
	}
}
