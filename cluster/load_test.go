package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/sys/unix"
)

// loadEnv reads a positive integer from the environment, or def.
func loadEnv(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return n
}

// threadCPU is the CPU time of the calling OS thread.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// TestLoad is the trainer's intake under many workers: simulated workers
// (goroutines, each with its own connection and credentials)
// publish valid batches at a steady pace — a few play with the initial
// network only, so that their batches turn stale as the trainer promotes,
// and a few send garbage — while one trainer takes, records and commits
// iterations with a cap and promotes a network every few iterations. At
// the end every message is accounted for once: confirmed valid batches =
// taken once + stale, garbage = rejected, with no batch taken twice; the
// heap stays bounded. The full run (BENCHMARKS.md):
//
//	KUMALAK_LOAD_WORKERS=1000 KUMALAK_LOAD_SECONDS=60 go test ./cluster -run TestLoad -v -timeout 10m
//
// By default 40 workers for 2 s.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("the intake under load: not with -short")
	}
	nw := loadEnv(t, "KUMALAK_LOAD_WORKERS", 40)
	dur := time.Duration(loadEnv(t, "KUMALAK_LOAD_SECONDS", 2)) * time.Second
	const (
		samples  = 64                     // per batch
		interval = 2 * time.Second        // between a worker's batches, jittered: 500 batches/s for 1,000 workers
		maxTake  = 32 * samples * 16      // per iteration
		promote  = 5                      // iterations between promotions
		every    = 100 * time.Millisecond // the trainer's pace: an iteration at most this often
	)
	pace := min(interval, time.Duration(nw)*5*time.Millisecond) // small runs: faster workers
	st := tinySettings(t, "load")
	ids := make([]string, nw)
	for i := range ids {
		ids[i] = fmt.Sprintf("lw%04d", i)
	}
	roster, creds := issueAll(t, st.Run, ids...)
	s := startServer(t, ServerConfig{Listen: "127.0.0.1:0", Roster: roster})
	tr := trainerDial(t, s.URL())
	ts := newTrainerSide(t, tr, st, HubConfig{AckWait: 30 * time.Second, MaxAge: 2, MaxTake: maxTake})
	var newest atomic.Int64

	ctx, stop := context.WithCancel(context.Background()) // ended dur after every worker is connected
	defer stop()
	var (
		wg                      sync.WaitGroup
		valid, garbage, pubErrs atomic.Int64
		confirmedMu             sync.Mutex
		confirmed               = map[string]bool{}
		connected               = make(chan struct{}, nw)
	)
	for i := range nw {
		opts := append(credsOpts(t, creds[ids[i]]), nats.MaxReconnects(-1), nats.Timeout(30*time.Second))
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := ids[i]
			var nc *nats.Conn
			err := errors.New("not tried")
			for try := 0; err != nil && try < 20; try++ { // a thousand at once: the accept queue overflows
				if nc, err = nats.Connect(s.URL(), opts...); err != nil {
					time.Sleep(Jitter(time.Second))
				}
			}
			if err != nil {
				t.Error(err)
				connected <- struct{}{}
				return
			}
			defer nc.Close()
			connected <- struct{}{}
			js, _ := jetstream.New(nc)
			lag, hostile := i%20 == 7, i%50 == 11
			for seq := 1; ; seq++ {
				select {
				case <-ctx.Done():
					return
				case <-time.After(Jitter(2 * pace)):
				}
				bid := fmt.Sprintf("%s.s.%d", id, seq)
				if hostile {
					m := &nats.Msg{Subject: Subject(st.Run, id), Data: []byte("not a batch " + bid), Header: nats.Header{}}
					if _, err := js.PublishMsg(context.Background(), m, jetstream.WithMsgID(bid)); err == nil {
						garbage.Add(1)
					} else {
						pubErrs.Add(1)
					}
					continue
				}
				v := int(newest.Load())
				if lag {
					v = 0
				}
				b := fakeBatch(st.Layout, st.Run, id, bid, v, samples)
				for {
					pctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					_, err := Publish(pctx, js, b)
					cancel()
					if err == nil {
						break
					}
					pubErrs.Add(1) // retried with the same id: stored once
				}
				valid.Add(1)
				confirmedMu.Lock()
				confirmed[bid] = true
				confirmedMu.Unlock()
			}
		}()
	}
	for range nw {
		<-connected
	}
	time.AfterFunc(dur, stop)

	var maxHeap atomic.Uint64
	memDone := make(chan struct{})
	go func() {
		defer close(memDone)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > maxHeap.Load() {
				maxHeap.Store(ms.HeapInuse)
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(500 * time.Millisecond):
			}
		}
	}()

	// The trainer, on a thread of its own so that its CPU time can be read.
	runtime.LockOSThread()
	cpu0, t0 := threadCPU(), time.Now()
	iterate := func() *Take {
		tk := ts.iterate(false)
		if ts.it%promote == 0 {
			v := ts.it / promote
			if err := ts.hub.Publish(testCtx(t), v, tinyModel(st.Layout, uint64(v))); err != nil {
				t.Fatal(err)
			}
			newest.Store(int64(v))
		}
		return tk
	}
	maxTaken := 0
	for ctx.Err() == nil {
		next := time.Now().Add(every)
		tk := iterate()
		maxTaken = max(maxTaken, tk.Samples())
		time.Sleep(time.Until(next))
	}
	wg.Wait()
	<-memDone
	// Drain what the workers left.
	for range 1000 {
		tk := iterate()
		maxTaken = max(maxTaken, tk.Samples())
		info, err := ts.hub.cons.Info(testCtx(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(tk.Batches)+int(tk.Stale+tk.Corrupt+tk.Foreign) == 0 && info.NumPending == 0 && info.NumAckPending == 0 {
			break
		}
	}
	cpu, wall := threadCPU()-cpu0, time.Since(t0)
	runtime.UnlockOSThread()

	c := ts.hub.Counters()
	taken := int64(len(ts.shards))
	for bid := range ts.shards {
		if !confirmed[bid] {
			t.Fatalf("batch %s taken, never confirmed to its worker", bid)
		}
	}
	t.Logf("%d workers for %s: published %d valid batches (%d samples) and %d garbage messages (%d publish retries); "+
		"taken once %d, stale %d, rejected %d, duplicates %d, resyncs %d; %d iterations, the largest took %d samples (cap %d); "+
		"trainer thread %.2f CPU-s over %.1f s: %.2f CPU-ms per 1,000 samples taken; heap at most %d MB",
		nw, dur, valid.Load(), valid.Load()*samples, garbage.Load(), pubErrs.Load(), taken, c.Stale, c.Corrupt+c.Foreign,
		c.Duplicates, c.Resyncs, ts.it, maxTaken, maxTake, cpu.Seconds(), wall.Seconds(),
		1000*cpu.Seconds()*1000/float64(max(1, c.Samples)), maxHeap.Load()>>20)
	if taken+c.Stale != valid.Load() || c.Corrupt+c.Foreign != garbage.Load() || c.Batches != taken {
		t.Fatalf("published %d valid + %d garbage; taken %d (hub %d) + stale %d, rejected %d", valid.Load(), garbage.Load(), taken, c.Batches, c.Stale, c.Corrupt+c.Foreign)
	}
	if maxTaken > maxTake {
		t.Fatalf("an iteration took %d samples, cap %d", maxTaken, maxTake)
	}
	if maxHeap.Load() > 2<<30 {
		t.Fatalf("heap reached %d MB", maxHeap.Load()>>20)
	}
}
