package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"kumalak/net"
)

// HubConfig sets the trainer's side of a run.
type HubConfig struct {
	Settings Settings // published for the workers; Settings.Run names the run
	// MaxAge drops a batch played by a network more than MaxAge versions
	// older than the newest published one; 0 keeps every batch.
	MaxAge int
	// AckWait is how long the server waits for an ack before it redelivers
	// a batch; the hub keeps the batches it holds alive meanwhile. 0 = 30s.
	AckWait time.Duration
	// MaxTake bounds the samples one Take hands out, exactly: a batch that
	// would go beyond it waits, already fetched, for the next Take.
	// 0 = all that wait. Settings.MaxBatch must not exceed it.
	MaxTake int
	// MaxBacklog bounds the samples left waiting after a Take: when more
	// wait (estimated from the consumer's pending count and the mean batch
	// size), the oldest valid batches are dropped and counted as surplus,
	// so that a trainer that cannot learn all the workers make takes the
	// newest. 0 = off: batches wait until they are stale (MaxAge) or the
	// stream's retention ends them.
	MaxBacklog int
	// KeepModels is how many network versions stay in the object store; 0 = 8.
	// At least MaxAge+1 stay, since a batch's age is counted in them.
	KeepModels int
	Log        func(msg string) // rejections and connection trouble; nil = none
	Now        func() time.Time // the clock of the session marks; nil = time.Now
}

// Counters are a hub's running totals since it was opened.
type Counters struct {
	Batches, Samples int64 // taken and handed out
	Corrupt          int64 // rejected: not a batch, damaged, forged, of another format version or beyond the run's limits
	Foreign          int64 // rejected: another run, game or encoding
	Stale            int64 // batches dropped for their network's age
	StaleSamples     int64 // samples in them
	Surplus          int64 // batches dropped, oldest first, beyond MaxBacklog
	SurplusSamples   int64 // samples in them
	// Duplicates are deliveries of messages already handled (a lost ack,
	// a redelivery after ack_wait) and stored copies of batches already
	// handled (a worker's re-send after the duplicate window).
	Duplicates int64
	AckErrors  int64 // acks that could not be sent (the message comes back, and is a duplicate then)
	Resyncs    int64 // consumer restarts after a delivery went missing
}

// Hub is the trainer's end of a run: it publishes the settings and the
// networks, and consumes the workers' batches exactly once, together with
// a Ledger (see the package documentation, "Exactly once"). Its methods
// are not safe for concurrent use, except Counters and Workers.
type Hub struct {
	js     jetstream.JetStream
	cfg    HubConfig
	cons   jetstream.Consumer
	ledger *Ledger
	hbSub  *nats.Subscription

	versions []int   // published network versions, increasing
	avg      float64 // running mean of samples per taken batch, to size fetches

	mu       sync.Mutex
	marks    Marks               // handled so far: Position and sessions, committed or not
	held     map[uint64]*heldMsg // stream sequence -> handled since the last Commit, to ack then
	carry    []*heldMsg          // fetched, not handled: beyond MaxTake; first in the next Take
	lastDseq uint64              // the consumer's delivery sequence of the last message received
	cnt      Counters
	seen     map[string]time.Time // worker -> last heartbeat

	stop chan struct{}
	done chan struct{}
}

// heldMsg is one stream message the hub holds: its deliveries (a
// redelivery of a held message joins the first) and whether it is to be
// terminated (rejected) rather than acknowledged.
type heldMsg struct {
	seq    uint64
	msgs   []jetstream.Msg
	reject bool
}

// Take is one hand-out of batches, to be committed once their samples are
// checkpointed, with the counts of what the hand-out dropped.
type Take struct {
	Batches                 []*Batch
	Corrupt, Foreign        int64
	Stale, StaleSamples     int64
	Surplus, SurplusSamples int64 // dropped beyond MaxBacklog, oldest first
	Backlog                 int   // samples estimated to wait in the stream after the take (-1 unknown)
	Duplicates              int64
	waiting                 int // messages waiting at the take's start not classified yet (-1 unknown)
	seen, seenSamples       int // valid batches classified in this take, and their samples
	pos                     uint64
	marks                   Marks
	held                    map[uint64]*heldMsg
	carry                   []*heldMsg
	lastDseq                uint64
	full                    bool // a batch did not fit: everything after waits
	samples, room, maxBatch int
}

// Entries returns the ledger entries of the take's batches.
func (t *Take) Entries() []Entry {
	es := make([]Entry, len(t.Batches))
	for i, b := range t.Batches {
		es[i] = Entry{ID: b.ID, Worker: b.Worker, Network: b.Network, Samples: len(b.Samples)}
	}
	return es
}

// Samples returns the number of samples in the take.
func (t *Take) Samples() int {
	n := 0
	for _, b := range t.Batches {
		n += len(b.Samples)
	}
	return n
}

// OpenHub sets up the stream and buckets, publishes cfg.Settings as the
// current run and (re)starts the run's durable consumer just after the
// ledger's position, so that nothing the trainer handled before its
// checkpoint comes back, and everything after it does, in order.
func OpenHub(ctx context.Context, nc *nats.Conn, ledger *Ledger, cfg HubConfig) (*Hub, error) {
	if cfg.AckWait == 0 {
		cfg.AckWait = 30 * time.Second
	}
	if cfg.KeepModels == 0 {
		cfg.KeepModels = 8
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Settings.MaxBatch == 0 {
		cfg.Settings.MaxBatch = MaxBatchSamples
		if cfg.MaxTake > 0 {
			cfg.Settings.MaxBatch = min(MaxBatchSamples, cfg.MaxTake)
		}
	}
	cfg.KeepModels = max(cfg.KeepModels, cfg.MaxAge+1) // the age of a batch is counted in stored versions
	if cfg.MaxAge < 0 || cfg.MaxTake < 0 || cfg.MaxBacklog < 0 || cfg.KeepModels < 1 || cfg.AckWait < time.Second ||
		(cfg.MaxTake > 0 && cfg.Settings.MaxBatch > cfg.MaxTake) {
		return nil, fmt.Errorf("cluster: hub: max_age %d, max_take %d, max_backlog %d, max_batch %d, keep_models %d or ack_wait %s out of range",
			cfg.MaxAge, cfg.MaxTake, cfg.MaxBacklog, cfg.Settings.MaxBatch, cfg.KeepModels, cfg.AckWait)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("cluster: hub: %w", err)
	}
	if err := Setup(ctx, js); err != nil {
		return nil, err
	}
	if err := PutSettings(ctx, js, cfg.Settings); err != nil {
		return nil, err
	}
	run := cfg.Settings.Run
	vs, err := ModelVersions(ctx, js, run)
	if err != nil {
		return nil, err
	}
	h := &Hub{js: js, cfg: cfg, ledger: ledger, versions: vs, avg: 256, held: map[uint64]*heldMsg{},
		seen: map[string]time.Time{}, stop: make(chan struct{}), done: make(chan struct{})}
	if err := h.startPosition(ctx); err != nil {
		return nil, err
	}
	if err := h.restartConsumer(ctx); err != nil {
		return nil, err
	}
	if h.hbSub, err = nc.Subscribe(HeartbeatSubject(run, "*"), h.heartbeat); err != nil {
		return nil, fmt.Errorf("cluster: hub: heartbeats: %w", err)
	}
	go h.keepAlive()
	return h, nil
}

// startPosition sets the marks the hub starts from: the ledger's, in the
// stream they count in.
func (h *Hub) startPosition(ctx context.Context) error {
	ictx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	s, err := h.js.Stream(ictx, StreamName)
	if err != nil {
		return fmt.Errorf("cluster: hub: stream %s: %w", StreamName, err)
	}
	id := s.CachedInfo().Created.UTC().Format(time.RFC3339Nano)
	m := h.ledger.Marks()
	switch {
	case m.Legacy:
		m.Position = 0
		if c, err := h.js.Consumer(ictx, StreamName, ConsumerName(h.Run())); err == nil {
			m.Position = c.CachedInfo().AckFloor.Stream
		}
		h.logf("cluster: a ledger without marks (an older build's run): starting after stream message %d, the consumer's acknowledgement floor", m.Position)
	case m.Stream != "" && m.Stream != id:
		h.logf("cluster: stream %s was made anew (created %s, the ledger counts in the one of %s): taking it from its start", StreamName, id, m.Stream)
		m.Position = 0
	}
	m.Stream, m.Legacy = id, false
	h.marks = m
	return nil
}

// restartConsumer deletes the run's consumer and makes it anew, delivering
// from the message after the marks' position, in stream order.
func (h *Hub) restartConsumer(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	name := ConsumerName(h.Run())
	if err := h.js.DeleteConsumer(ctx, StreamName, name); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		return fmt.Errorf("cluster: hub: delete consumer %s: %w", name, err)
	}
	cons, err := h.js.CreateConsumer(ctx, StreamName, jetstream.ConsumerConfig{
		Durable: name, FilterSubject: RunSubjects(h.Run()), AckPolicy: jetstream.AckExplicitPolicy,
		AckWait: h.cfg.AckWait, MaxDeliver: -1, MaxAckPending: 1 << 20,
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: h.marks.Position + 1,
		Description: "kumalak trainer of run " + h.Run(),
	})
	if err != nil {
		return fmt.Errorf("cluster: hub: consumer %s: %w", name, err)
	}
	h.mu.Lock()
	h.cons, h.lastDseq, h.carry = cons, 0, nil
	h.mu.Unlock()
	return nil
}

// Run returns the run id.
func (h *Hub) Run() string { return h.cfg.Settings.Run }

// Publish stores m as network version v and announces it as the best, then
// deletes versions beyond KeepModels from the store.
func (h *Hub) Publish(ctx context.Context, v int, m *net.Model) error {
	if err := PutModel(ctx, h.js, h.Run(), v, m); err != nil {
		return err
	}
	if !slices.Contains(h.versions, v) {
		h.versions = append(h.versions, v)
		slices.Sort(h.versions)
	}
	for len(h.versions) > h.cfg.KeepModels {
		if err := DeleteModel(ctx, h.js, h.Run(), h.versions[0]); err != nil {
			return err
		}
		h.versions = h.versions[1:]
	}
	return nil
}

// age returns how many published versions are newer than v.
func (h *Hub) age(v int) int {
	i, _ := slices.BinarySearch(h.versions, v+1)
	return len(h.versions) - i
}

// newest is the newest published network version (0 before any).
func (h *Hub) newest() int {
	if len(h.versions) == 0 {
		return 0
	}
	return h.versions[len(h.versions)-1]
}

// errGap ends a take whose consumer skipped a delivery sequence: a
// delivery went missing (a fetch cut short, a connection lost), and it
// would come back out of order.
var errGap = errors.New("cluster: a delivery went missing")

// Take fetches the batches waiting in the stream, without waiting for more,
// and hands out those of this run that are new, at most MaxTake samples.
// Rejected, stale and duplicate messages are counted (in the Take and the
// Counters) and logged; they and the batches handed out are acknowledged
// (rejected ones terminated) at Commit. A server that cannot be reached
// ends the take early, without error.
func (h *Hub) Take(ctx context.Context) (*Take, error) {
	for attempt := 1; ; attempt++ {
		t, err := h.take(ctx)
		if err == nil {
			h.merge(t)
			return t, ctx.Err()
		}
		h.mu.Lock()
		h.cnt.Resyncs++
		h.mu.Unlock()
		h.logf("%v: restarting the consumer after stream message %d", err, h.Marks().Position)
		if err := h.restartConsumer(ctx); err != nil || attempt == 3 {
			if err != nil {
				h.logf("%v", err)
			}
			return &Take{}, ctx.Err() // the next take tries again
		}
	}
}

// take is one attempt of Take; its state joins the hub's only if it
// succeeds (merge).
func (h *Hub) take(ctx context.Context) (*Take, error) {
	h.mu.Lock()
	t := &Take{pos: h.marks.Position, marks: h.marks.clone(), held: map[uint64]*heldMsg{},
		lastDseq: h.lastDseq, room: h.cfg.MaxTake, maxBatch: h.cfg.Settings.MaxBatch}
	// The carry is copied: keepAlive reads the hub's while this take adds
	// redeliveries to its own, and a take that fails leaves the hub's as it was.
	carry := make([]*heldMsg, len(h.carry))
	for i, c := range h.carry {
		carry[i] = &heldMsg{seq: c.seq, msgs: slices.Clone(c.msgs), reject: c.reject}
	}
	cons := h.cons
	h.mu.Unlock()
	ictx, cancel := context.WithTimeout(ctx, callTimeout)
	info, err := cons.Info(ictx)
	cancel()
	t.waiting, t.Backlog = -1, -1
	if err == nil {
		t.waiting = int(info.NumPending) + len(carry)
		defer func() { t.Backlog = int(float64(t.waiting) * h.meanBatch(t)) }()
	}
	for _, c := range carry {
		h.classify(t, c)
	}
	if t.full {
		return t, nil
	}
	if err != nil {
		h.logf("cluster: consumer info: %v", err)
		return t, nil
	}
	// What is available now (new batches and redeliveries), then, once, a
	// short wait for the rest of the NumPending the consumer reported, which
	// it may not have readied yet.
	pend, got, waited := int(info.NumPending), 0, false
	for !t.full && ctx.Err() == nil {
		want := h.fetchSize(t)
		n, err := h.fetch(t, func() (jetstream.MessageBatch, error) { return cons.FetchNoWait(want) })
		if errors.Is(err, errGap) {
			return nil, err
		}
		if err != nil {
			break
		}
		if got += n; n > 0 {
			continue
		}
		if got >= pend || waited {
			break
		}
		waited = true
		n, err = h.fetch(t, func() (jetstream.MessageBatch, error) {
			return cons.Fetch(min(pend-got, want), jetstream.FetchMaxWait(time.Second))
		})
		if errors.Is(err, errGap) {
			return nil, err
		}
		if got += n; err != nil || n == 0 {
			break
		}
	}
	return t, nil
}

// meanBatch is the mean samples of a valid batch: of the take's so far,
// or the hub's running mean before the take has seen one.
func (h *Hub) meanBatch(t *Take) float64 {
	if t.seen > 0 {
		return float64(t.seenSamples) / float64(t.seen)
	}
	return max(1, h.avg)
}

// surplus reports whether the take drops the valid batch of count samples
// it is at (the oldest still waiting): whether, were it taken, more than
// MaxBacklog samples would wait after the take, the messages after it
// estimated at the mean batch size.
func (h *Hub) surplus(t *Take, count int) bool {
	if h.cfg.MaxBacklog == 0 || t.room == 0 || t.waiting < 0 {
		return false
	}
	return float64(t.waiting)*h.meanBatch(t) > float64(t.room-t.samples-count+h.cfg.MaxBacklog)
}

// SetMaxTake sets the samples the next takes hand out at most (HubConfig's
// MaxTake): a trainer sizes each iteration's take to what it can learn.
// It is raised to the run's batch limit (Settings.MaxBatch), so that every
// valid batch fits a take; SetMaxTake returns the value set.
func (h *Hub) SetMaxTake(n int) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cfg.MaxTake = max(n, h.cfg.Settings.MaxBatch)
	return h.cfg.MaxTake
}

// fetchSize is how many messages to ask for: what the take may still
// hold, counted in batches of the mean size so far, at most 256.
func (h *Hub) fetchSize(t *Take) int {
	if t.room == 0 {
		return 256
	}
	left := t.room - t.samples
	return max(1, min(256, int(float64(left)/max(1, h.avg)+0.999)))
}

// merge makes a successful take's state the hub's.
func (h *Hub) merge(t *Take) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for seq, m := range t.held {
		h.held[seq] = m
	}
	h.carry, h.lastDseq = t.carry, t.lastDseq
	h.marks, h.marks.Position = t.marks, t.pos
	h.cnt.Batches += int64(len(t.Batches))
	h.cnt.Samples += int64(t.Samples())
	h.cnt.Corrupt += t.Corrupt
	h.cnt.Foreign += t.Foreign
	h.cnt.Stale += t.Stale
	h.cnt.StaleSamples += t.StaleSamples
	h.cnt.Surplus += t.Surplus
	h.cnt.SurplusSamples += t.SurplusSamples
	h.cnt.Duplicates += t.Duplicates
	for _, b := range t.Batches {
		h.avg += (float64(len(b.Samples)) - h.avg) / 16
	}
}

// fetch receives one fetched batch of messages and returns how many it
// held; a fetch error is logged and returned, and so is errGap.
func (h *Hub) fetch(t *Take, get func() (jetstream.MessageBatch, error)) (int, error) {
	mb, err := get()
	if err != nil {
		h.logf("cluster: fetch batches: %v", err)
		return 0, err
	}
	n := 0
	var gap error
	for msg := range mb.Messages() {
		n++
		if gap == nil {
			gap = h.receive(t, msg)
		}
	}
	if gap != nil {
		return n, gap
	}
	if err := mb.Error(); err != nil && !errors.Is(err, jetstream.ErrNoMessages) && !errors.Is(err, nats.ErrTimeout) {
		h.logf("cluster: fetch batches: %v", err)
		return n, err
	}
	return n, nil
}

// receive checks that msg is the consumer's next delivery and classifies it.
func (h *Hub) receive(t *Take, msg jetstream.Msg) error {
	md, err := msg.Metadata()
	if err != nil {
		h.logf("cluster: a message without JetStream metadata on %s: %v", msg.Subject(), err)
		return errGap
	}
	if md.Sequence.Consumer != t.lastDseq+1 {
		return fmt.Errorf("%w (delivery %d after %d)", errGap, md.Sequence.Consumer, t.lastDseq)
	}
	t.lastDseq = md.Sequence.Consumer
	h.classify(t, &heldMsg{seq: md.Sequence.Stream, msgs: []jetstream.Msg{msg}})
	return nil
}

// classify handles one message in stream order: a redelivery joins what
// holds it; then, cheapest checks first, it is rejected, recognised as a
// duplicate, dropped as stale, or decoded and taken; once a batch does not
// fit, it and everything after it wait for the next take.
func (h *Hub) classify(t *Take, m *heldMsg) {
	if m.seq <= t.pos {
		if h.joinHeld(t, m) {
			return // redelivered while held: acked with it
		}
		t.Duplicates++ // handled and committed already: only the ack was lost
		for _, msg := range m.msgs {
			_ = msg.Ack() // best effort: it comes back otherwise, and is a duplicate again
		}
		return
	}
	if i := slices.IndexFunc(t.carry, func(c *heldMsg) bool { return c.seq == m.seq }); i >= 0 {
		t.carry[i].msgs = append(t.carry[i].msgs, m.msgs...)
		return
	}
	if t.full {
		t.carry = append(t.carry, m)
		return
	}
	msg := m.msgs[0]
	if t.waiting > 0 {
		t.waiting--
	}
	b, count, err := h.peek(msg, t.maxBatch)
	if err == nil {
		t.seen, t.seenSamples = t.seen+1, t.seenSamples+count
	}
	switch {
	case err != nil:
		h.reject(t, m, err)
		return
	case t.marks.covers(b.ID):
		t.Duplicates++ // a second stored copy of a batch handled before
	case h.cfg.MaxAge > 0 && h.age(b.Network) > h.cfg.MaxAge:
		t.Stale++
		t.StaleSamples += int64(count)
		t.marks.raise(b.ID, h.cfg.Now())
	case h.surplus(t, count):
		t.Surplus++
		t.SurplusSamples += int64(count)
		t.marks.raise(b.ID, h.cfg.Now())
	case t.room > 0 && t.samples+count > t.room:
		t.full = true
		t.carry = append(t.carry, m)
		if t.waiting >= 0 {
			t.waiting++ // still waiting, in the carry
		}
		return
	default:
		full, err := DecodeBatch(msg.Data())
		if err != nil {
			h.reject(t, m, err)
			return
		}
		t.Batches = append(t.Batches, full)
		t.samples += count
		t.marks.raise(b.ID, h.cfg.Now())
	}
	t.held[m.seq], t.pos = m, m.seq
}

// joinHeld adds m's deliveries to the held message of its stream sequence,
// in the take or the hub, and reports whether there was one.
func (h *Hub) joinHeld(t *Take, m *heldMsg) bool {
	if held := t.held[m.seq]; held != nil {
		held.msgs = append(held.msgs, m.msgs...)
		return true
	}
	h.mu.Lock() // keepAlive reads the hub's held messages
	defer h.mu.Unlock()
	if held := h.held[m.seq]; held != nil {
		held.msgs = append(held.msgs, m.msgs...)
		return true
	}
	return false
}

// peek checks a message from its headers and its batch header alone,
// before anything is decompressed: format, run, game, encoding, the
// worker named by the subject (which the sender's credentials allow it
// alone to publish on), by the headers and by the body alike, the network not newer than the newest, and
// the count within the run's batch limit. It returns the batch without
// samples and the count of samples the header claims.
func (h *Hub) peek(msg jetstream.Msg, maxBatch int) (*Batch, int, error) {
	b, count, err := PeekBatch(msg.Data())
	if err != nil {
		return nil, 0, err
	}
	worker := msg.Subject()[strings.LastIndexByte(msg.Subject(), '.')+1:]
	switch {
	case msg.Headers().Get(jetstream.MsgIDHeader) != b.ID:
		err = fmt.Errorf("cluster: batch %s: %w: message id header %q differs", b.ID, ErrCorrupt, msg.Headers().Get(jetstream.MsgIDHeader))
	case ValidWorker(b.Worker) != nil:
		err = fmt.Errorf("%w: %w", ErrCorrupt, ValidWorker(b.Worker))
	case b.Worker != worker || !strings.HasPrefix(b.ID, b.Worker+"."):
		err = fmt.Errorf("cluster: batch %s: %w: worker %q sent on the subject of worker %q", b.ID, ErrCorrupt, b.Worker, worker)
	default:
		err = b.Check(h.Run(), h.cfg.Settings.Layout)
	}
	if err == nil {
		switch {
		case msg.Headers().Get(HeaderWorker) != worker || msg.Headers().Get(HeaderRun) != b.Run:
			err = fmt.Errorf("cluster: batch %s: %w: its headers name worker %q of run %q, its subject and body worker %q of run %q",
				b.ID, ErrCorrupt, msg.Headers().Get(HeaderWorker), msg.Headers().Get(HeaderRun), worker, b.Run)
		case b.Network > h.newest():
			err = fmt.Errorf("cluster: batch %s: %w: network %d, the newest is %d", b.ID, ErrCorrupt, b.Network, h.newest())
		case count > maxBatch:
			err = fmt.Errorf("cluster: batch %s: %w: %d samples, the run takes at most %d a batch", b.ID, ErrCorrupt, count, maxBatch)
		}
	}
	return b, count, err
}

func (h *Hub) reject(t *Take, m *heldMsg, err error) {
	if errors.Is(err, ErrForeign) {
		t.Foreign++
	} else {
		t.Corrupt++
	}
	h.logf("cluster: rejected a message on %s: %v", m.msgs[0].Subject(), err)
	m.reject = true
	t.held[m.seq], t.pos = m, m.seq
}

// Marks returns the marks of everything handled so far, committed or not:
// the trainer records them in its ledger with the shard of the take.
func (h *Hub) Marks() Marks {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.marks.clone()
}

// Record writes iteration it's ledger file of the take and the hub's marks:
// call it after the shard holding the take's samples, before the checkpoint.
func (h *Hub) Record(it int, t *Take) error {
	return h.ledger.Record(it, t.Entries(), h.Marks())
}

// Commit acknowledges every message handled since the last Commit
// (terminating the rejected ones): call it only once the taken samples are
// in a checkpointed shard and the marks in the ledger. The acks are sent
// without waiting for each confirmation, then flushed: correctness does
// not rest on them (the marks do), they only spare redeliveries.
func (h *Hub) Commit(*Take) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for seq, m := range h.held {
		for _, msg := range m.msgs {
			ack := msg.Ack
			if m.reject {
				ack = msg.Term
			}
			if err := ack(); err != nil {
				h.cnt.AckErrors++
				h.logf("cluster: ack stream message %d: %v", seq, err)
			}
		}
		delete(h.held, seq)
	}
	if err := h.js.Conn().FlushTimeout(10 * time.Second); err != nil {
		h.cnt.AckErrors++
		h.logf("cluster: flush acks: %v", err)
	}
}

// keepAlive tells the server, every AckWait/3, that the held and waiting
// messages are still being worked on, so that it does not redeliver them.
func (h *Hub) keepAlive() {
	defer close(h.done)
	tick := time.NewTicker(h.cfg.AckWait / 3)
	defer tick.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-tick.C:
			h.mu.Lock()
			for _, m := range h.held {
				for _, msg := range m.msgs {
					_ = msg.InProgress() // best effort: a lapse only causes a redelivery, which classify folds in
				}
			}
			for _, m := range h.carry {
				for _, msg := range m.msgs {
					_ = msg.InProgress()
				}
			}
			h.mu.Unlock()
		}
	}
}

// heartbeat records a worker's heartbeat; the worker is named by the
// subject (which only that worker's credentials may publish on), not by
// the body.
func (h *Hub) heartbeat(msg *nats.Msg) {
	worker := msg.Subject[strings.LastIndexByte(msg.Subject, '.')+1:]
	if ValidWorker(worker) != nil {
		return
	}
	var p WorkerProgress
	if json.Unmarshal(msg.Data, &p) != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if p.Detached {
		delete(h.seen, worker)
	} else {
		h.seen[worker] = time.Now()
	}
}

// Workers returns the ids of the workers that sent a heartbeat within
// WorkerTTL; safe for concurrent use.
func (h *Hub) Workers(context.Context) ([]string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var ids []string
	for w, at := range h.seen {
		if time.Since(at) <= WorkerTTL {
			ids = append(ids, w)
		} else {
			delete(h.seen, w)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// Counters returns the hub's running totals; safe for concurrent use.
func (h *Hub) Counters() Counters {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cnt
}

// Close stops keeping held messages alive and forgets them: the next hub
// restarts the consumer from its ledger's position, so what this one did
// not commit comes back to it. It does not close the connection.
func (h *Hub) Close() {
	select {
	case <-h.stop:
		return
	default:
		close(h.stop)
		<-h.done
	}
	if h.hbSub != nil {
		_ = h.hbSub.Unsubscribe()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	clear(h.held)
	h.carry = nil
}

func (h *Hub) logf(format string, args ...any) {
	if h.cfg.Log != nil {
		h.cfg.Log(fmt.Sprintf(format, args...))
	}
}
