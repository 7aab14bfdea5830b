package cluster

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"kumalak/data"
	"kumalak/env"
	_ "kumalak/env/games"
	"kumalak/net"
	"kumalak/net/tinynet"
	"kumalak/selfplay"
)

// testTimeout bounds every wait of the tests: generous, for a loaded machine.
const testTimeout = 60 * time.Second

// startServer starts an embedded server in a temporary folder, on a free
// loopback port, shut down when the test ends.
func startServer(t *testing.T, cfg ServerConfig) *Server {
	t.Helper()
	if cfg.Dir == "" {
		cfg.Dir = filepath.Join(t.TempDir(), "nats")
	}
	if cfg.TrainerToken == "" {
		cfg.TrainerToken = trainerToken
	}
	s, err := StartServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// trainerToken is the trainer's secret on the tests' servers.
const trainerToken = "trainer-secret"

// trainerDial connects to the server at url as the trainer.
func trainerDial(t *testing.T, url string) *nats.Conn {
	t.Helper()
	return dial(t, ConnConfig{URL: url, Token: trainerToken, Backoff: func(int) time.Duration { return 10 * time.Millisecond }})
}

// dial connects to url with cfg, closed when the test ends.
func dial(t *testing.T, cfg ConnConfig) *nats.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	nc, err := Connect(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

func togyzLayout(t *testing.T) (data.Layout, *env.Spec) {
	t.Helper()
	spec, err := envSpec("togyz")
	if err != nil {
		t.Fatal(err)
	}
	return layoutOf(spec), spec
}

func envSpec(game string) (*env.Spec, error) { return env.Lookup(game) }

func layoutOf(spec *env.Spec) data.Layout {
	return data.Layout{Game: spec.Name, ObsVersion: spec.ObsVersion, ObsLen: spec.ObsLen, NumActions: spec.NumActions}
}

// tinySettings are the settings of a run of fast togyz games.
func tinySettings(t *testing.T, run string) Settings {
	lay, _ := togyzLayout(t)
	sp := selfplay.DefaultConfig()
	sp.Games, sp.FullSims, sp.CheapSims, sp.MaxPlies, sp.TempPlies = 2, 4, 2, 60, 4
	sp.Search.MaxNodes = 1024
	return Settings{Run: run, Layout: lay, BatchVersion: BatchVersion, SelfPlay: sp, Batcher: net.DefaultBatcherConfig(), Seed: 1}
}

// tinyModel is a small random network for the layout.
func tinyModel(lay data.Layout, seed uint64) *net.Model {
	return tinynet.Model(tinynet.Game{Name: lay.Game, ObsVersion: lay.ObsVersion, ObsLen: lay.ObsLen, Actions: lay.NumActions}, seed, nil)
}

// fakeBatch is a batch of n samples of layout lay with distinct values.
func fakeBatch(lay data.Layout, run, worker, id string, network, n int) *Batch {
	b := &Batch{ID: id, Run: run, Worker: worker, Layout: lay, Network: network, Games: 1}
	for i := range n {
		s := data.Sample{Obs: make([]float32, lay.ObsLen), Policy: make([]float32, lay.NumActions), Legal: 1, Ply: uint16(i)}
		s.Obs[i%lay.ObsLen] = float32(i + 1)
		s.Policy[0] = 1
		s.Outcome, s.RootValue, s.Score = 1, 0.5, 0.25
		b.Samples = append(b.Samples, s)
	}
	return b
}

// openHub opens a hub for settings st on nc with a ledger in a temp folder.
func openHub(t *testing.T, nc *nats.Conn, st Settings, ledgerDir string, maxAge int) *Hub {
	t.Helper()
	if ledgerDir == "" {
		ledgerDir = t.TempDir()
	}
	l, err := OpenLedger(ledgerDir, 0)
	if err != nil {
		t.Fatal(err)
	}
	h, err := OpenHub(testCtx(t), nc, l, HubConfig{Settings: st, MaxAge: maxAge, AckWait: time.Second, Log: func(m string) { t.Log(m) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

func jsOf(t *testing.T, nc *nats.Conn) jetstream.JetStream {
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// eventually polls cond until it holds or the test timeout passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// takeUntil takes from h until done(batches taken so far) holds.
func takeUntil(t *testing.T, h *Hub, done func([]*Batch) bool) *Take {
	t.Helper()
	all := &Take{}
	eventually(t, "batches", func() bool {
		tk, err := h.Take(testCtx(t))
		if err != nil {
			t.Fatal(err)
		}
		all.Batches = append(all.Batches, tk.Batches...)
		return done(all.Batches)
	})
	return all
}

// issueAll issues credentials for each worker of run in a roster in a
// temporary cluster folder, and returns the roster's path and the
// credentials by worker id.
func issueAll(t *testing.T, run string, workers ...string) (string, map[string]WorkerCreds) {
	t.Helper()
	dir := t.TempDir()
	r := &Roster{Version: RosterVersion, Run: run}
	creds := map[string]WorkerCreds{}
	for _, w := range workers {
		c, err := r.Issue(w, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		creds[w] = c
	}
	if err := writeRoster(dir, r); err != nil {
		t.Fatal(err)
	}
	return RosterFile(dir), creds
}

// workerDial connects to url with a worker's credentials.
func workerDial(t *testing.T, url string, c WorkerCreds) *nats.Conn {
	t.Helper()
	return dial(t, ConnConfig{URL: url, Creds: &c, Backoff: func(int) time.Duration { return 10 * time.Millisecond }})
}

// credsOpts are the nats options of a worker's credentials: its key and
// its inbox prefix.
func credsOpts(t *testing.T, c WorkerCreds) []nats.Option {
	t.Helper()
	kp, err := nkeys.FromSeed([]byte(c.Seed))
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	return []nats.Option{nats.Nkey(pub, kp.Sign), nats.CustomInboxPrefix(InboxPrefix(c.Run, c.Worker))}
}
