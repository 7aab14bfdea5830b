package train

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"kumalak/cluster"
	"kumalak/data"
)

// TestWorkerSamplesJoinShards feeds a run, through an embedded server,
// batches as workers would publish them: the good ones join the
// iteration's shard and the metrics' sources, a corrupt one and one of
// another run are rejected and counted, and a resumed run takes none twice.
func TestWorkerSamplesJoinShards(t *testing.T) {
	dir := Dir(t.TempDir())
	srv, err := cluster.StartServer(cluster.ServerConfig{Dir: dir.NATS()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	nc, err := srv.Connect("test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	cfg := tinyConfig("togyz")
	cfg.Iterations = 1
	var log bytes.Buffer
	r, err := Open(cfg, Options{Dir: dir, NATS: nc, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		publish(t, ctx, js, batchOf(r, r.RunID(), "w1", i, 10))
	}
	foreign, err := cluster.EncodeBatch(batchOf(r, "another", "w2", 0, 10))
	if err != nil {
		t.Fatal(err)
	}
	for id, body := range map[string][]byte{"w2.s.0": foreign, "junk": []byte("garbage")} {
		m := &nats.Msg{Subject: cluster.Subject(r.RunID(), "w2"), Data: body}
		if _, err := js.PublishMsg(ctx, m, jetstream.WithMsgID(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Train(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	ms, err := ReadMetrics(dir.Metrics())
	if err != nil || len(ms) != 1 || ms[0].Remote == nil {
		t.Fatalf("metrics %+v: %v", ms, err)
	}
	rm := ms[0].Remote
	if rm.Sources["w1"] != 30 || rm.Batches != 3 || rm.Rejected != 2 {
		t.Fatalf("remote metrics %+v: want 30 samples of w1 in 3 batches, 2 rejected", rm)
	}
	h, err := data.ReadShardHeader(dir.Shard(1))
	if err != nil || h.Count != rm.Sources["local"]+30 {
		t.Fatalf("shard 1 holds %d samples, want %d local + 30 (%v)", h.Count, rm.Sources["local"], err)
	}
	if !strings.Contains(log.String(), "samples: local") || !strings.Contains(log.String(), "w1 30") {
		t.Fatalf("summary line lacks the sources:\n%s", log.String())
	}

	// Resumed, with a batch re-sent (stored once) and a new one.
	cfg.Iterations = 2
	r2, err := Open(cfg, Options{Dir: dir, NATS: nc, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	publish(t, ctx, js, batchOf(r2, r2.RunID(), "w1", 2, 10))
	publish(t, ctx, js, batchOf(r2, r2.RunID(), "w1", 3, 10))
	if err := r2.Train(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r2.Close(); err != nil {
		t.Fatal(err)
	}
	ms, _ = ReadMetrics(dir.Metrics())
	if len(ms) != 2 || ms[1].Remote.Sources["w1"] != 10 {
		t.Fatalf("iteration 2 took %v, want only the new batch of w1", ms[len(ms)-1].Remote)
	}
	es, err := cluster.ReadLedgerFile(cluster.LedgerFile(dir.Cluster(), 2))
	if err != nil || len(es) != 1 || es[0].ID != "w1.s.3" {
		t.Fatalf("ledger of iteration 2: %v %v", es, err)
	}
	if _, err := os.Stat(filepath.Join(dir.Cluster(), "run-id")); err != nil {
		t.Fatal(err)
	}
}

func publish(t *testing.T, ctx context.Context, js jetstream.JetStream, b *cluster.Batch) {
	t.Helper()
	if _, err := cluster.Publish(ctx, js, b); err != nil {
		t.Fatal(err)
	}
}

// batchOf is a batch of n made-up samples of the run's layout.
func batchOf(r *Run, run, worker string, seq, n int) *cluster.Batch {
	lay := r.layout()
	b := &cluster.Batch{ID: fmt.Sprintf("%s.s.%d", worker, seq), Run: run, Worker: worker, Layout: lay, Games: 1}
	for i := range n {
		s := data.Sample{Obs: make([]float32, lay.ObsLen), Policy: make([]float32, lay.NumActions), Legal: 1, Outcome: 1}
		s.Obs[i%lay.ObsLen], s.Policy[0] = 1, 1
		b.Samples = append(b.Samples, s)
	}
	return b
}

// TestPruneLedger: the ledger files of the pruned shards, and of any older
// ones, go; the rest stay.
func TestPruneLedger(t *testing.T) {
	dir := Dir(t.TempDir())
	l, err := cluster.OpenLedger(dir.Cluster(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for it := 1; it <= 5; it++ {
		if err := l.Record(it, []cluster.Entry{{ID: fmt.Sprintf("w.s.%d", it), Worker: "w", Samples: 1}}, cluster.Marks{}); err != nil {
			t.Fatal(err)
		}
	}
	r := &Run{dir: dir, ledger: l}
	tests := []struct {
		removed []string
		kept    []int // the iterations whose ledger files remain
	}{
		{nil, []int{1, 2, 3, 4, 5}},
		{[]string{"not-a-shard"}, []int{1, 2, 3, 4, 5}},
		{[]string{dir.Shard(2)}, []int{3, 4, 5}}, // iteration 1's file, left by a crash, goes too
		{[]string{dir.Shard(3)}, []int{4, 5}},
	}
	for _, tt := range tests {
		if err := r.pruneLedger(tt.removed); err != nil {
			t.Fatal(err)
		}
		var kept []int
		for it := 1; it <= 5; it++ {
			if _, err := os.Stat(cluster.LedgerFile(dir.Cluster(), it)); err == nil {
				kept = append(kept, it)
			}
		}
		if fmt.Sprint(kept) != fmt.Sprint(tt.kept) {
			t.Errorf("after pruning %v: ledger files of %v, want %v", tt.removed, kept, tt.kept)
		}
	}
	if err := (&Run{dir: dir}).pruneLedger([]string{dir.Shard(5)}); err != nil {
		t.Errorf("without a ledger: %v", err)
	}
}

// TestSurplusPolicy: a run offered more worker samples than its cap and
// backlog allow takes the newest that fit, drops the oldest as surplus,
// leaves max_backlog waiting, and reports the share it used.
func TestSurplusPolicy(t *testing.T) {
	dir := Dir(t.TempDir())
	srv, err := cluster.StartServer(cluster.ServerConfig{Dir: dir.NATS()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	nc, err := srv.Connect("test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	cfg := tinyConfig("togyz")
	cfg.Iterations = 1
	cfg.Eval.BaselineEvery = 0
	cfg.Cluster.MaxSamples, cfg.Cluster.MaxBacklog = 40, 20
	var log bytes.Buffer
	r, err := Open(cfg, Options{Dir: dir, NATS: nc, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		publish(t, ctx, js, batchOf(r, r.RunID(), "w1", i, 10))
	}
	if err := r.Train(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	ms, err := ReadMetrics(dir.Metrics())
	if err != nil || len(ms) != 1 || ms[0].Remote == nil {
		t.Fatalf("metrics %+v: %v", ms, err)
	}
	rm := ms[0].Remote
	if rm.Cap != 40 || rm.Sources["w1"] != 40 || rm.Surplus != 4 || rm.SurplusSamples != 40 || rm.Backlog != 20 || rm.UsedShare != 0.5 {
		t.Fatalf("remote metrics %+v: want cap 40, 40 taken, 4 batches (40 samples) surplus, 20 waiting, used 0.5", rm)
	}
	es, err := cluster.ReadLedgerFile(cluster.LedgerFile(dir.Cluster(), 1))
	if err != nil || len(es) != 4 || es[0].ID != "w1.s.4" || es[3].ID != "w1.s.7" {
		t.Fatalf("ledger of iteration 1: %v %v; want w1.s.4..7, the newest that fit", es, err)
	}
	if !strings.Contains(log.String(), "used 50%, surplus 40, waiting 20") {
		t.Fatalf("summary line lacks the surplus:\n%s", log.String())
	}
	if ms[0].Train.Reuse <= 0 {
		t.Fatalf("train metrics %+v: no reuse", ms[0].Train)
	}
}

// TestTakeRoom: an iteration's cap on worker samples is the configured one,
// lowered by min_reuse to what its steps draw that often.
func TestTakeRoom(t *testing.T) {
	for _, c := range []struct {
		name                     string
		maxSamples, steps, batch int
		minReuse                 float64
		local, want              int
	}{
		{"off: the cap", 5000, 100, 64, 0, 1000, 5000},
		{"off: the window", 0, 100, 64, 0, 1000, 2000},
		{"reuse 1", 50000, 100, 64, 1, 1000, 6400 - 1000},
		{"reuse 2", 50000, 100, 64, 2, 1000, 3200 - 1000},
		{"cap below capacity", 3000, 100, 64, 1, 1000, 3000},
		{"local beyond capacity", 50000, 10, 64, 1, 1000, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := tinyConfig("togyz")
			cfg.Cluster.MaxSamples, cfg.MaxSteps, cfg.Train.Batch, cfg.Cluster.MinReuse = c.maxSamples, c.steps, c.batch, c.minReuse
			r := &Run{cfg: cfg}
			if got := r.takeRoom(c.local); got != c.want {
				t.Fatalf("takeRoom(%d) = %d, want %d", c.local, got, c.want)
			}
		})
	}
}

func TestClusterConfigValidate(t *testing.T) {
	if err := DefaultClusterConfig().Validate(); err != nil {
		t.Fatalf("default: %v", err)
	}
	for _, c := range []struct {
		field string
		edit  func(*ClusterConfig)
	}{
		{"max_age", func(c *ClusterConfig) { c.MaxAge = -1 }},
		{"max_samples_per_iteration", func(c *ClusterConfig) { c.MaxSamples = -1 }},
		{"ack_wait", func(c *ClusterConfig) { c.AckWait = 0 }},
		{"min_reuse", func(c *ClusterConfig) { c.MinReuse = -0.5 }},
		{"min_reuse", func(c *ClusterConfig) { c.MinReuse = math.NaN() }},
		{"min_reuse", func(c *ClusterConfig) { c.MinReuse = 1001 }},
		{"max_backlog", func(c *ClusterConfig) { c.MaxBacklog = -1 }},
	} {
		cfg := DefaultClusterConfig()
		c.edit(&cfg)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "cluster."+c.field) {
			t.Errorf("%s: Validate() = %v, want an error naming cluster.%s", c.field, err, c.field)
		}
	}
}
