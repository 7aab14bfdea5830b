package cluster

import (
	"context"
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
	// MaxTake bounds the samples one Take hands out; 0 = all that wait.
	MaxTake int
	// KeepModels is how many network versions stay in the object store; 0 = 8.
	// At least MaxAge+1 stay, since a batch's age is counted in them.
	KeepModels int
	Log        func(msg string) // rejections and connection trouble; nil = none
}

// Counters are a hub's running totals since it was opened.
type Counters struct {
	Batches, Samples int64 // taken and handed out
	Corrupt          int64 // rejected: not a batch, damaged, or of another format version
	Foreign          int64 // rejected: another run, game or encoding
	Stale            int64 // batches dropped for their network's age
	StaleSamples     int64 // samples in them
	Duplicates       int64 // batches already in a checkpointed shard (acknowledged again)
	AckErrors        int64 // acks that could not be sent (the batch comes back, and is a duplicate then)
}

// Hub is the trainer's end of a run: it publishes the settings and the
// networks, and consumes the workers' batches through a durable pull
// consumer, exactly once together with a Ledger: a batch is acknowledged
// only after Commit, which the trainer calls once the batch's samples are
// in a checkpointed shard. Its methods are not safe for concurrent use,
// except Counters.
type Hub struct {
	js      jetstream.JetStream
	cfg     HubConfig
	cons    jetstream.Consumer
	workers jetstream.KeyValue
	ledger  *Ledger

	versions []int // published network versions, increasing

	mu   sync.Mutex
	held map[string][]jetstream.Msg // batch id -> deliveries handed out, not yet acked
	cnt  Counters

	stop chan struct{}
	done chan struct{}
}

// Take is one hand-out of batches, to be committed once their samples are
// checkpointed.
type Take struct {
	Batches []*Batch
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
// current run and opens the run's durable consumer. ledger decides which
// redelivered batches are already checkpointed.
func OpenHub(ctx context.Context, nc *nats.Conn, ledger *Ledger, cfg HubConfig) (*Hub, error) {
	if cfg.AckWait == 0 {
		cfg.AckWait = 30 * time.Second
	}
	if cfg.KeepModels == 0 {
		cfg.KeepModels = 8
	}
	cfg.KeepModels = max(cfg.KeepModels, cfg.MaxAge+1) // the age of a batch is counted in stored versions
	if cfg.MaxAge < 0 || cfg.MaxTake < 0 || cfg.KeepModels < 1 || cfg.AckWait < time.Second {
		return nil, fmt.Errorf("cluster: hub: max_age %d, max_take %d, keep_models %d or ack_wait %s out of range", cfg.MaxAge, cfg.MaxTake, cfg.KeepModels, cfg.AckWait)
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
	cons, err := js.CreateOrUpdateConsumer(ctx, StreamName, jetstream.ConsumerConfig{
		Durable: ConsumerName(run), FilterSubject: RunSubjects(run), AckPolicy: jetstream.AckExplicitPolicy,
		AckWait: cfg.AckWait, MaxDeliver: -1, MaxAckPending: 1 << 20, DeliverPolicy: jetstream.DeliverAllPolicy,
		Description: "kumalak trainer of run " + run,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: hub: consumer %s: %w", ConsumerName(run), err)
	}
	wkv, err := js.KeyValue(ctx, WorkersBucket)
	if err != nil {
		return nil, fmt.Errorf("cluster: hub: %w", err)
	}
	vs, err := ModelVersions(ctx, js, run)
	if err != nil {
		return nil, err
	}
	h := &Hub{js: js, cfg: cfg, cons: cons, workers: wkv, ledger: ledger, versions: vs,
		held: map[string][]jetstream.Msg{}, stop: make(chan struct{}), done: make(chan struct{})}
	go h.keepAlive()
	return h, nil
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

// Take fetches the batches waiting in the stream, without waiting for more,
// and hands out those of this run that are new. Corrupt and foreign
// messages are terminated (never redelivered), stale ones and those the
// ledger already holds are acknowledged; each is counted and logged. A
// server that cannot be reached ends the take early, without error.
func (h *Hub) Take(ctx context.Context) (*Take, error) {
	t := &Take{}
	ictx, cancel := context.WithTimeout(ctx, callTimeout)
	info, err := h.cons.Info(ictx)
	cancel()
	if err != nil {
		h.logf("cluster: consumer info: %v", err)
		return t, ctx.Err()
	}
	// What is available now (new batches and redeliveries), then, once, a
	// short wait for the rest of the NumPending the consumer reported, which
	// it may not have readied yet.
	pend, got, waited := int(info.NumPending), 0, false
	for h.room(t) && ctx.Err() == nil {
		n, err := h.fetch(t, func() (jetstream.MessageBatch, error) { return h.cons.FetchNoWait(256) })
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
			return h.cons.Fetch(min(pend-got, 256), jetstream.FetchMaxWait(time.Second))
		})
		if got += n; err != nil || n == 0 {
			break
		}
	}
	return t, ctx.Err()
}

func (h *Hub) room(t *Take) bool { return h.cfg.MaxTake == 0 || t.Samples() < h.cfg.MaxTake }

// fetch handles one fetched batch of messages and returns how many it held;
// a fetch error is logged and returned.
func (h *Hub) fetch(t *Take, get func() (jetstream.MessageBatch, error)) (int, error) {
	mb, err := get()
	if err != nil {
		h.logf("cluster: fetch batches: %v", err)
		return 0, err
	}
	n := 0
	for msg := range mb.Messages() {
		n++
		h.handle(msg, t)
	}
	if err := mb.Error(); err != nil && !errors.Is(err, jetstream.ErrNoMessages) && !errors.Is(err, nats.ErrTimeout) {
		h.logf("cluster: fetch batches: %v", err)
		return n, err
	}
	return n, nil
}

func (h *Hub) handle(msg jetstream.Msg, t *Take) {
	b, err := DecodeBatch(msg.Data())
	if err == nil {
		if id := msg.Headers().Get(jetstream.MsgIDHeader); id != b.ID {
			err = fmt.Errorf("cluster: batch %s: %w: message id header %q differs", b.ID, ErrCorrupt, id)
		} else if err = ValidWorker(b.Worker); err != nil {
			err = fmt.Errorf("%w: %w", ErrCorrupt, err)
		} else {
			err = b.Check(h.Run(), h.cfg.Settings.Layout)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case err != nil:
		h.reject(msg, err)
	case h.held[b.ID] != nil:
		h.held[b.ID] = append(h.held[b.ID], msg) // redelivered while held: ack it with the first
	case h.seen(b.ID):
		h.cnt.Duplicates++
		h.ack(msg)
	case h.cfg.MaxAge > 0 && h.age(b.Network) > h.cfg.MaxAge:
		h.cnt.Stale++
		h.cnt.StaleSamples += int64(len(b.Samples))
		h.ack(msg)
	default:
		h.held[b.ID] = []jetstream.Msg{msg}
		h.cnt.Batches++
		h.cnt.Samples += int64(len(b.Samples))
		t.Batches = append(t.Batches, b)
	}
}

func (h *Hub) seen(id string) bool {
	_, ok := h.ledger.Seen(id)
	return ok
}

func (h *Hub) reject(msg jetstream.Msg, err error) {
	if errors.Is(err, ErrForeign) {
		h.cnt.Foreign++
	} else {
		h.cnt.Corrupt++
	}
	h.logf("cluster: rejected a message on %s: %v", msg.Subject(), err)
	if err := msg.Term(); err != nil {
		h.logf("cluster: terminate rejected message: %v", err)
	}
}

// ack acknowledges msg and waits for the server's confirmation.
func (h *Hub) ack(msg jetstream.Msg) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := msg.DoubleAck(ctx); err != nil {
		h.cnt.AckErrors++
		h.logf("cluster: ack %s: %v", msg.Subject(), err)
	}
}

// Commit acknowledges the take's batches: call it only once their samples
// are in a checkpointed shard and their ids in the ledger. The acks are
// sent without waiting for each confirmation, then flushed: an ack that is
// lost only brings its batch back, and the ledger recognises it then.
func (h *Hub) Commit(t *Take) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, b := range t.Batches {
		for _, msg := range h.held[b.ID] {
			if err := msg.Ack(); err != nil {
				h.cnt.AckErrors++
				h.logf("cluster: ack %s: %v", b.ID, err)
			}
		}
		delete(h.held, b.ID)
	}
	if err := h.js.Conn().FlushTimeout(10 * time.Second); err != nil {
		h.cnt.AckErrors++
		h.logf("cluster: flush acks: %v", err)
	}
}

// keepAlive tells the server, every AckWait/3, that the held batches are
// still being worked on, so that it does not redeliver them.
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
			for _, msgs := range h.held {
				for _, m := range msgs {
					_ = m.InProgress() // best effort: a lapse only causes a redelivery, which handle folds in
				}
			}
			h.mu.Unlock()
		}
	}
}

// Workers returns the ids of the workers that sent a heartbeat within WorkerTTL.
func (h *Hub) Workers(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	kl, err := h.workers.ListKeysFiltered(ctx, h.Run()+".*")
	if err != nil {
		return nil, fmt.Errorf("cluster: list workers: %w", err)
	}
	var ids []string
	for k := range kl.Keys() {
		ids = append(ids, strings.TrimPrefix(k, h.Run()+"."))
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

// Close stops keeping held batches alive and hands them back to the server
// (a negative ack), which delivers them again at once to the next trainer
// (a killed trainer's come back after AckWait). It does not close the
// connection.
func (h *Hub) Close() {
	select {
	case <-h.stop:
		return
	default:
		close(h.stop)
		<-h.done
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for id, msgs := range h.held {
		for _, m := range msgs {
			_ = m.Nak() // best effort: without it the batch comes back after AckWait
		}
		delete(h.held, id)
	}
	if nc := h.js.Conn(); nc.IsConnected() {
		_ = nc.FlushTimeout(5 * time.Second)
	}
}

func (h *Hub) logf(format string, args ...any) {
	if h.cfg.Log != nil {
		h.cfg.Log(fmt.Sprintf(format, args...))
	}
}
