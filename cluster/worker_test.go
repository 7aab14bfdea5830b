package cluster

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestWorkerPlaysSwitchesAndReconnects runs a worker against a hub: it
// publishes batches, switches to a newly published network, keeps playing
// while the server is down and carries on after its restart, and everything it published reaches the
// hub exactly once.
func TestWorkerPlaysSwitchesAndReconnects(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nats")
	roster, creds := issueAll(t, "work", "w1")
	s1, err := StartServer(ServerConfig{Dir: dir, TrainerToken: trainerToken, Roster: roster})
	if err != nil {
		t.Fatal(err)
	}
	addr := s1.Addr()
	st := tinySettings(t, "work")
	trainer := trainerDial(t, s1.URL())
	h := openHub(t, trainer, st, t.TempDir(), 0)
	if err := h.Publish(testCtx(t), 0, tinyModel(st.Layout, 1)); err != nil {
		t.Fatal(err)
	}
	w1 := creds["w1"]
	nc := dial(t, ConnConfig{URL: s1.URL(), Creds: &w1, Backoff: noRetry})
	w, err := NewWorker(nc, WorkerConfig{ID: "w1", Run: "work", BatchSamples: 100, Parallel: 2, Threads: 1, PublishTimeout: time.Second, Log: func(m string) { t.Log(m) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()

	eventually(t, "a first batch", func() bool { return w.Progress().Batches >= 1 })
	s1.Close()
	// The worker keeps playing while the server is away (no request to it
	// holds a game up), and its finished games wait to be published, up to
	// the queue's 16 batches (of 100 samples here: about 25 games).
	g0 := w.Progress().Games
	eventually(t, "games played while the server is away", func() bool {
		p := w.Progress()
		return p.Games >= g0+6 && p.Queued >= 2
	})
	s2 := startServer(t, ServerConfig{Dir: dir, Listen: addr, Roster: roster})
	before := w.Progress().Batches
	eventually(t, "batches after the restart", func() bool { return w.Progress().Batches >= before+2 })
	eventually(t, "the trainer to reconnect", trainer.IsConnected)
	if err := h.Publish(testCtx(t), 1, tinyModel(st.Layout, 2)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the switch to network 1", func() bool { return w.Progress().Network == 1 })
	// Games in flight at the switch finish with network 0 (at most one round
	// of Parallel games); those after them are network 1's, and every
	// finished game's samples are published by the end (checked below).
	g1 := w.Progress().Games
	eventually(t, "games of network 1", func() bool { return w.Progress().Games >= g1+3 })
	if ws, err := h.Workers(testCtx(t)); err != nil || len(ws) != 1 || ws[0] != "w1" {
		t.Fatalf("workers attached: %v (%v)", ws, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("worker: %v", err)
	}
	p := w.Progress()
	if p.Lost != 0 || p.Queued != 0 {
		t.Fatalf("worker lost %d samples, %d batches queued", p.Lost, p.Queued)
	}
	ids := map[string]bool{}
	samples := 0
	sawNew := false
	take := takeUntil(t, h, func(b []*Batch) bool {
		n := 0
		for _, x := range b {
			n += len(x.Samples)
		}
		return n >= int(p.Published)
	})
	for _, b := range take.Batches {
		if ids[b.ID] {
			t.Fatalf("batch %s taken twice", b.ID)
		}
		ids[b.ID] = true
		samples += len(b.Samples)
		sawNew = sawNew || b.Network == 1
	}
	if int64(samples) != p.Published || int64(samples) != p.Samples {
		t.Fatalf("hub took %d samples, worker published %d of %d", samples, p.Published, p.Samples)
	}
	if !sawNew {
		t.Fatal("no batch played by network 1")
	}
	if ws, err := h.Workers(testCtx(t)); err != nil || len(ws) != 0 {
		t.Fatalf("workers attached after the worker stopped: %v (%v)", ws, err)
	}
	s2.Close()
}

// TestWorkerFollowsCurrentRun: a worker joined to the current run moves to
// the next one when another trainer makes it current. Its connection has
// every right here, as on a standalone server with one token for all
// (credentials of its own would tie it to one run).
func TestWorkerFollowsCurrentRun(t *testing.T) {
	s := startServer(t, ServerConfig{})
	trainer := trainerDial(t, s.URL())
	a := tinySettings(t, "runA")
	ha := openHub(t, trainer, a, "", 0)
	if err := ha.Publish(testCtx(t), 0, tinyModel(a.Layout, 1)); err != nil {
		t.Fatal(err)
	}
	w, err := NewWorker(trainerDial(t, s.URL()), WorkerConfig{ID: "w1", BatchSamples: 10, Parallel: 2, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	eventually(t, "batches for run A", func() bool { return w.Progress().Batches >= 1 })
	b := tinySettings(t, "runB")
	hb := openHub(t, trainer, b, "", 0)
	if err := hb.Publish(testCtx(t), 0, tinyModel(b.Layout, 2)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the worker to join run B", func() bool { return w.Progress().Run == "runB" })
	took := takeUntil(t, hb, func(bs []*Batch) bool { return len(bs) > 0 })
	if took.Batches[0].Run != "runB" {
		t.Fatalf("run B took a batch of %s", took.Batches[0].Run)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
