package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"kumalak/cluster"
	"kumalak/train"
)

// workerFlags are the settings of one worker process.
type workerFlags struct {
	conn  natsFlags
	creds string
	id    string
	run   string
	games int
	par   int
	thr   int
	batch int
	seed  uint64
	quiet bool
	drain time.Duration
}

// natsFlags say how to reach a NATS server: shared by worker and train.
type natsFlags struct {
	url, token, tokenFile, nkey, ca string
}

func (n *natsFlags) add(c *cobra.Command, urlHelp string) {
	fl := c.Flags()
	fl.StringVar(&n.url, "nats", "", urlHelp)
	fl.StringVar(&n.token, "token", "", "a standalone server's token (or set KUMALAK_NATS_TOKEN)")
	fl.StringVar(&n.tokenFile, "token-file", "", "file holding a standalone server's token")
	fl.StringVar(&n.nkey, "nkey", "", "file holding a user NKey seed (SU...), for a standalone server that wants NKeys")
	fl.StringVar(&n.ca, "tls-ca", "", "PEM file of the CA that signed a TLS server's certificate")
}

func (n *natsFlags) config(cmd, name string, log func(string)) (cluster.ConnConfig, error) {
	tok, err := cluster.TokenSource{Token: n.token, File: n.tokenFile, URL: n.url}.Secret(os.Getenv)
	switch {
	case errors.Is(err, cluster.ErrTokenSource):
		return cluster.ConnConfig{}, badInput(cmd, "--token and --token-file: give one")
	case err != nil:
		return cluster.ConnConfig{}, badInput(cmd, "--token-file: %v", err)
	}
	return cluster.ConnConfig{URL: n.url, Token: tok, NKeySeed: n.nkey, CAFile: n.ca, Name: name, Log: log}, nil
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
	fl.IntVar(&f.games, "games", 0, "stop after this many finished games (0 = until Ctrl-C)")
	fl.IntVar(&f.par, "parallel", 0, "games played at once (default: the run's selfplay.games)")
	fl.IntVar(&f.thr, "threads", 0, "network evaluation threads (default: the run's batcher.workers)")
	fl.IntVar(&f.batch, "batch", 0, "publish once this many samples of finished games wait (default 256)")
	fl.Uint64Var(&f.seed, "seed", 0, "seed of the games (default: new at each start)")
	fl.DurationVar(&f.drain, "drain", 30*time.Second, "on stop, how long to keep trying to publish finished games")
	fl.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	return c
}

func runWorker(c *cobra.Command, f workerFlags) error {
	if f.conn.url == "" {
		return badInput("worker", "--nats URL is required (the trainer prints it)")
	}
	errw := c.ErrOrStderr()
	log := func(m string) { fmt.Fprintln(errw, m) }
	cc, err := f.conn.config("worker", "", log)
	if err != nil {
		return err
	}
	id, err := cluster.ResolveIdentity(f.creds, f.id, f.run)
	if err != nil {
		return identityError(err)
	}
	cc.Name, cc.Creds = "kumalak worker "+id.ID, id.Creds
	wc := cluster.WorkerConfig{ID: id.ID, Run: id.Run, Games: f.games, Parallel: f.par,
		Threads: f.thr, BatchSamples: f.batch, Seed: f.seed, DrainTimeout: f.drain, Log: log}
	if err := wc.Validate(); err != nil {
		return badInput("worker", "%v", err)
	}
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := func() {}
	w, err := cluster.RunWorker(ctx, cluster.WorkerRun{Conn: cc, Worker: wc, Started: func(w *cluster.Worker, url string) {
		fmt.Fprintf(c.OutOrStdout(), "worker %s: connected to %s\n", id.ID, url)
		done = watchWorker(errw, w, f.games, f.quiet)
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

// identityError makes an error of cluster.ResolveIdentity a usage error
// naming the flag at fault.
func identityError(err error) error {
	ie, ok := errors.AsType[*cluster.IdentityError](err)
	switch {
	case !ok:
		return badInput("worker", "%v", err)
	case errors.Is(err, cluster.ErrOtherWorker):
		return badInput("worker", "--%s %v: drop --id and --run", ie.Field, ie.Err)
	}
	return badInput("worker", "--%s: %v", ie.Field, ie.Err)
}

// watchWorker shows a progress bar of the worker's games until the
// returned function is called.
func watchWorker(w io.Writer, wk *cluster.Worker, games int, quiet bool) func() {
	if quiet {
		return func() {}
	}
	total := games
	if total == 0 {
		total = -1
	}
	bar := progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(24), progressbar.OptionThrottle(250*time.Millisecond),
		progressbar.OptionSetDescription("worker"), progressbar.OptionSpinnerType(14),
		// No spinner goroutine of the library's own (it reads the bar unlocked):
		// the ticker below renders, and the spinner turns at each render.
		progressbar.OptionSetSpinnerChangeInterval(0))
	stop := train.Every(500*time.Millisecond, func() {
		p := wk.Progress()
		bar.Describe(p.Status())
		_ = bar.Set64(p.Games)
	})
	return func() {
		stop()
		_ = bar.Finish()
		_, _ = io.WriteString(w, "\n")
	}
}
