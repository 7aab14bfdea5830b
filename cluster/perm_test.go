package cluster

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
)

// violations connects with opts and reports the subjects the server
// refuses it, as they come.
func violations(t *testing.T, url string, opts ...nats.Option) (*nats.Conn, <-chan string) {
	t.Helper()
	ch := make(chan string, 64)
	opts = append(opts, nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if errors.Is(err, nats.ErrPermissionViolation) {
			ch <- err.Error()
		}
	}))
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc, ch
}

// refused runs op (which blocks until refused or cancelled) and waits for
// the server's permission violation naming subject.
func refused(t *testing.T, ch <-chan string, what, subject string, op func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	done := make(chan error, 1)
	go func() { done <- op(ctx) }()
	for {
		select {
		case v := <-ch:
			if !strings.Contains(v, subject) {
				continue // an earlier operation's
			}
			cancel()
			if err := <-done; err == nil {
				t.Fatalf("%s: succeeded although the server refused %s", what, subject)
			}
			return
		case err := <-done:
			cancel()
			if err == nil {
				t.Fatalf("%s: allowed", what)
			}
			if !strings.Contains(err.Error(), "permission") && !strings.Contains(err.Error(), "authorization") {
				t.Fatalf("%s: %v, want a permission violation on %s", what, err, subject)
			}
			return
		case <-ctx.Done():
			t.Fatalf("%s: no permission violation on %s", what, subject)
		}
	}
}

// checkWorkerRights: a client with a worker's credentials reads the run's
// settings and networks and publishes batches under its id; it cannot put
// a key, upload a network, create, change, purge or delete a stream, read
// the batches, or, when its credentials are tied to its id, publish as
// another worker.
func checkWorkerRights(t *testing.T, trainer *nats.Conn, url, worker string, tied bool, opts ...nats.Option) {
	t.Helper()
	st := tinySettings(t, "perm")
	h := openHub(t, trainer, st, "", 0)
	if err := h.Publish(testCtx(t), 0, tinyModel(st.Layout, 1)); err != nil {
		t.Fatal(err)
	}
	nc, viol := violations(t, url, opts...)
	js := jsOf(t, nc)
	ctx := testCtx(t)
	if got, err := GetSettings(ctx, js, ""); err != nil || got.Run != st.Run {
		t.Fatalf("read the settings: %v", err)
	}
	if v, err := BestVersion(ctx, js, st.Run); err != nil || v != 0 {
		t.Fatalf("read the best version: %d, %v", v, err)
	}
	if _, err := GetModel(ctx, js, st.Run, 0); err != nil {
		t.Fatalf("fetch the network: %v", err)
	}
	if _, err := Publish(ctx, js, fakeBatch(st.Layout, st.Run, worker, worker+".s.1", 0, 3)); err != nil {
		t.Fatalf("publish a batch: %v", err)
	}
	if err := nc.Publish(HeartbeatSubject(st.Run, worker), []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	take := takeUntil(t, h, func(b []*Batch) bool { return len(b) > 0 })
	if take.Batches[0].Worker != worker {
		t.Fatalf("took a batch of %s", take.Batches[0].Worker)
	}

	kv, err := js.KeyValue(ctx, SettingsBucket)
	if err != nil {
		t.Fatal(err)
	}
	refused(t, viol, "put a key", "$KV."+SettingsBucket+".current", func(ctx context.Context) error {
		_, err := kv.PutString(ctx, CurrentKey, "other")
		return err
	})
	refused(t, viol, "create a stream", "$JS.API.STREAM.CREATE.X", func(ctx context.Context) error {
		_, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "X", Subjects: []string{"x.>"}})
		return err
	})
	refused(t, viol, "change the samples stream", "$JS.API.STREAM.UPDATE."+StreamName, func(ctx context.Context) error {
		_, err := js.UpdateStream(ctx, jetstream.StreamConfig{Name: StreamName, Subjects: []string{SubjectPrefix + ">"}, MaxMsgs: 1})
		return err
	})
	refused(t, viol, "delete the samples stream", "$JS.API.STREAM.DELETE."+StreamName, func(ctx context.Context) error {
		return js.DeleteStream(ctx, StreamName)
	})
	refused(t, viol, "read the batches", "$JS.API.CONSUMER.CREATE."+StreamName, func(ctx context.Context) error {
		_, err := js.CreateConsumer(ctx, StreamName, jetstream.ConsumerConfig{Name: "spy"})
		return err
	})
	refused(t, viol, "upload a network", "$O."+ModelsBucket+".C.", func(ctx context.Context) error {
		obj, err := js.ObjectStore(ctx, ModelsBucket)
		if err != nil {
			return err
		}
		_, err = obj.PutBytes(ctx, ModelName(st.Run, 7), []byte("not a network"))
		return err
	})
	if tied {
		other := Subject(st.Run, worker+"x")
		refused(t, viol, "publish as another worker", other, func(ctx context.Context) error {
			_, err := js.Publish(ctx, other, []byte("x"))
			return err
		})
	}
	// Nothing changed on the server.
	tjs := jsOf(t, trainer)
	if cur, err := CurrentRun(ctx, tjs); err != nil || cur != st.Run {
		t.Fatalf("current run %q (%v), want %q", cur, err, st.Run)
	}
	if _, err := tjs.Stream(ctx, "X"); !errors.Is(err, jetstream.ErrStreamNotFound) {
		t.Fatalf("stream X: %v, want none", err)
	}
	if vs, err := ModelVersions(ctx, tjs, st.Run); err != nil || len(vs) != 1 {
		t.Fatalf("networks %v (%v), want only version 0", vs, err)
	}
}

func TestWorkerTokenRights(t *testing.T) {
	s := startServer(t, ServerConfig{Listen: "127.0.0.1:0", Token: "worker-token"})
	tr, err := s.Connect("trainer")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.Close)
	checkWorkerRights(t, tr, s.URL(), "w1", false, nats.Token("worker-token"))
}

func TestWorkerNKeyRights(t *testing.T) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	s := startServer(t, ServerConfig{Listen: "127.0.0.1:0", NKeys: []WorkerKey{{Public: pub, Worker: "w7"}}})
	tr, err := s.Connect("trainer")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.Close)
	checkWorkerRights(t, tr, s.URL(), "w7", true, nats.Nkey(pub, kp.Sign))
}

// TestDocsServerConfig starts a standalone server from the example
// configuration in docs/DISTRIBUTED.md, parsed by nats-server's own
// parser: the trainer's key has every right, a worker's only its own.
func TestDocsServerConfig(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "DISTRIBUTED.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := bytes.Cut(doc, []byte("```conf\n"))
	conf, _, ok2 := bytes.Cut(rest, []byte("```"))
	if !ok || !ok2 {
		t.Fatal("docs/DISTRIBUTED.md: no ```conf block")
	}
	keys := map[string]nkeys.KeyPair{}
	for _, who := range []string{"TRAINER", "WORKER"} {
		kp, err := nkeys.CreateUser()
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := kp.PublicKey()
		t.Setenv("KUMALAK_"+who+"_NKEY", pub)
		keys[who] = kp
	}
	path := filepath.Join(t.TempDir(), "nats.conf")
	if err := os.WriteFile(path, conf, 0o600); err != nil {
		t.Fatal(err)
	}
	opts, err := server.ProcessConfigFile(path)
	if err != nil {
		t.Fatalf("the docs' server config: %v", err)
	}
	opts.Host, opts.Port, opts.StoreDir, opts.NoLog, opts.NoSigs = "127.0.0.1", -1, t.TempDir(), true, true
	ns, err := server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(testTimeout) {
		t.Fatal("the docs' server did not start")
	}
	t.Cleanup(ns.Shutdown)
	nkey := func(kp nkeys.KeyPair) nats.Option {
		pub, _ := kp.PublicKey()
		return nats.Nkey(pub, kp.Sign)
	}
	tr, err := nats.Connect(ns.ClientURL(), nkey(keys["TRAINER"]))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.Close)
	checkWorkerRights(t, tr, ns.ClientURL(), "w1", false, nkey(keys["WORKER"]))
	if _, err := nats.Connect(ns.ClientURL(), nats.Timeout(5*time.Second)); err == nil {
		t.Fatal("the docs' server admits a client without credentials")
	}
}
