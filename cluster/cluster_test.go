package cluster

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// noRetry makes Connect give up quickly when the server is unreachable.
func noRetry(int) time.Duration { return 10 * time.Millisecond }

func TestDuplicatePublishStoredOnce(t *testing.T) {
	s := startServer(t, ServerConfig{})
	nc := trainerDial(t, s.URL())
	st := tinySettings(t, "dup")
	h := openHub(t, nc, st, "", 0)
	js := jsOf(t, nc)
	b := fakeBatch(st.Layout, st.Run, "w1", "w1.s.1", 0, 5)
	for i, want := range []bool{false, true, true} {
		dup, err := Publish(testCtx(t), js, b)
		if err != nil {
			t.Fatal(err)
		}
		if dup != want {
			t.Fatalf("publish %d: duplicate %v, want %v", i, dup, want)
		}
	}
	info, err := js.Stream(testCtx(t), StreamName)
	if err != nil {
		t.Fatal(err)
	}
	if n := info.CachedInfo().State.Msgs; n != 1 {
		t.Fatalf("stream holds %d messages, want 1", n)
	}
	take := takeUntil(t, h, func(b []*Batch) bool { return len(b) > 0 })
	if len(take.Batches) != 1 || take.Samples() != 5 {
		t.Fatalf("took %d batches, %d samples; want 1, 5", len(take.Batches), take.Samples())
	}
}

// TestCredentialsRefused: only the holder of an active key of the roster
// is admitted as a worker; anyone else (no credentials, a token, a key
// the roster does not hold) is refused at once, with an error naming
// --creds; the trainer's in-process connection needs none.
func TestCredentialsRefused(t *testing.T) {
	roster, creds := issueAll(t, "run1", "w1")
	s := startServer(t, ServerConfig{Listen: "127.0.0.1:0", Roster: roster})
	_, stranger := issueAll(t, "run1", "w1")
	cases := map[string]ConnConfig{
		"no credentials": {URL: s.URL()},
		"a token":        {URL: s.URL(), Token: "guess"},
		"unknown key":    {URL: s.URL(), Creds: ptr(stranger["w1"])},
	}
	for what, cc := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := Connect(ctx, cc)
		cancel()
		if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "--creds") {
			t.Fatalf("%s: got %v, want a refusal naming --creds", what, err)
		}
	}
	if nc := workerDial(t, s.URL(), creds["w1"]); !nc.IsConnected() {
		t.Fatal("the worker's credentials: not connected")
	}
	in, err := s.Connect("trainer")
	if err != nil {
		t.Fatalf("in-process with the server's own secret: %v", err)
	}
	in.Close()
}

func ptr[T any](v T) *T { return &v }

func TestCorruptAndForeignRejected(t *testing.T) {
	s := startServer(t, ServerConfig{})
	nc := trainerDial(t, s.URL())
	st := tinySettings(t, "run1")
	h := openHub(t, nc, st, "", 0)
	js := jsOf(t, nc)
	ctx := testCtx(t)
	good := fakeBatch(st.Layout, st.Run, "w1", "w1.s.1", 0, 3)
	body, err := EncodeBatch(good)
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), body...)
	flipped[len(flipped)-2] ^= 0xff
	raw := map[string][]byte{"garbage": []byte("not a batch at all"), "flipped": flipped, "empty": nil}
	for id, data := range raw {
		m := &nats.Msg{Subject: Subject(st.Run, "w1"), Data: data, Header: nats.Header{}}
		if _, err := js.PublishMsg(ctx, m, jetstream.WithMsgID(id)); err != nil {
			t.Fatal(err)
		}
	}
	// a batch for another run, published on this run's subject
	foreign := fakeBatch(st.Layout, "run2", "w1", "w1.s.2", 0, 3)
	body, err = EncodeBatch(foreign)
	if err != nil {
		t.Fatal(err)
	}
	m := &nats.Msg{Subject: Subject(st.Run, "w1"), Data: body}
	if _, err := js.PublishMsg(ctx, m, jetstream.WithMsgID(foreign.ID)); err != nil {
		t.Fatal(err)
	}
	other := st.Layout
	other.ObsVersion = "togyz/0"
	oldEnc := fakeBatch(other, st.Run, "w1", "w1.s.3", 0, 3)
	for _, b := range []*Batch{oldEnc, good} {
		if _, err := Publish(ctx, js, b); err != nil {
			t.Fatal(err)
		}
	}
	take := takeUntil(t, h, func(b []*Batch) bool { c := h.Counters(); return len(b) > 0 && c.Corrupt+c.Foreign == 5 })
	if len(take.Batches) != 1 || take.Batches[0].ID != good.ID {
		t.Fatalf("took %d batches, want only the good one", len(take.Batches))
	}
	c := h.Counters()
	if c.Corrupt != 3 || c.Foreign != 2 {
		t.Fatalf("counters %+v, want 3 corrupt and 2 foreign", c)
	}
	// Terminated at the commit, the rejected messages are no longer
	// pending on the server: nothing is left that it could deliver again.
	h.Commit(take)
	eventually(t, "no message pending on the server", func() bool {
		info, err := h.cons.Info(ctx)
		return err == nil && info.NumAckPending == 0 && info.NumPending == 0
	})
}

func TestServerRestartLosesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nats")
	s1, err := StartServer(ServerConfig{Dir: dir, TrainerToken: trainerToken})
	if err != nil {
		t.Fatal(err)
	}
	addr := s1.Addr()
	nc := trainerDial(t, s1.URL())
	st := tinySettings(t, "restart")
	ledgerDir := t.TempDir()
	h := openHub(t, nc, st, ledgerDir, 0)
	if err := h.Publish(testCtx(t), 0, tinyModel(st.Layout, 1)); err != nil {
		t.Fatal(err)
	}
	js := jsOf(t, nc)
	for i := range 10 {
		if _, err := Publish(testCtx(t), js, fakeBatch(st.Layout, st.Run, "w1", fmt.Sprintf("w1.s.%d", i), 0, 4)); err != nil {
			t.Fatal(err)
		}
	}
	take := takeUntil(t, h, func(b []*Batch) bool { return len(b) >= 10 }) // delivered, never acked: must survive too
	if len(take.Batches) != 10 {
		t.Fatalf("took %d batches, want 10", len(take.Batches))
	}
	h.Close()
	s1.Close()

	s2 := startServer(t, ServerConfig{Dir: dir, Listen: addr})
	eventually(t, "the client to reconnect", nc.IsConnected)
	h2 := openHub(t, nc, st, ledgerDir, 0)
	got := 0
	eventually(t, "the unacked batches to come back", func() bool {
		tk, err := h2.Take(testCtx(t))
		if err != nil {
			t.Fatal(err)
		}
		got += len(tk.Batches)
		h2.Commit(tk)
		return got >= 10
	})
	if got != 10 {
		t.Fatalf("after restart got %d batches, want 10", got)
	}
	m, err := GetModel(testCtx(t), jsOf(t, nc), st.Run, 0)
	if err != nil || m.Params.Config.Width != 16 {
		t.Fatalf("model after restart: %v", err)
	}
	s2.Close()
}

func TestStaleBatchesDropped(t *testing.T) {
	s := startServer(t, ServerConfig{})
	nc := trainerDial(t, s.URL())
	st := tinySettings(t, "stale")
	h := openHub(t, nc, st, "", 1)
	for v := range 3 {
		if err := h.Publish(testCtx(t), v, tinyModel(st.Layout, uint64(v))); err != nil {
			t.Fatal(err)
		}
	}
	js := jsOf(t, nc)
	for v := range 3 {
		if _, err := Publish(testCtx(t), js, fakeBatch(st.Layout, st.Run, "w1", fmt.Sprintf("w1.s.%d", v), v, 4)); err != nil {
			t.Fatal(err)
		}
	}
	take := takeUntil(t, h, func(b []*Batch) bool { return len(b)+int(h.Counters().Stale) >= 3 })
	if len(take.Batches) != 2 || h.Counters().Stale != 1 || h.Counters().StaleSamples != 4 {
		t.Fatalf("took %d batches, counters %+v; want 2 taken and 1 stale of 4 samples", len(take.Batches), h.Counters())
	}
}

// TestSetupKeepsOperatorChanges: a stream edited on the server keeps its
// settings when the trainer sets up again.
func TestSetupKeepsOperatorChanges(t *testing.T) {
	s := startServer(t, ServerConfig{})
	js := jsOf(t, trainerDial(t, s.URL()))
	ctx := testCtx(t)
	if err := Setup(ctx, js); err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(ctx, StreamName)
	if err != nil {
		t.Fatal(err)
	}
	cfg := st.CachedInfo().Config
	cfg.MaxAge = time.Hour
	if _, err := js.UpdateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	if err := Setup(ctx, js); err != nil {
		t.Fatal(err)
	}
	if st, err = js.Stream(ctx, StreamName); err != nil || st.CachedInfo().Config.MaxAge != time.Hour {
		t.Fatalf("max age after a second setup: %v (%v)", st.CachedInfo().Config.MaxAge, err)
	}
}

func TestAddrInUse(t *testing.T) {
	s := startServer(t, ServerConfig{})
	t0 := time.Now()
	_, err := StartServer(ServerConfig{Dir: t.TempDir(), Listen: s.Addr()})
	if !errors.Is(err, ErrAddrInUse) || time.Since(t0) > 10*time.Second {
		t.Fatalf("second server on %s: %v after %s; want ErrAddrInUse at once", s.Addr(), err, time.Since(t0))
	}
}

// TestHeadersMustAgree: a batch whose headers name another worker or run
// than its subject and body is rejected, counted, and not taken.
func TestHeadersMustAgree(t *testing.T) {
	s := startServer(t, ServerConfig{})
	nc := trainerDial(t, s.URL())
	st := tinySettings(t, "hdr")
	h := openHub(t, nc, st, "", 0)
	js := jsOf(t, nc)
	ctx := testCtx(t)
	for i, hd := range []map[string]string{{HeaderWorker: "w2"}, {HeaderRun: "other"}, {}} {
		b := fakeBatch(st.Layout, st.Run, "w1", fmt.Sprintf("w1.s.%d", i+1), 0, 3)
		body, err := EncodeBatch(b)
		if err != nil {
			t.Fatal(err)
		}
		m := &nats.Msg{Subject: Subject(st.Run, "w1"), Data: body, Header: nats.Header{}}
		m.Header.Set(HeaderWorker, "w1")
		m.Header.Set(HeaderRun, st.Run)
		for k, v := range hd {
			m.Header.Set(k, v)
		}
		if _, err := js.PublishMsg(ctx, m, jetstream.WithMsgID(b.ID)); err != nil {
			t.Fatal(err)
		}
	}
	take := takeUntil(t, h, func(b []*Batch) bool { return len(b) > 0 && h.Counters().Corrupt == 2 })
	if len(take.Batches) != 1 || take.Batches[0].ID != "w1.s.3" {
		t.Fatalf("took %d batches, want only the one whose headers agree", len(take.Batches))
	}
}
