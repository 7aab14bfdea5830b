package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"kumalak/data"
	"kumalak/env"
	"kumalak/net"
	"kumalak/selfplay"
)

// WorkerConfig sets up one worker process.
type WorkerConfig struct {
	ID       string // worker id, a subject token; it names the worker's samples in the trainer's metrics
	Run      string // run to join; "" = the server's current run
	Games    int    // stop after this many finished games; 0 = until the context ends
	Parallel int    // games played at once; 0 = the run's selfplay.games
	Threads  int    // network evaluation goroutines; 0 = the run's batcher.workers
	// BatchSamples: finished games are published once this many of their
	// samples wait (or the network changes, or the worker stops); 0 = 256.
	BatchSamples int
	// Seed of the worker's games; 0 = drawn afresh each start, so that a
	// restarted worker never replays the games it played before.
	Seed uint64
	// DrainTimeout is how long a stopping worker keeps trying to publish
	// its finished games; 0 = 30s.
	DrainTimeout time.Duration
	// PublishTimeout is how long one publish waits for the stream's
	// confirmation before it is sent again; 0 = 5s.
	PublishTimeout time.Duration
	Log            func(msg string) // waiting, network switches, publish retries; nil = none
}

// WorkerProgress is a snapshot of a worker's counters.
type WorkerProgress struct {
	Run        string `json:"run"`
	Network    int    `json:"network"`            // version of the network playing now
	Games      int64  `json:"games"`              // finished games
	Samples    int64  `json:"samples"`            // samples of finished games
	Batches    int64  `json:"batches"`            // batches the server confirmed
	Published  int64  `json:"published"`          // samples in them
	Duplicates int64  `json:"duplicates"`         // re-sent batches the server already held
	Lost       int64  `json:"lost"`               // samples of finished games not published before the drain timeout
	Queued     int64  `json:"queued"`             // batches waiting to be published
	Detached   bool   `json:"detached,omitempty"` // in the last heartbeat of a stopping worker
}

// Worker plays self-play games for a run and publishes their samples.
type Worker struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	cfg     WorkerConfig
	session string // random per process: message ids never repeat across restarts
	seq     int
	queue   chan *Batch // to the publisher
	layout  data.Layout // of the run joined

	run                                                    atomic.Value // string
	network                                                atomic.Int64
	games, samples, batches, published, dups, lost, queued atomic.Int64
}

// NewWorker checks cfg and returns a worker on connection nc.
func NewWorker(nc *nats.Conn, cfg WorkerConfig) (*Worker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.BatchSamples == 0 {
		cfg.BatchSamples = 256
	}
	if cfg.DrainTimeout == 0 {
		cfg.DrainTimeout = 30 * time.Second
	}
	if cfg.PublishTimeout == 0 {
		cfg.PublishTimeout = 5 * time.Second
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("cluster: worker: %w", err)
	}
	var s [6]byte
	if _, err := rand.Read(s[:]); err != nil {
		return nil, fmt.Errorf("cluster: worker: %w", err)
	}
	w := &Worker{nc: nc, js: js, cfg: cfg, session: hex.EncodeToString(s[:])}
	w.run.Store("")
	return w, nil
}

// Validate checks the worker's id and run and the ranges of its counts.
func (cfg WorkerConfig) Validate() error {
	if err := ValidWorker(cfg.ID); err != nil {
		return err
	}
	if cfg.Run != "" {
		if err := ValidName("run", cfg.Run); err != nil {
			return err
		}
	}
	if cfg.Games < 0 || cfg.Parallel < 0 || cfg.Parallel > selfplay.MaxGames || cfg.Threads < 0 || cfg.Threads > 256 || cfg.BatchSamples < 0 || cfg.BatchSamples > MaxBatchSamples {
		return fmt.Errorf("cluster: worker: games %d, parallel %d, threads %d or batch %d out of range", cfg.Games, cfg.Parallel, cfg.Threads, cfg.BatchSamples)
	}
	return nil
}

// Progress returns the worker's counters; safe for concurrent use.
func (w *Worker) Progress() WorkerProgress {
	return WorkerProgress{
		Run: w.run.Load().(string), Network: int(w.network.Load()),
		Games: w.games.Load(), Samples: w.samples.Load(), Batches: w.batches.Load(), Published: w.published.Load(),
		Duplicates: w.dups.Load(), Lost: w.lost.Load(), Queued: w.queued.Load(),
	}
}

// Run joins the run (waiting until the trainer has published it), plays
// games with its best network, switching to each newly promoted one between
// rounds of games, and publishes every finished game's samples. When ctx
// ends, games in flight are abandoned, the finished ones are published
// (trying for DrainTimeout) and Run returns nil. It returns an error when
// the run cannot be played by this build, or a search fails.
func (w *Worker) Run(ctx context.Context) error {
	for {
		err := w.runOnce(ctx)
		if !errors.Is(err, errRunChanged) {
			return err
		}
		w.logf("worker: the server's current run changed; joining it")
	}
}

// errRunChanged ends runOnce when the server's current run is another one
// than the worker plays (and it was not told which run to join).
var errRunChanged = errors.New("cluster: worker: current run changed")

// runOnce joins one run and plays for it until ctx ends or the current run changes.
func (w *Worker) runOnce(ctx context.Context) error {
	st, spec, err := w.join(ctx)
	if err != nil {
		return ignoreDone(ctx, err)
	}
	w.run.Store(st.Run)
	w.layout = st.Layout
	v, m, err := w.waitModel(ctx, st.Run, -1)
	if err != nil {
		return ignoreDone(ctx, err)
	}
	if err := checkModel(m, st.Layout); err != nil {
		return fmt.Errorf("cluster: worker: network %d: %w", v, err)
	}
	bc := st.Batcher
	if w.cfg.Threads > 0 {
		bc.Workers = w.cfg.Threads
	}
	ev := net.NewBatcher(m.Params, bc)
	defer ev.Close()
	sp := st.SelfPlay
	if w.cfg.Parallel > 0 {
		sp.Games = w.cfg.Parallel
	}
	pool, err := selfplay.NewPool(spec, ev, sp)
	if err != nil {
		return fmt.Errorf("cluster: worker: %w", err)
	}
	w.network.Store(int64(v))
	pub := w.startPublisher(ctx, st)
	hbCtx, stopHB := context.WithCancel(ctx)
	hbDone := w.startHeartbeat(hbCtx, st.Run)
	err = w.play(ctx, st, pool, ev, v, sp.Games)
	pub.close()
	stopHB()
	<-hbDone
	return ignoreDone(ctx, err)
}

func ignoreDone(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil
	}
	return err
}

// join waits for the run's settings and checks that this build plays them.
func (w *Worker) join(ctx context.Context) (Settings, *env.Spec, error) {
	var st Settings
	err := w.poll(ctx, "the trainer to publish a run", func() error {
		var err error
		st, err = GetSettings(ctx, w.js, w.cfg.Run)
		return err
	})
	if err != nil {
		return st, nil, err
	}
	spec, err := env.Lookup(st.Layout.Game)
	if err != nil {
		return st, nil, fmt.Errorf("cluster: worker: run %s: %w", st.Run, err)
	}
	mine := data.Layout{Game: spec.Name, ObsVersion: spec.ObsVersion, ObsLen: spec.ObsLen, NumActions: spec.NumActions}
	if mine != st.Layout {
		return st, nil, fmt.Errorf("cluster: worker: run %s encodes %s as %s (%d features, %d actions), this build as %s (%d, %d): use the trainer's kumalak version",
			st.Run, st.Layout.Game, st.Layout.ObsVersion, st.Layout.ObsLen, st.Layout.NumActions, mine.ObsVersion, mine.ObsLen, mine.NumActions)
	}
	return st, spec, nil
}

// poll calls try until it succeeds, waiting with backoff while it reports
// ErrNoRun or the connection is down; other errors end it.
func (w *Worker) poll(ctx context.Context, what string, try func() error) error {
	for attempt := 1; ; attempt++ {
		err := try()
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrNoRun) && !transient(err) {
			return err
		}
		if attempt == 1 || attempt%20 == 0 {
			w.logf("worker: waiting for %s (%v)", what, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(Backoff(attempt)):
		}
	}
}

// transient reports errors that a reconnect or a moment's wait can cure.
func transient(err error) bool {
	return errors.Is(err, nats.ErrTimeout) || errors.Is(err, nats.ErrNoResponders) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, nats.ErrConnectionClosed) || errors.Is(err, nats.ErrDisconnected) || errors.Is(err, jetstream.ErrBucketNotFound) ||
		errors.Is(err, jetstream.ErrObjectNotFound) || errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, nats.ErrConnectionReconnecting)
}

// waitModel waits for a best version other than old and fetches it.
func (w *Worker) waitModel(ctx context.Context, run string, old int) (int, *net.Model, error) {
	var (
		v int
		m *net.Model
	)
	err := w.poll(ctx, "the run's network", func() error {
		var err error
		if v, err = w.bestVersion(ctx, run); err != nil {
			return err
		}
		if v == old {
			return nil
		}
		m, err = GetModel(ctx, w.js, run, v)
		return err
	})
	return v, m, err
}

func (w *Worker) bestVersion(ctx context.Context, run string) (int, error) {
	c, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	return BestVersion(c, w.js, run)
}

// play runs rounds of games until ctx ends or cfg.Games are finished.
func (w *Worker) play(ctx context.Context, st Settings, pool *selfplay.Pool, ev *net.Batcher, v, parallel int) error {
	acc := &pending{w: w, st: st, network: v}
	seed := w.seed(st)
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	updates := w.watch(wctx, st.Run, v)
	for round := uint64(0); ctx.Err() == nil && (w.cfg.Games == 0 || w.games.Load() < int64(w.cfg.Games)); round++ {
		select {
		case u := <-updates:
			acc.flush()
			if u.runChanged {
				return errRunChanged
			}
			ev.SetParams(u.m.Params)
			v, acc.network = u.v, u.v
			w.network.Store(int64(v))
			w.logf("worker: now playing with network %d", v)
		default:
		}
		n := parallel
		if w.cfg.Games > 0 {
			n = min(n, w.cfg.Games-int(w.games.Load()))
		}
		_, err := pool.Run(ctx, n, seed+round*0x9e3779b97f4a7c15, func(g selfplay.GameResult) {
			w.games.Add(1)
			w.samples.Add(int64(len(g.Samples)))
			acc.add(g.Samples)
		})
		if err != nil && ctx.Err() == nil {
			acc.flush()
			return fmt.Errorf("cluster: worker: %w", err)
		}
	}
	acc.flush()
	return nil
}

// WatchEvery is how often (jittered) a worker asks the server for a newer
// network and, unless told its run, for the current run.
const WatchEvery = time.Second

// update is what the watcher found: a newer network, or that the server's
// current run is another one.
type update struct {
	v          int
	m          *net.Model
	runChanged bool
}

// watch asks the server, every WatchEvery, for the run's best network
// (fetching it when it is not version v) and, unless the worker was told
// its run, for the current run, on its own goroutine: the games never wait
// on the server, whether it is there or not. The newest finding waits in
// the returned channel.
func (w *Worker) watch(ctx context.Context, run string, v int) <-chan update {
	out := make(chan update, 1)
	post := func(u update) {
		select {
		case <-out: // an older finding nobody took yet
		default:
		}
		out <- u
	}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(Jitter(2 * WatchEvery)):
			}
			if w.cfg.Run == "" {
				c, cancel := context.WithTimeout(ctx, callTimeout)
				cur, err := CurrentRun(c, w.js)
				cancel()
				if err == nil && cur != run {
					post(update{runChanged: true})
					return
				}
			}
			nv, err := w.bestVersion(ctx, run)
			if err != nil || nv == v {
				continue
			}
			m, err := GetModel(ctx, w.js, run, nv)
			if err == nil {
				err = checkModel(m, w.layout)
			}
			if err != nil {
				if ctx.Err() == nil {
					w.logf("worker: fetch network %d: %v", nv, err)
				}
				continue
			}
			v = nv
			post(update{v: nv, m: m})
		}
	}()
	return out
}

// checkModel checks that m plays the layout's game with its encoding and sizes.
func checkModel(m *net.Model, lay data.Layout) error {
	if err := m.Meta.Fits(lay.Game, lay.ObsVersion); err != nil {
		return err
	}
	if c := m.Params.Config; c.InputLen != lay.ObsLen || c.Actions != lay.NumActions {
		return fmt.Errorf("network has %d inputs and %d actions, the game %d and %d", c.InputLen, c.Actions, lay.ObsLen, lay.NumActions)
	}
	return nil
}

// seed returns the seed of the worker's games.
func (w *Worker) seed(st Settings) uint64 {
	if w.cfg.Seed != 0 {
		return w.cfg.Seed
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%s", st.Seed, w.cfg.ID, w.session)
	return h.Sum64()
}

// pending gathers finished games' samples into batches of one network version.
type pending struct {
	w       *Worker
	st      Settings
	network int
	games   int
	samples []data.Sample
}

func (p *pending) add(s []data.Sample) {
	p.games++
	p.samples = append(p.samples, s...)
	limit := p.limit()
	for len(p.samples) >= limit {
		p.send(p.samples[:limit:limit])
		p.samples = p.samples[limit:]
	}
}

// limit is the most samples per batch: BatchSamples, the run's MaxBatch,
// and what fits in half the server's largest message uncompressed.
func (p *pending) limit() int {
	rs := data.RecordSize(p.st.Layout.ObsLen, p.st.Layout.NumActions)
	return max(1, min(p.w.cfg.BatchSamples, p.st.MaxBatch, int(p.w.nc.MaxPayload()/2)/rs))
}

func (p *pending) flush() {
	if len(p.samples) > 0 {
		p.send(p.samples)
	}
	p.samples, p.games = nil, 0
}

func (p *pending) send(s []data.Sample) {
	w := p.w
	w.seq++
	b := &Batch{ID: w.cfg.ID + "." + w.session + "." + strconv.Itoa(w.seq), Run: p.st.Run, Worker: w.cfg.ID,
		Layout: p.st.Layout, Network: p.network, Games: p.games, Created: time.Now().UTC(), Samples: s}
	p.games = 0
	w.queued.Add(1)
	w.queue <- b
}
