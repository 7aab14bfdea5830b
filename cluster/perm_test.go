package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"kumalak/data"
	"kumalak/env"
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
// the server's permission violation naming subject (or its start).
func refused(t *testing.T, ch <-chan string, what, subject string, op func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	done := make(chan error, 1)
	go func() { done <- op(ctx) }()
	for {
		select {
		case v := <-ch:
			if !strings.Contains(v, `to "`+subject) {
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

// The run and worker ids of the rights table in docs/DISTRIBUTED.md
// ("Credentials") and of its example server configuration.
const (
	docRun    = "r4f2a9c01d7e3" // R
	docOther  = "r0000000000ff" // R2
	docWorker = "wA"
	docPeer   = "wB"
)

// party is one side of the rights table: a connection, and the replies
// prefix it uses.
type party struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	prefix string
}

// rightOp is one row of the rights table: what it does, and the subject
// the server names when it refuses it.
type rightOp struct {
	refusal string
	do      func(ctx context.Context, p party, trainer *nats.Conn) error
}

// rightOps are the rows of the rights table, by their text.
var rightOps = map[string]rightOp{
	"publish its batches on `kumalak.samples.R.wA`": {Subject(docRun, docWorker), func(ctx context.Context, p party, _ *nats.Conn) error {
		_, err := Publish(ctx, p.js, fakeBatch(tinyLayout(), docRun, docWorker, docWorker+".s.1", 0, 3))
		return err
	}},
	"publish heartbeats on `kumalak.heartbeat.R.wA`": {HeartbeatSubject(docRun, docWorker), func(ctx context.Context, p party, tr *nats.Conn) error {
		return heard(ctx, p, tr, HeartbeatSubject(docRun, docWorker))
	}},
	"read run R's settings and best network version": {"", func(ctx context.Context, p party, _ *nats.Conn) error {
		if st, err := GetSettings(ctx, p.js, docRun); err != nil || st.Run != docRun {
			return fmt.Errorf("settings of %s: %v", st.Run, err)
		}
		_, err := BestVersion(ctx, p.js, docRun)
		return err
	}},
	"fetch the networks": {"", func(ctx context.Context, p party, _ *nats.Conn) error {
		_, err := GetModel(ctx, p.js, docRun, 0)
		return err
	}},
	"receive replies on its own inbox prefix": {"", func(ctx context.Context, p party, tr *nats.Conn) error {
		return received(ctx, p, tr, p.prefix+".>", p.prefix+".probe")
	}},
	"subscribe to `_INBOX.>` (every client's replies by default)": {"_INBOX.>", func(ctx context.Context, p party, tr *nats.Conn) error {
		return received(ctx, p, tr, "_INBOX.>", "_INBOX.probe")
	}},
	"subscribe to another worker's inbox `_INBOX_KUMALAK.R.wB.>`": {InboxPrefix(docRun, docPeer), func(ctx context.Context, p party, tr *nats.Conn) error {
		return received(ctx, p, tr, InboxPrefix(docRun, docPeer)+".>", InboxPrefix(docRun, docPeer)+".probe")
	}},
	"subscribe to the trainer's inbox `_INBOX_KUMALAK_TRAINER.>`": {TrainerInbox, func(ctx context.Context, p party, tr *nats.Conn) error {
		return received(ctx, p, tr, TrainerInbox+".>", TrainerInbox+".probe")
	}},
	"subscribe to the batches `kumalak.samples.>`": {SubjectPrefix, func(ctx context.Context, p party, tr *nats.Conn) error {
		return received(ctx, p, tr, SubjectPrefix+">", Subject(docOther, "probe"))
	}},
	"publish as another worker on `kumalak.samples.R.wB`": {Subject(docRun, docPeer), func(ctx context.Context, p party, _ *nats.Conn) error {
		_, err := Publish(ctx, p.js, fakeBatch(tinyLayout(), docRun, docPeer, docPeer+".s.1", 0, 3))
		return err
	}},
	"publish into another run on `kumalak.samples.R2.wA`": {Subject(docOther, docWorker), func(ctx context.Context, p party, _ *nats.Conn) error {
		_, err := Publish(ctx, p.js, fakeBatch(tinyLayout(), docOther, docWorker, docWorker+".s.1", 0, 3))
		return err
	}},
	"heartbeat as another worker on `kumalak.heartbeat.R.wB`": {HeartbeatSubject(docRun, docPeer), func(ctx context.Context, p party, tr *nats.Conn) error {
		return heard(ctx, p, tr, HeartbeatSubject(docRun, docPeer))
	}},
	"read another run's settings": {"$JS.API.DIRECT.GET.KV_" + SettingsBucket + ".$KV." + SettingsBucket + "." + docOther, func(ctx context.Context, p party, _ *nats.Conn) error {
		_, err := GetSettings(ctx, p.js, docOther)
		return err
	}},
	"read which run is current": {"$JS.API.DIRECT.GET.KV_" + SettingsBucket + ".$KV." + SettingsBucket + "." + CurrentKey, func(ctx context.Context, p party, _ *nats.Conn) error {
		_, err := CurrentRun(ctx, p.js)
		return err
	}},
	"put a key (`current`, settings, best version)": {"$KV." + SettingsBucket + "." + CurrentKey, func(ctx context.Context, p party, _ *nats.Conn) error {
		kv, err := p.js.KeyValue(ctx, SettingsBucket)
		if err == nil {
			_, err = kv.PutString(ctx, CurrentKey, docOther)
		}
		return err
	}},
	"upload a network": {"$O." + ModelsBucket + ".C.", func(ctx context.Context, p party, _ *nats.Conn) error {
		obj, err := p.js.ObjectStore(ctx, ModelsBucket)
		if err == nil {
			_, err = obj.PutBytes(ctx, ModelName(docRun, 7), []byte("not a network"))
		}
		return err
	}},
	"make a consumer of the networks (which delivers where its maker says)": {"$JS.API.CONSUMER.CREATE.OBJ_" + ModelsBucket, func(ctx context.Context, p party, _ *nats.Conn) error {
		_, err := p.js.CreateConsumer(ctx, "OBJ_"+ModelsBucket, jetstream.ConsumerConfig{Name: "spy"})
		return err
	}},
	"read the batches (a consumer of `KUMALAK_SAMPLES`)": {"$JS.API.CONSUMER.CREATE." + StreamName, func(ctx context.Context, p party, _ *nats.Conn) error {
		_, err := p.js.CreateConsumer(ctx, StreamName, jetstream.ConsumerConfig{Name: "spy"})
		return err
	}},
	"create a stream": {"$JS.API.STREAM.CREATE.X", func(ctx context.Context, p party, _ *nats.Conn) error {
		_, err := p.js.CreateStream(ctx, jetstream.StreamConfig{Name: "X", Subjects: []string{"x.>"}})
		return err
	}},
	"change the samples stream": {"$JS.API.STREAM.UPDATE." + StreamName, func(ctx context.Context, p party, _ *nats.Conn) error {
		_, err := p.js.UpdateStream(ctx, jetstream.StreamConfig{Name: StreamName, Subjects: []string{SubjectPrefix + ">"}, MaxAge: StreamMaxAge,
			Duplicates: DedupWindow, MaxMsgSize: 8 << 20, Storage: jetstream.FileStorage})
		return err
	}},
	"delete the samples stream": {"$JS.API.STREAM.DELETE." + StreamName, func(ctx context.Context, p party, _ *nats.Conn) error {
		return p.js.DeleteStream(ctx, StreamName)
	}},
}

func tinyLayout() data.Layout {
	spec, _ := env.Lookup("togyz")
	return layoutOf(spec)
}

// received subscribes p to filter and waits until a message the trainer
// publishes on subject reaches it.
func received(ctx context.Context, p party, trainer *nats.Conn, filter, subject string) error {
	sub, err := p.nc.SubscribeSync(filter)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe() //nolint:errcheck // the connection ends with the test
	if err := p.nc.FlushWithContext(ctx); err != nil {
		return err
	}
	if err := trainer.Publish(subject, []byte("probe")); err != nil {
		return err
	}
	_, err = sub.NextMsgWithContext(ctx)
	return err
}

// heard has p publish on subject and waits until the trainer hears it.
func heard(ctx context.Context, p party, trainer *nats.Conn, subject string) error {
	sub, err := trainer.SubscribeSync(subject)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe() //nolint:errcheck // the connection ends with the test
	if err := trainer.FlushWithContext(ctx); err != nil {
		return err
	}
	if err := p.nc.Publish(subject, []byte(`{}`)); err != nil {
		return err
	}
	_, err = sub.NextMsgWithContext(ctx)
	return err
}

// rightsRow is a row of the rights table: its text and whether the
// trainer and the worker may.
type rightsRow struct {
	what            string
	trainer, worker bool
}

// rightsTable reads the rights table of docs/DISTRIBUTED.md.
func rightsTable(t *testing.T) []rightsRow {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "DISTRIBUTED.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "| what | trainer | worker wA of run R |\n|---|---|---|\n")
	if !ok {
		t.Fatal("docs/DISTRIBUTED.md: no rights table (| what | trainer | worker wA of run R |)")
	}
	var rows []rightsRow
	for _, line := range strings.Split(rest, "\n") {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if !strings.HasPrefix(line, "|") || len(cells) != 3 {
			break
		}
		yes := func(c string) bool {
			c = strings.TrimSpace(c)
			if c != "yes" && c != "no" {
				t.Fatalf("rights table: %q in %q, want yes or no", c, line)
			}
			return c == "yes"
		}
		rows = append(rows, rightsRow{strings.TrimSpace(cells[0]), yes(cells[1]), yes(cells[2])})
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if _, ok := rightOps[r.what]; !ok {
			t.Errorf("rights table: no test for %q", r.what)
		}
		seen[r.what] = true
	}
	for what := range rightOps {
		if !seen[what] {
			t.Errorf("rights table: %q is tested but not in the table", what)
		}
	}
	return rows
}

// checkRights sets up run R (settings, network 0, a hub) and run R2's
// settings on the trainer's connection, then does every row of the rights
// table as the worker, then as the trainer, and checks each is allowed or
// refused (with the server's permission violation) as the table says.
func checkRights(t *testing.T, trainer party, workerURL string, workerOpts ...nats.Option) {
	t.Helper()
	rows := rightsTable(t)
	ctx := testCtx(t)
	other := tinySettings(t, docOther)
	other.MaxBatch = 256
	if err := Setup(ctx, trainer.js); err != nil {
		t.Fatal(err)
	}
	if err := PutSettings(ctx, trainer.js, other); err != nil {
		t.Fatal(err)
	}
	st := tinySettings(t, docRun)
	h := openHub(t, trainer.nc, st, "", 0)
	if err := h.Publish(ctx, 0, tinyModel(st.Layout, 1)); err != nil {
		t.Fatal(err)
	}
	nc, viol := violations(t, workerURL, workerOpts...)
	worker := party{nc: nc, js: jsOf(t, nc), prefix: InboxPrefix(docRun, docWorker)}
	for _, r := range rows {
		op := rightOps[r.what]
		if r.worker {
			if err := op.do(ctx, worker, trainer.nc); err != nil {
				t.Fatalf("worker: %s: %v", r.what, err)
			}
			continue
		}
		refused(t, viol, "worker: "+r.what, op.refusal, func(ctx context.Context) error { return op.do(ctx, worker, trainer.nc) })
	}
	// The worker's batch reached the trainer; nothing else changed.
	take := takeUntil(t, h, func(b []*Batch) bool { return len(b) > 0 })
	if take.Batches[0].Worker != docWorker || len(take.Batches) != 1 {
		t.Fatalf("took %d batches, the first of %s", len(take.Batches), take.Batches[0].Worker)
	}
	if cur, err := CurrentRun(ctx, trainer.js); err != nil || cur != st.Run {
		t.Fatalf("current run %q (%v), want %q", cur, err, st.Run)
	}
	if _, err := trainer.js.Stream(ctx, "X"); !errors.Is(err, jetstream.ErrStreamNotFound) {
		t.Fatalf("stream X: %v, want none", err)
	}
	if vs, err := ModelVersions(ctx, trainer.js, st.Run); err != nil || len(vs) != 1 {
		t.Fatalf("networks %v (%v), want only version 0", vs, err)
	}
	h.Close()
	for _, r := range rows {
		if err := rightOps[r.what].do(ctx, trainer, trainer.nc); (err == nil) != r.trainer {
			t.Fatalf("trainer: %s: %v, want allowed %v", r.what, err, r.trainer)
		}
	}
}

// TestWorkerRights: the embedded server grants a worker's credentials
// exactly the worker column of the rights table, the trainer's
// in-process connection the trainer column.
func TestWorkerRights(t *testing.T) {
	roster, creds := issueAll(t, docRun, docWorker, docPeer)
	s := startServer(t, ServerConfig{Listen: "127.0.0.1:0", Roster: roster})
	tr, err := s.Connect("trainer")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.Close)
	checkRights(t, party{nc: tr, js: jsOf(t, tr), prefix: TrainerInbox}, s.URL(), credsOpts(t, creds[docWorker])...)
}

// TestDocsServerConfig starts a standalone server from the example
// configuration in docs/DISTRIBUTED.md, parsed by nats-server's own
// parser: the trainer's key has every right, a worker's only its own (the
// rights table); the worker's entry is what worker-credentials prints.
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
	tr, err := nats.Connect(ns.ClientURL(), nkey(keys["TRAINER"]), nats.CustomInboxPrefix(TrainerInbox))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.Close)
	checkRights(t, party{nc: tr, js: jsOf(t, tr), prefix: TrainerInbox}, ns.ClientURL(),
		nkey(keys["WORKER"]), nats.CustomInboxPrefix(InboxPrefix(docRun, docWorker)))
	if _, err := nats.Connect(ns.ClientURL(), nats.Timeout(5*time.Second)); err == nil {
		t.Fatal("the docs' server admits a client without credentials")
	}
}
