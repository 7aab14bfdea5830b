package cluster

import (
	"fmt"
	"hash/crc32"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"kumalak/data"
)

// trainerSide is the trainer's half of the exactly-once protocol, driven
// by hand: one Take per iteration, the ledger record (the "shard"), the
// checkpoint (an iteration number), then the acks.
type trainerSide struct {
	t       *testing.T
	nc      *nats.Conn
	st      Settings
	dir     string
	cfg     HubConfig
	hub     *Hub
	it      int            // checkpointed iteration
	shards  map[string]int // batch id -> iteration whose shard holds it
	stale   int64
	rej     int64
	dups    int64
	surplus int64
}

func newTrainerSide(t *testing.T, nc *nats.Conn, st Settings, cfg HubConfig) *trainerSide {
	ts := &trainerSide{t: t, nc: nc, st: st, dir: t.TempDir(), cfg: cfg, shards: map[string]int{}}
	ts.open()
	return ts
}

// open (re)starts the hub from the ledger as of the checkpoint, as a
// resumed trainer does.
func (ts *trainerSide) open() {
	ts.t.Helper()
	l, err := OpenLedger(ts.dir, ts.it)
	if err != nil {
		ts.t.Fatal(err)
	}
	cfg := ts.cfg
	cfg.Settings = ts.st
	cfg.Log = func(m string) { ts.t.Log(m) }
	if ts.hub, err = OpenHub(testCtx(ts.t), ts.nc, l, cfg); err != nil {
		ts.t.Fatal(err)
	}
	ts.t.Cleanup(ts.hub.Close)
}

// iterate takes, "writes the shard" and the ledger, checkpoints, and then
// commits unless killed says the trainer dies right after the checkpoint.
func (ts *trainerSide) iterate(killed bool) *Take {
	ts.t.Helper()
	tk, err := ts.hub.Take(testCtx(ts.t))
	if err != nil {
		ts.t.Fatal(err)
	}
	it := ts.it + 1
	if err := ts.hub.Record(it, tk); err != nil {
		ts.t.Fatal(err)
	}
	for _, b := range tk.Batches {
		if at, ok := ts.shards[b.ID]; ok {
			ts.t.Fatalf("batch %s taken at iteration %d, again at %d", b.ID, at, it)
		}
		ts.shards[b.ID] = it
	}
	ts.stale += tk.Stale
	ts.surplus += tk.Surplus
	ts.rej += tk.Corrupt + tk.Foreign
	ts.dups += tk.Duplicates
	ts.it = it // the checkpoint
	if killed {
		ts.hub.Close() // no acks reach the server
		ts.open()
		return tk
	}
	ts.hub.Commit(tk)
	return tk
}

// crashBeforeCheckpoint takes and dies before the checkpoint: the ledger
// files of the iteration are dropped by the resumed hub.
func (ts *trainerSide) crashBeforeCheckpoint() {
	ts.t.Helper()
	tk, err := ts.hub.Take(testCtx(ts.t))
	if err != nil {
		ts.t.Fatal(err)
	}
	if err := ts.hub.Record(ts.it+1, tk); err != nil {
		ts.t.Fatal(err)
	}
	ts.hub.Close()
	ts.open()
}

func publishN(t *testing.T, js jetstream.JetStream, st Settings, worker string, from, n, samples, network int) {
	t.Helper()
	for i := from; i < from+n; i++ {
		b := fakeBatch(st.Layout, st.Run, worker, fmt.Sprintf("%s.s1.%d", worker, i+1), network, samples)
		if _, err := Publish(testCtx(t), js, b); err != nil {
			t.Fatal(err)
		}
	}
}

// TestExactlyOnceAcrossKills reproduces the double counting of a long
// ack_wait with fast iterations: kills right after the checkpoint (the
// acks never sent, or sent and lost: the same to the server), kills before
// it, resumes, and every batch is in exactly one shard; none is counted
// stale or duplicate.
func TestExactlyOnceAcrossKills(t *testing.T) {
	s := startServer(t, ServerConfig{})
	nc := trainerDial(t, s.URL())
	st := tinySettings(t, "once")
	ts := newTrainerSide(t, nc, st, HubConfig{AckWait: time.Hour, MaxAge: 4})
	js := jsOf(t, nc)
	published := 0
	for round := range 12 {
		publishN(t, js, st, "w1", published, 3, 4, round)
		published += 3
		switch round % 4 {
		case 1:
			ts.iterate(true) // killed just after the checkpoint
		case 2:
			ts.crashBeforeCheckpoint()
			ts.iterate(false)
		default:
			ts.iterate(false)
		}
		// promotions: with max_age 4, a batch taken again late would be stale
		if err := ts.hub.Publish(testCtx(t), round+1, tinyModel(st.Layout, uint64(round))); err != nil {
			t.Fatal(err)
		}
	}
	// A take may run before the server counts the batches just published;
	// the next one has them.
	eventually(t, "every batch taken", func() bool { ts.iterate(false); return len(ts.shards) >= published })
	if len(ts.shards) != published || ts.stale != 0 || ts.dups != 0 {
		t.Fatalf("%d batches in shards of %d published, %d stale, %d duplicates", len(ts.shards), published, ts.stale, ts.dups)
	}
}

// TestLostAcksAreDuplicates: acks lost while the trainer lives (a short
// ack_wait) bring the batches back; they are recognised, not taken again
// nor counted stale, however many promotions happened meanwhile.
func TestLostAcksAreDuplicates(t *testing.T) {
	s := startServer(t, ServerConfig{})
	nc := trainerDial(t, s.URL())
	st := tinySettings(t, "lostacks")
	ts := newTrainerSide(t, nc, st, HubConfig{AckWait: time.Second, MaxAge: 1})
	js := jsOf(t, nc)
	publishN(t, js, st, "w1", 0, 4, 3, 0)
	tk, err := ts.hub.Take(testCtx(t))
	for len(tk.Batches) < 4 && err == nil {
		var more *Take
		more, err = ts.hub.Take(testCtx(t))
		tk.Batches = append(tk.Batches, more.Batches...)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := ts.hub.Record(1, tk); err != nil {
		t.Fatal(err)
	}
	// The acks are lost: the hub forgets what it held without acking.
	ts.hub.mu.Lock()
	clear(ts.hub.held)
	ts.hub.mu.Unlock()
	for v := 1; v <= 3; v++ {
		if err := ts.hub.Publish(testCtx(t), v, tinyModel(st.Layout, uint64(v))); err != nil {
			t.Fatal(err)
		}
	}
	var again []*Batch
	eventually(t, "the redeliveries", func() bool {
		tk, err := ts.hub.Take(testCtx(t))
		if err != nil {
			t.Fatal(err)
		}
		again = append(again, tk.Batches...)
		ts.hub.Commit(tk)
		return ts.hub.Counters().Duplicates >= 4
	})
	c := ts.hub.Counters()
	if len(again) != 0 || c.Stale != 0 || c.Batches != 4 {
		t.Fatalf("redelivered batches: %d taken again, counters %+v; want 4 duplicates only", len(again), c)
	}
}

// TestStoredTwiceIsDuplicate: a batch the stream stores a second time (a
// worker's re-send after the duplicate window) is recognised by its
// session's sequence, in the same take and after a restart.
func TestStoredTwiceIsDuplicate(t *testing.T) {
	s := startServer(t, ServerConfig{})
	nc := trainerDial(t, s.URL())
	st := tinySettings(t, "twice")
	js := jsOf(t, nc)
	// An operator made the duplicate window short before the run (Setup
	// keeps a stream it finds). Shortening it later by an edit takes
	// effect only when the server's purge timer, armed with the old
	// window, fires: over a minute on a loaded machine.
	if _, err := js.CreateStream(testCtx(t), jetstream.StreamConfig{Name: StreamName, Subjects: []string{SubjectPrefix + ">"},
		Storage: jetstream.FileStorage, Duplicates: 100 * time.Millisecond, MaxAge: StreamMaxAge}); err != nil {
		t.Fatal(err)
	}
	ts := newTrainerSide(t, nc, st, HubConfig{AckWait: time.Hour})
	publishN(t, js, st, "w1", 0, 2, 3, 0)
	ts.iterate(false)
	// The re-send arrives after the duplicate window: the stream stores it
	// again.
	resend := fakeBatch(st.Layout, st.Run, "w1", "w1.s1.2", 0, 3)
	eventually(t, "the stream to store the re-send", func() bool {
		dup, err := Publish(testCtx(t), js, resend)
		return err == nil && !dup
	})
	publishN(t, js, st, "w1", 2, 1, 3, 0)
	ts.iterate(true)
	ts.iterate(false)
	if len(ts.shards) != 3 || ts.dups != 1 {
		t.Fatalf("%d batches in shards, %d duplicates; want 3 and 1", len(ts.shards), ts.dups)
	}
}

// TestMissingDeliveryResyncs: a delivery the hub never receives (here
// another client of the consumer takes it) would come back out of order;
// the hub sees the gap in delivery sequences, restarts its consumer, and
// still takes every batch once.
func TestMissingDeliveryResyncs(t *testing.T) {
	s := startServer(t, ServerConfig{})
	nc := trainerDial(t, s.URL())
	st := tinySettings(t, "gap")
	ts := newTrainerSide(t, nc, st, HubConfig{AckWait: time.Hour})
	js := jsOf(t, nc)
	publishN(t, js, st, "w1", 0, 3, 2, 0)
	ts.iterate(false)
	publishN(t, js, st, "w1", 3, 3, 2, 0)
	mb, err := ts.hub.cons.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for range mb.Messages() { // stolen: delivered, never seen by the hub
	}
	publishN(t, js, st, "w1", 6, 2, 2, 0)
	for range 3 {
		ts.iterate(false)
	}
	if len(ts.shards) != 8 || ts.hub.Counters().Resyncs == 0 {
		t.Fatalf("%d batches in shards of 8, %d resyncs", len(ts.shards), ts.hub.Counters().Resyncs)
	}
}

// TestTakeCapExact: a take never holds more than MaxTake samples; what
// does not fit waits, in order, for the next; a batch larger than the
// run's batch limit is rejected.
func TestTakeCapExact(t *testing.T) {
	s := startServer(t, ServerConfig{})
	nc := trainerDial(t, s.URL())
	st := tinySettings(t, "cap")
	ts := newTrainerSide(t, nc, st, HubConfig{AckWait: time.Hour, MaxTake: 25})
	js := jsOf(t, nc)
	publishN(t, js, st, "w1", 0, 9, 10, 0)
	if _, err := Publish(testCtx(t), js, fakeBatch(st.Layout, st.Run, "w2", "w2.s.1", 0, 26)); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	var order []string
	for range 6 {
		tk := ts.iterate(false)
		sizes = append(sizes, tk.Samples())
		for _, b := range tk.Batches {
			order = append(order, b.ID)
		}
	}
	for i, n := range sizes {
		if n > 25 {
			t.Fatalf("take %d held %d samples, cap 25 (sizes %v)", i, n, sizes)
		}
	}
	if len(ts.shards) != 9 || ts.rej != 1 || fmt.Sprint(sizes[:5]) != "[20 20 20 20 10]" {
		t.Fatalf("%d batches taken (sizes %v), %d rejected; want 9 in takes of 20 and the large one rejected", len(ts.shards), sizes, ts.rej)
	}
	for i, id := range order {
		if want := fmt.Sprintf("w1.s1.%d", i+1); id != want {
			t.Fatalf("take order %v: batch %d is %s, want %s", order, i, id, want)
		}
	}
	if ts.hub.cfg.Settings.MaxBatch != 25 {
		t.Fatalf("settings max_batch %d, want the cap 25", ts.hub.cfg.Settings.MaxBatch)
	}
}

// TestCheapRejection: hostile messages are turned down from their headers,
// before anything is decompressed: a 3 KB message claiming 16 MB of
// records, a network newer than any published, a worker writing on
// another's subject; a stale batch is dropped without being decoded (its
// payload here is damaged, and it is counted stale, not corrupt).
func TestCheapRejection(t *testing.T) {
	st := tinySettings(t, "cheap")
	rs := data.RecordSize(st.Layout.ObsLen, st.Layout.NumActions)
	bomb := fakeBatch(st.Layout, st.Run, "w1", "w1.s.1", 0, 0)
	msg := appendBatchHeader(nil, bomb, 0)
	count := MaxBatchBytes / rs
	le.PutUint32(msg[bOffCount:], uint32(count))
	msg = append(msg, make([]byte, 3000)...)
	le.PutUint32(msg[bOffPayload:], 3000)
	hs := int(le.Uint16(msg[bOffHeaderSize:]))
	le.PutUint32(msg[hs-4:], crc32.Checksum(msg[:hs-4], castagnoli))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := DecodeBatch(msg)
	runtime.ReadMemStats(&after)
	if err == nil || after.TotalAlloc-before.TotalAlloc > 1<<20 {
		t.Fatalf("a %d-byte message claiming %d MB: %v after %d bytes allocated; want a rejection allocating little",
			len(msg), count*rs>>20, err, after.TotalAlloc-before.TotalAlloc)
	}

	s := startServer(t, ServerConfig{})
	nc := trainerDial(t, s.URL())
	ts := newTrainerSide(t, nc, st, HubConfig{AckWait: time.Hour, MaxAge: 1})
	for v := range 3 {
		if err := ts.hub.Publish(testCtx(t), v, tinyModel(st.Layout, uint64(v))); err != nil {
			t.Fatal(err)
		}
	}
	js := jsOf(t, nc)
	ctx := testCtx(t)
	raw := func(subject, id string, body []byte) { // with the headers a worker sets
		m := &nats.Msg{Subject: subject, Data: body, Header: nats.Header{}}
		m.Header.Set(HeaderRun, st.Run)
		m.Header.Set(HeaderWorker, subject[strings.LastIndexByte(subject, '.')+1:])
		if _, err := js.PublishMsg(ctx, m, jetstream.WithMsgID(id)); err != nil {
			t.Fatal(err)
		}
	}
	raw(Subject(st.Run, "w1"), "w1.s.1", msg)
	future, err := EncodeBatch(fakeBatch(st.Layout, st.Run, "w1", "w1.s.2", 999999, 3))
	if err != nil {
		t.Fatal(err)
	}
	raw(Subject(st.Run, "w1"), "w1.s.2", future)
	forged, err := EncodeBatch(fakeBatch(st.Layout, st.Run, "w1", "w1.s.3", 2, 3))
	if err != nil {
		t.Fatal(err)
	}
	raw(Subject(st.Run, "w2"), "w1.s.3", forged)
	stale, err := EncodeBatch(fakeBatch(st.Layout, st.Run, "w1", "w1.s.4", 0, 3))
	if err != nil {
		t.Fatal(err)
	}
	stale[len(stale)-1] ^= 0xff
	raw(Subject(st.Run, "w1"), "w1.s.4", stale)
	publishN(t, js, st, "w1", 4, 1, 3, 2)
	for i := 0; i < 50 && ts.hub.Counters().Corrupt+ts.hub.Counters().Stale+ts.hub.Counters().Batches < 5; i++ {
		ts.iterate(false)
	}
	if c := ts.hub.Counters(); c.Corrupt != 3 || c.Stale != 1 || c.Batches != 1 {
		t.Fatalf("counters %+v; want 3 rejected, 1 stale and the good batch", c)
	}
}

// TestSurplusDropsOldest: with more waiting than a take's room plus
// MaxBacklog, the oldest batches are dropped as surplus and the newest
// taken; a kill just after the checkpoint brings none of the dropped ones
// back; published = taken once + surplus.
func TestSurplusDropsOldest(t *testing.T) {
	s := startServer(t, ServerConfig{})
	nc := trainerDial(t, s.URL())
	st := tinySettings(t, "surplus")
	ts := newTrainerSide(t, nc, st, HubConfig{AckWait: time.Hour, MaxTake: 20, MaxBacklog: 20})
	js := jsOf(t, nc)
	publishN(t, js, st, "w1", 0, 10, 10, 0)
	eventually(t, "10 pending", func() bool {
		info, err := ts.hub.cons.Info(testCtx(t))
		return err == nil && info.NumPending == 10
	})
	first := ts.iterate(true) // killed just after the checkpoint: no acks
	second := ts.iterate(false)
	var taken []string
	for _, tk := range []*Take{first, second} {
		for _, b := range tk.Batches {
			taken = append(taken, b.ID)
		}
	}
	if first.Surplus != 6 || first.SurplusSamples != 60 || first.Samples() != 20 || first.Backlog != 20 {
		t.Fatalf("first take: %d samples, surplus %d batches (%d samples), backlog %d; want 20, 6 (60), 20",
			first.Samples(), first.Surplus, first.SurplusSamples, first.Backlog)
	}
	if want := "[w1.s1.7 w1.s1.8 w1.s1.9 w1.s1.10]"; fmt.Sprint(taken) != want {
		t.Fatalf("taken %v, want the newest four %s", taken, want)
	}
	if len(ts.shards)+int(ts.surplus) != 10 || ts.surplus != 6 || ts.dups != 0 || second.Backlog != 0 {
		t.Fatalf("%d taken + %d surplus of 10 published, %d duplicates, backlog %d after", len(ts.shards), ts.surplus, ts.dups, second.Backlog)
	}
}

// TestRedeliveredCarryStaysPrivate: a take that folds a redelivery into a
// message carried from the last take changes its own copy, not the hub's
// carry (which keepAlive reads meanwhile, and which a failed take must
// leave as it was); the redelivery is acked with the batch, taken once.
func TestRedeliveredCarryStaysPrivate(t *testing.T) {
	s := startServer(t, ServerConfig{})
	nc := trainerDial(t, s.URL())
	st := tinySettings(t, "carry")
	ts := newTrainerSide(t, nc, st, HubConfig{AckWait: time.Second, MaxTake: 20})
	js := jsOf(t, nc)
	publishN(t, js, st, "w1", 0, 4, 10, 0)
	// All four pending before the first take, so that its fetch holds more
	// than MaxTake and carries the rest (a take that met fewer would take
	// them all and carry none, and no later take would carry).
	eventually(t, "4 pending", func() bool {
		info, err := ts.hub.cons.Info(testCtx(t))
		return err == nil && info.NumPending == 4
	})
	var first *Take
	eventually(t, "a take that carries batches", func() bool {
		first = ts.iterate(false)
		ts.hub.mu.Lock()
		defer ts.hub.mu.Unlock()
		return len(first.Batches) > 0 && len(ts.hub.carry) > 0
	})
	// The server hears nothing for over AckWait and redelivers the carry.
	ts.hub.mu.Lock()
	before := make([]int, len(ts.hub.carry))
	for i, c := range ts.hub.carry {
		before[i] = len(c.msgs)
	}
	carry := slices.Clone(ts.hub.carry)
	time.Sleep(2500 * time.Millisecond)
	ts.hub.mu.Unlock()
	tk, err := ts.hub.take(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	redelivered := 0
	for _, m := range tk.held {
		redelivered += len(m.msgs) - 1
	}
	for i, c := range carry {
		if len(c.msgs) != before[i] {
			t.Fatalf("the hub's carried message %d went from %d deliveries to %d during a take", c.seq, before[i], len(c.msgs))
		}
	}
	if redelivered == 0 {
		t.Fatalf("no redelivery reached the take (held %d, carry %d)", len(tk.held), len(tk.carry))
	}
	ts.hub.merge(tk)
	ts.hub.Commit(tk)
	for _, b := range tk.Batches {
		if _, ok := ts.shards[b.ID]; ok {
			t.Fatalf("batch %s taken twice", b.ID)
		}
	}
}
