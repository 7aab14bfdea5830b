package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Header names set on every batch message besides Nats-Msg-Id; the body
// repeats them under its checksum, and only the body is trusted.
const (
	HeaderRun      = "Kumalak-Run"
	HeaderGame     = "Kumalak-Game"
	HeaderEncoding = "Kumalak-Encoding"
	HeaderNetwork  = "Kumalak-Network"
	HeaderWorker   = "Kumalak-Worker"
)

// Publish sends one batch on its run's subject with its id as Nats-Msg-Id,
// and waits for the stream's confirmation. dup reports that the stream
// already held a batch of that id (a re-send within DedupWindow), which it
// did not store again.
func Publish(ctx context.Context, js jetstream.JetStream, b *Batch) (dup bool, err error) {
	body, err := EncodeBatch(b)
	if err != nil {
		return false, err
	}
	msg := &nats.Msg{Subject: Subject(b.Run, b.Worker), Data: body, Header: nats.Header{}}
	msg.Header.Set(HeaderRun, b.Run)
	msg.Header.Set(HeaderGame, b.Layout.Game)
	msg.Header.Set(HeaderEncoding, b.Layout.ObsVersion)
	msg.Header.Set(HeaderNetwork, strconv.Itoa(b.Network))
	msg.Header.Set(HeaderWorker, b.Worker)
	ack, err := js.PublishMsg(ctx, msg, jetstream.WithMsgID(b.ID), jetstream.WithExpectStream(StreamName))
	if err != nil {
		return false, fmt.Errorf("cluster: publish batch %s: %w", b.ID, err)
	}
	return ack.Duplicate, nil
}

// publisher sends the worker's queued batches in order, retrying each
// until the stream confirms it (its message id makes a retry harmless).
type publisher struct {
	q    chan *Batch
	done chan struct{}
}

// startPublisher starts the goroutine that empties w.queue. It keeps
// trying until DrainTimeout after ctx ends, then counts what is left as lost.
func (w *Worker) startPublisher(ctx context.Context, st Settings) *publisher {
	p := &publisher{q: make(chan *Batch, 16), done: make(chan struct{})}
	w.queue = p.q
	drain, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(w.cfg.DrainTimeout, cancel) })
	go func() {
		defer close(p.done)
		defer cancel()
		defer stop()
		for b := range p.q {
			w.send(drain, b)
			w.queued.Add(-1)
		}
	}()
	return p
}

func (p *publisher) close() {
	close(p.q)
	<-p.done
}

// send publishes b, retrying with backoff until confirmed or ctx ends.
func (w *Worker) send(ctx context.Context, b *Batch) {
	for attempt := 1; ; attempt++ {
		pctx, cancel := context.WithTimeout(ctx, w.cfg.PublishTimeout)
		dup, err := Publish(pctx, w.js, b)
		cancel()
		if err == nil {
			w.batches.Add(1)
			w.published.Add(int64(len(b.Samples)))
			if dup {
				w.dups.Add(1)
			}
			return
		}
		if ctx.Err() != nil || errors.Is(err, nats.ErrConnectionClosed) { // a closed connection never comes back
			w.lost.Add(int64(len(b.Samples)))
			w.logf("worker: gave up batch %s (%d samples): %v", b.ID, len(b.Samples), err)
			return
		}
		if attempt == 1 || attempt%10 == 0 {
			w.logf("worker: %v; retrying", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(Jitter(Backoff(attempt))):
		}
	}
}

// startHeartbeat sends the worker's heartbeat every HeartbeatEvery until
// ctx ends, then one saying it detached. A heartbeat is a plain message
// (no stream, no reply): while the server is away it waits in the
// connection's buffer and never holds anything up.
func (w *Worker) startHeartbeat(ctx context.Context, run string) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(HeartbeatEvery)
		defer t.Stop()
		for {
			w.heartbeat(run, false)
			select {
			case <-ctx.Done():
				w.heartbeat(run, true)
				_ = w.nc.FlushTimeout(2 * time.Second) // best effort: a lost one expires after WorkerTTL
				return
			case <-t.C:
			}
		}
	}()
	return done
}

func (w *Worker) heartbeat(run string, detached bool) {
	p := w.Progress()
	p.Detached = detached
	b, err := json.Marshal(p)
	if err == nil {
		err = w.nc.Publish(HeartbeatSubject(run, w.cfg.ID), b)
	}
	if err != nil && !w.nc.IsClosed() {
		w.logf("worker: heartbeat: %v", err)
	}
}

func (w *Worker) logf(format string, args ...any) {
	if w.cfg.Log != nil {
		w.cfg.Log(fmt.Sprintf(format, args...))
	}
}
