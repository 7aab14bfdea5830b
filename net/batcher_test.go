package net

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"kumalak/net/nettest"
)

// btEvaluator is the mcts Evaluator contract, restated here because net
// must not import mcts.
type btEvaluator interface {
	Evaluate(obs, mask, priors, values []float32) error
}

var _ btEvaluator = (*Batcher)(nil)

// btWant evaluates rows directly, one Infer run per row.
func btWant(p *Params, obs, mask []float32) (priors, values []float32) {
	c := p.Config
	n := len(mask) / c.Actions
	f := NewInfer(p, 1)
	priors, values = make([]float32, n*c.Actions), make([]float32, n)
	for r := 0; r < n; r++ {
		f.Run(obs[r*c.InputLen:(r+1)*c.InputLen], mask[r*c.Actions:(r+1)*c.Actions],
			priors[r*c.Actions:(r+1)*c.Actions], values[r:r+1])
	}
	return priors, values
}

func btSame(priors, values, wantP, wantV []float32) error {
	for i := range wantV {
		if values[i] != wantV[i] {
			return fmt.Errorf("row %d: value %v, want %v", i, values[i], wantV[i])
		}
	}
	for i := range wantP {
		if priors[i] != wantP[i] {
			return fmt.Errorf("prior %d: %v, want %v", i, priors[i], wantP[i])
		}
	}
	return nil
}

func TestBatcherConcurrent(t *testing.T) {
	c := DefaultConfig(21, 9)
	p := infTestParams(c, 9)
	const pool = 300
	obs, mask := nettest.Inputs(c.InputLen, c.Actions, pool, rand.New(rand.NewPCG(9, 9)))
	wantP, wantV := btWant(p, obs, mask)
	for _, cfg := range []BatcherConfig{
		{MaxBatch: 8, MinBatch: 1},
		{MaxBatch: 16, MinBatch: 12, MaxWait: 200 * time.Microsecond, CacheSize: 64},
		{MaxBatch: 8, MinBatch: 1, Workers: 2},
		{MaxBatch: 4, MinBatch: 2, MaxWait: 100 * time.Microsecond, CacheSize: 32, Workers: 3},
	} {
		t.Run(fmt.Sprintf("%+v", cfg), func(t *testing.T) {
			b := NewBatcher(p, cfg)
			defer b.Close()
			const callers, calls = 24, 40
			errs := make(chan error, callers)
			var wg sync.WaitGroup
			for g := 0; g < callers; g++ {
				wg.Add(1)
				go func(g int) {
					defer wg.Done()
					errs <- btCaller(b, c, rand.New(rand.NewPCG(uint64(g), 3)), calls, obs, mask, wantP, wantV)
				}(g)
			}
			// Swapping in equal parameters mid-run must change no answer.
			stop := make(chan struct{})
			swapped := make(chan struct{})
			go func() {
				defer close(swapped)
				for {
					select {
					case <-stop:
						return
					case <-time.After(200 * time.Microsecond):
						b.SetParams(p)
					}
				}
			}()
			wg.Wait()
			close(stop)
			<-swapped
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			s := b.Stats()
			if s.Calls != callers*calls || s.NetRows+s.CacheHits != s.Rows || s.Batches == 0 ||
				s.MeanBatch > float64(cfg.MaxBatch) {
				t.Errorf("stats %+v", s)
			}
			if cfg.CacheSize > 0 && s.CacheHits == 0 {
				t.Errorf("no cache hits: %+v", s)
			}
		})
	}
}

// btCaller makes calls of 1 to 20 consecutive rows (some larger than
// MaxBatch) and checks each answer against the direct evaluation.
func btCaller(b *Batcher, c Config, rng *rand.Rand, calls int, obs, mask, wantP, wantV []float32) error {
	pool := len(wantV)
	priors := make([]float32, 20*c.Actions)
	values := make([]float32, 20)
	for i := 0; i < calls; i++ {
		n := 1 + rng.IntN(20)
		r := rng.IntN(pool - n)
		pr, v := priors[:n*c.Actions], values[:n]
		err := b.Evaluate(obs[r*c.InputLen:(r+n)*c.InputLen], mask[r*c.Actions:(r+n)*c.Actions], pr, v)
		if err != nil {
			return err
		}
		if err := btSame(pr, v, wantP[r*c.Actions:(r+n)*c.Actions], wantV[r:r+n]); err != nil {
			return fmt.Errorf("call of rows %d..%d: %w", r, r+n, err)
		}
	}
	return nil
}

func TestBatcherCache(t *testing.T) {
	c := DefaultConfig(13, 5)
	p, q := infTestParams(c, 1), infTestParams(c, 2)
	obs, mask := nettest.Inputs(c.InputLen, c.Actions, 40, rand.New(rand.NewPCG(4, 4)))
	wantP, wantV := btWant(p, obs, mask)
	qP, qV := btWant(q, obs, mask)
	// A one-entry cache: every row collides, so keys must be checked.
	for _, size := range []int{1, 7, 1000} {
		b := NewBatcher(p, BatcherConfig{MaxBatch: 4, MinBatch: 1, CacheSize: size})
		priors, values := make([]float32, len(wantP)), make([]float32, len(wantV))
		for pass := 0; pass < 3; pass++ {
			if err := b.Evaluate(obs, mask, priors, values); err != nil {
				t.Fatal(err)
			}
			if err := btSame(priors, values, wantP, wantV); err != nil {
				t.Fatalf("cache %d pass %d: %v", size, pass, err)
			}
		}
		// 40 rows, 2 repeat passes: 80 hits but for a few slot collisions.
		if hits := b.Stats().CacheHits; size == 1000 && (hits < 70 || hits > 80) {
			t.Errorf("cache %d: %d hits, want 70..80", size, hits)
		}
		// The same position with another mask is another entry.
		m2 := append([]float32(nil), mask[:c.Actions]...)
		m2[0], m2[1] = 1-m2[0], 1
		p2 := make([]float32, c.Actions)
		if err := b.Evaluate(obs[:c.InputLen], m2, p2, values[:1]); err != nil {
			t.Fatal(err)
		}
		w2, _ := btWant(p, obs[:c.InputLen], m2)
		if err := btSame(p2, nil, w2, nil); err != nil {
			t.Fatalf("cache %d, changed mask: %v", size, err)
		}
		b.SetParams(q)
		if err := b.Evaluate(obs, mask, priors, values); err != nil {
			t.Fatal(err)
		}
		if err := btSame(priors, values, qP, qV); err != nil {
			t.Fatalf("cache %d after SetParams: %v", size, err)
		}
		b.Close()
	}
}

func TestBatcherSetParams(t *testing.T) {
	c := DefaultConfig(10, 4)
	p, q := infTestParams(c, 5), infTestParams(c, 6)
	obs, mask := nettest.Inputs(c.InputLen, c.Actions, 1, rand.New(rand.NewPCG(1, 1)))
	_, pv := btWant(p, obs, mask)
	_, qv := btWant(q, obs, mask)
	b := NewBatcher(p, DefaultBatcherConfig())
	defer b.Close()
	priors, values := make([]float32, c.Actions), make([]float32, 1)
	for i := 0; i < 20; i++ {
		want, use := pv[0], p
		if i%2 == 1 {
			want, use = qv[0], q
		}
		b.SetParams(use)
		if err := b.Evaluate(obs, mask, priors, values); err != nil {
			t.Fatal(err)
		}
		if values[0] != want {
			t.Fatalf("swap %d: value %v, want %v", i, values[0], want)
		}
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "SetParams") {
				t.Errorf("SetParams with other sizes: recovered %v", r)
			}
		}()
		b.SetParams(NewParams(DefaultConfig(11, 4)))
	}()
}

func TestBatcherClose(t *testing.T) {
	c := DefaultConfig(6, 3)
	p := infTestParams(c, 1)
	b := NewBatcher(p, BatcherConfig{MaxBatch: 2, MinBatch: 2, MaxWait: time.Second})
	obs, mask := nettest.Inputs(c.InputLen, c.Actions, 1, rand.New(rand.NewPCG(1, 1)))
	done := make(chan error)
	go func() { done <- b.Evaluate(obs, mask, make([]float32, c.Actions), make([]float32, 1)) }()
	for !b.hasQueued() && b.Stats().NetRows == 0 { // the call waits for a second row (at most MaxWait)
		time.Sleep(time.Millisecond)
	}
	b.Close() // answers the queued call at once
	if err := <-done; err != nil {
		t.Fatalf("call queued before Close: %v", err)
	}
	b.Close()
	err := b.Evaluate(obs, mask, make([]float32, c.Actions), make([]float32, 1))
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("Evaluate after Close: %v, want ErrClosed", err)
	}
	if err := b.Evaluate(nil, nil, nil, nil); err != nil {
		t.Fatalf("empty Evaluate: %v", err)
	}
}

// hasQueued reports whether a request is queued. Stats().Calls is no sign
// of it: Evaluate counts a call before it queues it, so a Close in between
// answers the call with ErrClosed.
func (b *Batcher) hasQueued() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.queue) > 0
}

func TestBatcherMaxWait(t *testing.T) {
	c := DefaultConfig(6, 3)
	b := NewBatcher(infTestParams(c, 1), BatcherConfig{MaxBatch: 64, MinBatch: 64, MaxWait: 20 * time.Millisecond})
	defer b.Close()
	obs, mask := nettest.Inputs(c.InputLen, c.Actions, 1, rand.New(rand.NewPCG(1, 1)))
	start := time.Now()
	if err := b.Evaluate(obs, mask, make([]float32, c.Actions), make([]float32, 1)); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 15*time.Millisecond {
		t.Errorf("a lone row returned after %v; MinBatch 64 should hold it for MaxWait (20ms)", d)
	}
}

func TestBatcherAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	c := DefaultConfig(101, 9)
	p := infTestParams(c, 1)
	obs, mask := nettest.Inputs(c.InputLen, c.Actions, 8, rand.New(rand.NewPCG(1, 1)))
	priors, values := make([]float32, 8*c.Actions), make([]float32, 8)
	for _, size := range []int{0, 1024} {
		b := NewBatcher(p, BatcherConfig{MaxBatch: 16, MinBatch: 1, CacheSize: size})
		a := testing.AllocsPerRun(200, func() {
			if err := b.Evaluate(obs, mask, priors, values); err != nil {
				t.Fatal(err)
			}
		})
		b.Close()
		if a != 0 {
			t.Errorf("cache %d: %v allocs per Evaluate, want 0", size, a)
		}
	}
}

func TestBatcherConfigValidate(t *testing.T) {
	if err := DefaultBatcherConfig().Validate(); err != nil {
		t.Fatal(err)
	}
	bad := map[string]BatcherConfig{
		"max_batch":  {MaxBatch: 0, MinBatch: 1},
		"min_batch":  {MaxBatch: 4, MinBatch: 5},
		"max_wait":   {MaxBatch: 4, MinBatch: 1, MaxWait: -1},
		"cache_size": {MaxBatch: 4, MinBatch: 1, CacheSize: -1},
	}
	for field, cfg := range bad {
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%+v: error %v, want one naming %s", cfg, err, field)
		}
	}
}

// TestBatcherWholeRequest: a lone request of up to MaxBatch rows, which
// the network reads and answers in place, gets the same answers as rows
// run one by one, and so does one larger than MaxBatch, which is split.
func TestBatcherWholeRequest(t *testing.T) {
	c := DefaultConfig(21, 9)
	p := infTestParams(c, 9)
	obs, mask := nettest.Inputs(c.InputLen, c.Actions, 40, rand.New(rand.NewPCG(4, 4)))
	wantP, wantV := btWant(p, obs, mask)
	b := NewBatcher(p, BatcherConfig{MaxBatch: 16, MinBatch: 1})
	defer b.Close()
	for _, n := range []int{1, 7, 16, 40} {
		priors, values := make([]float32, n*c.Actions), make([]float32, n)
		if err := b.Evaluate(obs[:n*c.InputLen], mask[:n*c.Actions], priors, values); err != nil {
			t.Fatal(err)
		}
		if err := btSame(priors, values, wantP[:n*c.Actions], wantV[:n]); err != nil {
			t.Fatalf("%d rows: %v", n, err)
		}
	}
	if st := b.Stats(); st.NetRows != 64 || st.Batches != 6 {
		t.Errorf("stats %+v, want 64 rows in 6 runs", st)
	}
}
