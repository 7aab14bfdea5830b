package net

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// ErrClosed is returned by Evaluate after Close.
var ErrClosed = errors.New("net: batcher closed")

// BatcherConfig sets how a Batcher gathers rows.
type BatcherConfig struct {
	MaxBatch  int           `yaml:"max_batch"`  // most rows per network run
	MinBatch  int           `yaml:"min_batch"`  // rows worth waiting for before a run
	MaxWait   time.Duration `yaml:"max_wait"`   // longest wait for MinBatch rows
	CacheSize int           `yaml:"cache_size"` // cached positions; 0 turns the cache off
	Workers   int           `yaml:"workers"`    // network workers, each with its own copy of the network; 0 means 1
}

// DefaultBatcherConfig never waits: a run starts as soon as the worker is
// free, with whatever rows are queued. Self-play with many games should
// raise MinBatch (about half the games) and keep MaxWait short.
func DefaultBatcherConfig() BatcherConfig {
	return BatcherConfig{MaxBatch: 128, MinBatch: 1, MaxWait: time.Millisecond, CacheSize: 0, Workers: 1}
}

// Validate names the first field out of range.
func (c BatcherConfig) Validate() error {
	switch {
	case c.MaxBatch < 1 || c.MaxBatch > 4096:
		return fmt.Errorf("net: batcher max_batch %d out of range 1..4096", c.MaxBatch)
	case c.MinBatch < 1 || c.MinBatch > c.MaxBatch:
		return fmt.Errorf("net: batcher min_batch %d out of range 1..max_batch (%d)", c.MinBatch, c.MaxBatch)
	case c.MaxWait < 0 || c.MaxWait > time.Second:
		return fmt.Errorf("net: batcher max_wait %v out of range 0..1s", c.MaxWait)
	case c.CacheSize < 0 || c.CacheSize > 1<<24:
		return fmt.Errorf("net: batcher cache_size %d out of range 0..%d", c.CacheSize, 1<<24)
	case c.Workers < 0 || c.Workers > 64:
		return fmt.Errorf("net: batcher workers %d out of range 0..64", c.Workers)
	}
	return nil
}

// BatcherStats counts a Batcher's work since it was made.
type BatcherStats struct {
	Calls     int64   // Evaluate calls
	Rows      int64   // rows asked for
	Batches   int64   // network runs
	NetRows   int64   // rows run through the network
	CacheHits int64   // rows answered from the cache
	MeanBatch float64 // NetRows / Batches: the mean batch fill
}

// Batcher evaluates rows for many goroutines at once: it gathers their rows
// into batches, runs each batch once on an Infer owned by one of its worker
// goroutines, and copies every caller's rows back into its slices. Its
// Evaluate method has the shape of the mcts Evaluator. All methods are safe
// for concurrent use.
//
// Gathering: when a worker becomes free and finds requests queued, it
// yields the processor once (runtime.Gosched), so that callers it has just
// answered, which are runnable, can queue their next rows; then it takes
// queued requests up to MaxBatch rows. If fewer than MinBatch rows are
// queued it first waits, at most MaxWait, for more. With MinBatch 1 a lone
// caller never waits (the yield costs well under a microsecond when nothing
// else is runnable); with many callers rows pile up while a batch runs, so
// batches fill by themselves — 64 one-row callers fill batches of about 50
// rows on two cores with MinBatch 1. Requests larger than MaxBatch rows are
// split across runs of the worker that took them.
//
// Workers: each worker owns a copy of the network, so on a machine with
// more cores than the search needs, Workers > 1 runs batches in parallel.
type Batcher struct {
	cfg     BatcherConfig
	inL     int // InputLen
	actions int

	mu         sync.Mutex
	queue      []*batchReq // requests waiting for a worker
	queuedRows int
	params     *Params // the network; workers copy it when gen changes
	gen        int
	closed     bool
	waiting    int           // workers blocked on wake: Evaluate signals only when there is one
	calls      int64         // Evaluate calls, counted under mu (which Evaluate takes anyway)
	rows       int64         // rows asked for, counted under mu
	wake       chan struct{} // capacity 1: "the queue changed"
	quit       chan struct{} // closed by Close
	exited     sync.WaitGroup
	pool       sync.Pool

	cache lockedCache

	batches, netRows, hits atomic.Int64
}

// batchWorker is one worker goroutine's state.
type batchWorker struct {
	b      *Batcher
	infer  *Infer
	gen    int
	work   []*batchReq
	timer  *time.Timer
	obs    []float32   // MaxBatch × InputLen gathered rows
	mask   []float32   // MaxBatch × Actions
	priors [][]float32 // MaxBatch rows: the callers' own priors rows, written in place
	values []float32   // MaxBatch
	slots  []batchSlot
}

// batchReq is one Evaluate call in flight. Callers fill it; a worker
// answers it and signals done once, when its last row is written.
type batchReq struct {
	obs, mask, priors, values []float32
	keys                      []posKey // cache keys per row, when the cache is on
	n                         int
	left                      int // rows not answered yet (its worker only)
	done                      chan struct{}
}

// batchSlot records where a gathered row goes back to.
type batchSlot struct {
	req *batchReq
	row int
	key posKey
}

// NewBatcher starts a batcher (and its worker goroutines) for a snapshot of
// p. It panics if cfg is invalid: validate configs read from files first.
// Call Close to stop the workers.
func NewBatcher(p *Params, cfg BatcherConfig) *Batcher {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	c := p.Config
	b := &Batcher{
		cfg:     cfg,
		inL:     c.InputLen,
		actions: c.Actions,
		params:  p.Clone(),
		wake:    make(chan struct{}, 1),
		quit:    make(chan struct{}),
	}
	b.pool.New = func() any { return &batchReq{done: make(chan struct{}, 1)} }
	if cfg.CacheSize > 0 {
		b.cache.c = newPosCache(cfg.CacheSize, c.Actions)
	}
	for i := 0; i < max(1, cfg.Workers); i++ {
		w := &batchWorker{
			b:      b,
			infer:  NewInfer(b.params, cfg.MaxBatch),
			timer:  time.NewTimer(time.Hour),
			obs:    make([]float32, cfg.MaxBatch*c.InputLen),
			mask:   make([]float32, cfg.MaxBatch*c.Actions),
			priors: make([][]float32, cfg.MaxBatch),
			values: make([]float32, cfg.MaxBatch),
			slots:  make([]batchSlot, cfg.MaxBatch),
		}
		w.timer.Stop()
		b.exited.Add(1)
		go w.loop()
	}
	return b
}

// Evaluate answers n = len(values) rows: obs holds n×InputLen features,
// mask n×Actions legal flags; priors (n×Actions) and values (n) receive the
// network's masked policy and value, as Infer.Run writes them. It blocks
// until its rows are done and returns ErrClosed after Close. It panics if a
// slice has the wrong length. The Batcher does not keep the slices.
func (b *Batcher) Evaluate(obs, mask, priors, values []float32) error {
	n := len(values)
	if len(obs) != n*b.inL || len(mask) != n*b.actions || len(priors) != n*b.actions {
		panic(fmt.Sprintf("net: Batcher.Evaluate: %d rows need obs %d, mask and priors %d; got %d, %d, %d",
			n, n*b.inL, n*b.actions, len(obs), len(mask), len(priors)))
	}
	if n == 0 {
		return nil
	}
	r := b.pool.Get().(*batchReq)
	r.obs, r.mask, r.priors, r.values, r.n, r.left = obs, mask, priors, values, n, n
	if b.cfg.CacheSize > 0 {
		r.keys = hashRows(r.keys[:0], obs, mask, n)
	}
	b.mu.Lock()
	b.calls++
	b.rows += int64(n)
	if b.closed {
		b.mu.Unlock()
		b.release(r)
		return ErrClosed
	}
	b.queue = append(b.queue, r)
	b.queuedRows += n
	// A worker that is not waiting looks at the queue before it waits
	// (under mu), so only a waiting one needs the signal.
	wake := b.waiting > 0
	b.mu.Unlock()
	if wake {
		b.signal()
	}
	<-r.done
	b.release(r)
	return nil
}

func (b *Batcher) release(r *batchReq) {
	r.obs, r.mask, r.priors, r.values = nil, nil, nil, nil
	b.pool.Put(r)
}

func (b *Batcher) signal() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// SetParams replaces the network by a snapshot of p, which must have the
// same InputLen and Actions. Evaluate calls that start after SetParams
// returns see the new network; calls already queued may see either. The
// cache is emptied.
func (b *Batcher) SetParams(p *Params) {
	if p.Config.InputLen != b.inL || p.Config.Actions != b.actions {
		panic(fmt.Sprintf("net: Batcher.SetParams: input_len %d, actions %d; batcher has %d, %d",
			p.Config.InputLen, p.Config.Actions, b.inL, b.actions))
	}
	q := p.Clone()
	b.mu.Lock()
	b.params, b.gen = q, b.gen+1
	b.cache.lock()
	b.cache.clear()
	b.cache.unlock()
	b.mu.Unlock()
}

// Close stops the workers after they have answered every queued request.
// Later Evaluate calls return ErrClosed. Close may be called more than once.
func (b *Batcher) Close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.quit)
	}
	b.mu.Unlock()
	b.exited.Wait()
}

// Stats returns the counters so far.
func (b *Batcher) Stats() BatcherStats {
	b.mu.Lock()
	calls, rows := b.calls, b.rows
	b.mu.Unlock()
	s := BatcherStats{
		Calls:     calls,
		Rows:      rows,
		Batches:   b.batches.Load(),
		NetRows:   b.netRows.Load(),
		CacheHits: b.hits.Load(),
	}
	if s.Batches > 0 {
		s.MeanBatch = float64(s.NetRows) / float64(s.Batches)
	}
	return s
}

// Config returns the batcher's configuration.
func (b *Batcher) Config() BatcherConfig { return b.cfg }

func (w *batchWorker) loop() {
	defer w.b.exited.Done()
	for w.take() {
		w.process()
	}
}

// sleep waits for a change of the queue or for Close, with b.mu released
// (held on entry and exit), counted in b.waiting.
func (w *batchWorker) sleep() {
	b := w.b
	b.waiting++
	b.mu.Unlock()
	select {
	case <-b.wake:
	case <-b.quit:
	}
	b.mu.Lock()
	b.waiting--
}

// take waits for requests and moves them, up to MaxBatch rows, to w.work.
// It reports false when the batcher is closed and nothing is left to do.
func (w *batchWorker) take() bool {
	b := w.b
	b.mu.Lock()
	for len(b.queue) == 0 && !b.closed {
		w.sleep()
	}
	if len(b.queue) == 0 {
		b.mu.Unlock()
		return false
	}
	if b.queuedRows < b.cfg.MaxBatch {
		// Let callers that were just answered, and are runnable, queue
		// their next rows before the batch is cut.
		b.mu.Unlock()
		runtime.Gosched()
		b.mu.Lock()
	}
	if b.queuedRows < b.cfg.MinBatch && b.cfg.MaxWait > 0 && !b.closed {
		w.waitForRows()
	}
	w.cut()
	if w.gen != b.gen {
		w.infer, w.gen = NewInfer(b.params, b.cfg.MaxBatch), b.gen
	}
	b.mu.Unlock()
	return true
}

// cut moves queued requests, whole, into w.work until they hold MaxBatch
// rows; the rest stay queued for another worker, which it wakes.
func (w *batchWorker) cut() {
	b := w.b
	rows, k := 0, 0
	for k < len(b.queue) && rows < b.cfg.MaxBatch {
		rows += b.queue[k].n
		k++
	}
	w.work = append(w.work[:0], b.queue[:k]...)
	rest := copy(b.queue, b.queue[k:])
	clear(b.queue[rest:])
	b.queue = b.queue[:rest]
	b.queuedRows -= rows
	if rest > 0 {
		b.signal()
	}
}

// waitForRows waits, with b.mu held on entry and exit, until MinBatch rows
// are queued, MaxWait has passed, or the batcher is closed.
func (w *batchWorker) waitForRows() {
	b := w.b
	w.timer.Reset(b.cfg.MaxWait)
	defer w.timer.Stop()
	for b.queuedRows < b.cfg.MinBatch && !b.closed {
		b.waiting++
		b.mu.Unlock()
		timeout := false
		select {
		case <-b.wake:
		case <-b.quit:
		case <-w.timer.C:
			timeout = true
		}
		b.mu.Lock()
		b.waiting--
		if timeout {
			return
		}
	}
}

// process answers every request in w.work: rows found in the cache at once,
// the others through the network, MaxBatch rows at a time. It must not
// touch a request after signalling it: its caller may already reuse it.
//
// With the cache on, the cache lock is held while the rows are gathered
// (released around each network run), not taken per row; a request whose
// rows all hit is answered after the lock is released.
func (w *batchWorker) process() {
	b := w.b
	if len(w.work) == 1 && !b.cache.on() && w.work[0].n <= b.cfg.MaxBatch {
		// One request that fits: the network reads its rows and writes
		// its answers in place, with no gathering copy (a caller that
		// batches for itself, as self-play's steppers do).
		r := w.work[0]
		w.work[0] = nil
		w.infer.Run(r.obs, r.mask, r.priors, r.values)
		b.batches.Add(1)
		b.netRows.Add(int64(r.n))
		w.answeredN(r, r.n)
		return
	}
	b.cache.lock()
	filled := 0
	for i, r := range w.work {
		w.work[i] = nil
		n, hits := r.n, 0
		for row := 0; row < n; row++ {
			var key posKey
			if b.cache.on() {
				key = r.keys[row]
				if b.cache.get(key, r.priors[row*b.actions:(row+1)*b.actions], r.values[row:row+1]) {
					hits++
					continue
				}
			}
			copy(w.obs[filled*b.inL:(filled+1)*b.inL], r.obs[row*b.inL:(row+1)*b.inL])
			copy(w.mask[filled*b.actions:(filled+1)*b.actions], r.mask[row*b.actions:(row+1)*b.actions])
			w.priors[filled] = r.priors[row*b.actions : (row+1)*b.actions : (row+1)*b.actions]
			w.slots[filled] = batchSlot{req: r, row: row, key: key}
			if filled++; filled == b.cfg.MaxBatch {
				b.cache.unlock()
				w.run(filled)
				filled = 0
				b.cache.lock()
			}
		}
		if hits > 0 {
			// r's other rows, if any, are in this batch or answered
			// already: r.left counts them, so r is signalled once.
			b.hits.Add(int64(hits))
			b.cache.unlock()
			w.answeredN(r, hits)
			b.cache.lock()
		}
	}
	b.cache.unlock()
	if filled > 0 {
		w.run(filled)
	}
}

// run evaluates the first n gathered rows, their priors straight into
// their callers' slices, and hands them back.
func (w *batchWorker) run(n int) {
	b := w.b
	a := b.actions
	w.infer.runRows(w.obs[:n*b.inL], w.mask[:n*a], w.priors[:n], w.values[:n])
	b.batches.Add(1)
	b.netRows.Add(int64(n))
	if b.cache.on() {
		b.cache.lock()
		for s := 0; s < n; s++ {
			b.cache.put(w.slots[s].key, w.priors[s], w.values[s])
		}
		b.cache.unlock()
	}
	for s := 0; s < n; s++ {
		sl := w.slots[s]
		w.slots[s], w.priors[s] = batchSlot{}, nil
		sl.req.values[sl.row] = w.values[s]
		w.answered(sl.req)
	}
}

// answered counts one row of r as written, and wakes r's caller after the
// last.
func (w *batchWorker) answered(r *batchReq) { w.answeredN(r, 1) }

// answeredN counts k rows of r as written, and wakes r's caller after the
// last.
func (w *batchWorker) answeredN(r *batchReq, k int) {
	if r.left -= k; r.left == 0 {
		r.done <- struct{}{}
	}
}
