package train

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"kumalak/cluster"
	"kumalak/data"
)

// ClusterConfig sets how the trainer takes samples from workers on other
// machines (kumalak worker); it matters only when the run has a NATS
// connection (Options.NATS).
type ClusterConfig struct {
	// MaxAge drops a worker batch played by a network more than MaxAge
	// promotions older than the newest; 0 keeps every batch.
	MaxAge int `yaml:"max_age"`
	// MaxSamples bounds the worker samples taken into one iteration; the
	// rest wait in the stream for the next. 0 = window.max_samples (more
	// would fall out of the window at once).
	MaxSamples int `yaml:"max_samples_per_iteration"`
	// AckWait is how long the server waits for the trainer to acknowledge
	// a batch it took before delivering it again; the trainer keeps the
	// batches it holds alive meanwhile, so this is how long a resumed run
	// waits for those a killed one held.
	AckWait time.Duration `yaml:"ack_wait"`
	// MinReuse sizes each iteration's take to what the trainer can learn:
	// at most max_steps_per_iteration × train.batch / MinReuse new samples
	// an iteration, local ones included, so that every new sample is
	// drawn into a batch MinReuse times on average at least (never less
	// than one batch of the run's batch limit). 0 = off: the take is
	// bounded by MaxSamples alone.
	MinReuse float64 `yaml:"min_reuse"`
	// MaxBacklog bounds the worker samples left waiting in the stream
	// after an iteration's take: beyond it the oldest waiting batches are
	// dropped and counted (surplus), so that the trainer learns from the
	// newest games. 0 = off: they wait until max_age makes them stale.
	MaxBacklog int `yaml:"max_backlog"`
}

// DefaultClusterConfig keeps batches of the last four promotions,
// redelivers unacknowledged ones after 30s, and takes what the trainer can
// draw once on average each iteration, leaving the rest waiting.
func DefaultClusterConfig() ClusterConfig {
	return ClusterConfig{MaxAge: 4, AckWait: 30 * time.Second, MinReuse: 1}
}

// Validate names the first field out of range.
func (c ClusterConfig) Validate() error {
	switch {
	case c.MaxAge < 0 || c.MaxAge > 1<<20:
		return fmt.Errorf("train: cluster.max_age %d out of range 0..%d", c.MaxAge, 1<<20)
	case c.MaxSamples < 0 || c.MaxSamples > 1<<26:
		return fmt.Errorf("train: cluster.max_samples_per_iteration %d out of range 0..%d", c.MaxSamples, 1<<26)
	case c.AckWait < time.Second || c.AckWait > time.Hour:
		return fmt.Errorf("train: cluster.ack_wait %s out of range 1s..1h", c.AckWait)
	case !(c.MinReuse >= 0 && c.MinReuse <= 1000):
		return fmt.Errorf("train: cluster.min_reuse %g out of range [0, 1000]", c.MinReuse)
	case c.MaxBacklog < 0 || c.MaxBacklog > 1<<30:
		return fmt.Errorf("train: cluster.max_backlog %d out of range 0..%d", c.MaxBacklog, 1<<30)
	}
	return nil
}

// RemoteMetrics is what an iteration took from workers.
type RemoteMetrics struct {
	Sources      map[string]int `json:"sources"`       // samples per source: "local" and each worker id
	Workers      []string       `json:"workers"`       // workers attached (a heartbeat within cluster.WorkerTTL)
	Batches      int            `json:"batches"`       // worker batches taken
	Rejected     int64          `json:"rejected"`      // corrupt or foreign messages rejected
	Stale        int64          `json:"stale"`         // batches dropped for their network's age
	StaleSamples int64          `json:"stale_samples"` // samples in them
	Duplicates   int64          `json:"duplicates"`    // redeliveries and stored copies of batches already handled
	// The surplus policy (docs/DISTRIBUTED.md, "Surplus samples"): the
	// iteration's cap on worker samples, the batches dropped oldest first
	// beyond cluster.max_backlog, and the samples left waiting.
	Cap            int   `json:"cap"`             // worker samples the iteration could take
	Surplus        int64 `json:"surplus"`         // batches dropped beyond max_backlog
	SurplusSamples int64 `json:"surplus_samples"` // samples in them
	Backlog        int   `json:"backlog"`         // worker samples estimated to wait after the take (-1 unknown)
	// UsedShare is the share of the worker samples the iteration handled
	// (taken, stale or surplus) that it took into its shard; 1 when none.
	UsedShare float64 `json:"used_share"`
}

// attach opens the run's hub on opt.NATS: publishes the settings and the
// best network, and opens the durable consumer of worker batches.
func (r *Run) attach() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := r.dir.Cluster()
	id, err := cluster.RunID(dir)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	ledger, err := cluster.OpenLedger(dir, r.state.Iteration)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	st := cluster.Settings{Run: id, Layout: r.layout(), BatchVersion: cluster.BatchVersion,
		SelfPlay: r.cfg.SelfPlay, Batcher: r.cfg.Batcher, Seed: r.cfg.Seed}
	hub, err := cluster.OpenHub(ctx, r.opt.NATS, ledger, cluster.HubConfig{Settings: st,
		MaxAge: r.cfg.Cluster.MaxAge, MaxTake: r.maxTake(), MaxBacklog: r.cfg.Cluster.MaxBacklog, AckWait: r.cfg.Cluster.AckWait,
		Log: func(m string) { fmt.Fprintln(r.log, m) }})
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := hub.Publish(ctx, r.state.BestIteration, r.best); err != nil {
		hub.Close()
		return fmt.Errorf("train: %w", err)
	}
	r.hub, r.ledger, r.published = hub, ledger, r.state.BestIteration
	return nil
}

// maxTake is the most worker samples one iteration takes.
func (r *Run) maxTake() int {
	if r.cfg.Cluster.MaxSamples > 0 {
		return r.cfg.Cluster.MaxSamples
	}
	return r.cfg.Window.MaxSamples
}

// takeRoom is the most worker samples an iteration that made local
// samples itself takes: cluster.max_samples_per_iteration (or the window),
// and, with cluster.min_reuse, what the iteration's training steps draw
// min_reuse times (max_steps_per_iteration × train.batch / min_reuse)
// less the local samples. The hub raises it to one batch of the run's
// limit, so that a batch always fits.
func (r *Run) takeRoom(local int) int {
	room := r.maxTake()
	if mr := r.cfg.Cluster.MinReuse; mr > 0 {
		capacity := int(float64(r.cfg.MaxSteps) * float64(r.cfg.Train.Batch) / mr)
		room = min(room, max(capacity-local, 0))
	}
	return room
}

// usedShare is taken / (taken + dropped), 1 when both are 0.
func usedShare(taken, dropped int64) float64 {
	if taken+dropped == 0 {
		return 1
	}
	return float64(taken) / float64(taken+dropped)
}

// RunID returns the run's id on the NATS server; "" without one.
func (r *Run) RunID() string {
	if r.hub == nil {
		return ""
	}
	return r.hub.Run()
}

// takeRemote appends the worker samples waiting in the stream to the
// iteration's local ones and records their sources in m. Without a hub it
// returns local untouched.
func (r *Run) takeRemote(ctx context.Context, m *Metrics, local []data.Sample) ([]data.Sample, *cluster.Take, error) {
	if r.hub == nil {
		return local, nil, nil
	}
	room := r.hub.SetMaxTake(r.takeRoom(len(local)))
	take, err := r.hub.Take(ctx)
	if err != nil {
		return nil, nil, err
	}
	rm := &RemoteMetrics{Sources: map[string]int{cluster.LocalSource: len(local)}, Batches: len(take.Batches),
		Rejected: take.Corrupt + take.Foreign, Stale: take.Stale, StaleSamples: take.StaleSamples, Duplicates: take.Duplicates,
		Cap: room, Surplus: take.Surplus, SurplusSamples: take.SurplusSamples, Backlog: take.Backlog}
	rm.UsedShare = usedShare(int64(take.Samples()), take.StaleSamples+take.SurplusSamples)
	samples := local
	for _, b := range take.Batches {
		rm.Sources[b.Worker] += len(b.Samples)
		samples = append(samples, b.Samples...)
	}
	if ws, err := r.hub.Workers(ctx); err == nil {
		rm.Workers = ws
	}
	m.Remote = rm
	return samples, take, nil
}

// recordRemote writes the ledger of the iteration's worker batches and the
// marks of what the hub handled; it runs after the shard is written and
// before the checkpoint.
func (r *Run) recordRemote(it int, take *cluster.Take) error {
	if r.hub == nil {
		return nil
	}
	if err := r.hub.Record(it, take); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// pruneLedger removes the ledger files of the shards the checkpoint just
// pruned (removed, the paths data.Prune returns) and of any older ones, so
// that a ledger file lives as long as its shard. Prune removes the oldest
// shards only, so every shard before the newest removed one is gone.
func (r *Run) pruneLedger(removed []string) error {
	if r.ledger == nil {
		return nil
	}
	newest := -1
	for _, p := range removed {
		if it, ok := data.ParseShardName(filepath.Base(p)); ok {
			newest = max(newest, it)
		}
	}
	if newest < 0 {
		return nil
	}
	if err := r.ledger.Prune(newest + 1); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// commitRemote acknowledges the checkpointed batches and publishes a newly
// promoted network to the workers. A failed publish does not stop the run:
// it is logged and tried again after the next iteration (and at the next
// start).
func (r *Run) commitRemote(ctx context.Context, take *cluster.Take) error {
	if r.hub == nil {
		return nil
	}
	r.hub.Commit(take)
	if r.published == r.state.BestIteration || ctx.Err() != nil {
		return nil
	}
	if err := r.hub.Publish(ctx, r.state.BestIteration, r.best); err != nil {
		fmt.Fprintf(r.log, "train: publish network %d to the workers (tried again next iteration): %v\n", r.state.BestIteration, err)
		return nil
	}
	r.published = r.state.BestIteration
	return nil
}

// remoteStatus is the cluster's part of the self-play progress line.
func (r *Run) remoteStatus() string {
	if r.hub == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	ws, err := r.hub.Workers(ctx)
	if err != nil {
		return "  workers ?"
	}
	return fmt.Sprintf("  workers %d", len(ws))
}

// summary is the remote part of an iteration's summary line.
func (rm *RemoteMetrics) summary() string {
	if rm == nil {
		return ""
	}
	names := make([]string, 0, len(rm.Sources))
	for n := range rm.Sources {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", n, rm.Sources[n])
	}
	s := fmt.Sprintf("  samples: %s; workers %d", strings.Join(parts, ", "), len(rm.Workers))
	if rm.Rejected+rm.Stale > 0 {
		s += fmt.Sprintf(" (rejected %d, stale %d)", rm.Rejected, rm.Stale)
	}
	if rm.Surplus > 0 || rm.UsedShare < 1 {
		s += fmt.Sprintf("; used %.0f%%, surplus %d", 100*rm.UsedShare, rm.SurplusSamples)
	}
	if rm.Backlog > 0 {
		s += fmt.Sprintf(", waiting %d", rm.Backlog)
	}
	return s
}
