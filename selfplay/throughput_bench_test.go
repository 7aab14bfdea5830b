//go:build linux

package selfplay_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"kumalak/env/togyz"
	"kumalak/mcts"
	"kumalak/net"
	"kumalak/selfplay"
)

// BenchmarkThroughput plays togyz self-play with the default config's
// network (128 wide, 2 blocks, random weights) and search (PUCT, 200/40
// simulations, a quarter of moves full) behind net.Batcher, for several
// sizings of the games (how many at once, leaves per network call within
// one game: mcts.Config.Batch, the goroutines that step them:
// selfplay.Config.Steppers, -1 for one goroutine a game) and of the
// batcher side by side, and measures a
// steady-state window of each (no start-up, no tail of a run). Two cases
// repeat configs/togyz.yaml's with the MCTS-solver (off=solver) or
// resignation (off=resign) turned off, to show what each costs. Per case:
//
//   - rows/s: network rows the batcher ran per second of wall time;
//   - fill: their mean batch size;
//   - rows/cpu-s: the same rows per second of the process's CPU time, which
//     a busy machine disturbs far less than wall time;
//   - kernel-rows/cpu-s: one thread running the network alone at batch
//     round(fill), per second of that thread's CPU time;
//   - net-share: rows/cpu-s ÷ kernel-rows/cpu-s, the share of self-play's
//     CPU time that the network's own work accounts for (1 = nothing else);
//   - idle: the share of the Go scheduler's processor time with nothing to
//     run (the runtime's estimate; a busy machine does not count as idle);
//   - capacity: rows/s ÷ (GOMAXPROCS × kernel-rows/cpu-s), the share of
//     the cores' inference capacity self-play uses (on a quiet machine;
//     other work on the machine lowers it).
//
// Run it alone, on the cores to be measured:
//
//	go test ./selfplay/ -run '^$' -bench Throughput -benchtime 1x
//
// -throughput.model FILE plays with a trained togyz network instead of
// random weights (the width cases then all use it): a sharper policy
// searches deeper trees, which costs the tree side more per row.
func BenchmarkThroughput(b *testing.B) {
	workers := min(runtime.GOMAXPROCS(0), 8)
	seen := map[string]bool{}
	for _, c := range []struct {
		width, games, leaves, maxBatch, minBatch, workers int
		off                                               string // "", "solver" or "resign": what the case turns off
		steppers                                          int    // selfplay.Config.Steppers: -1 = one goroutine a game
	}{
		{128, 48, 1, 128, 1, workers, "", 0},
		{128, 96, 1, 128, 1, workers, "", 0}, // configs/togyz.yaml
		{128, 96, 1, 128, 1, workers, "solver", 0},
		{128, 96, 1, 128, 1, workers, "resign", 0},
		{128, 96, 1, 128, 1, workers, "", -1}, // one goroutine a game
		{128, 96, 1, 128, 24, workers, "", -1},
		{128, 96, 1, 128, 1, 1, "", -1},
		{128, 96, 1, 128, 1, 1, "", 1},
		{128, 96, 1, 128, 1, 1, "solver", 1},
		{128, 96, 1, 128, 1, 1, "resign", 1},
		{128, 192, 1, 256, 1, workers, "", 0},
		{128, 24, 4, 128, 1, workers, "", 0},
		{128, 48, 2, 128, 1, 1, "", 1},
		{128, 24, 4, 128, 1, 1, "", 1},
		{192, 96, 1, 128, 1, workers, "", 0},
		{256, 96, 1, 128, 1, workers, "", 0},
		{384, 96, 1, 128, 1, workers, "", 0},
	} {
		name := fmt.Sprintf("width=%d/games=%d/leaves=%d/max=%d/min=%d/workers=%d", c.width, c.games, c.leaves, c.maxBatch, c.minBatch, c.workers)
		off := c.off
		if off == "" {
			off = "none"
		}
		name += fmt.Sprintf("/steppers=%d/off=%s", c.steppers, off)
		if seen[name] { // with one core, a workers case repeats a one-worker one
			continue
		}
		seen[name] = true
		b.Run(name, func(b *testing.B) {
			bc := net.DefaultBatcherConfig()
			bc.MaxBatch, bc.MinBatch, bc.Workers = c.maxBatch, c.minBatch, c.workers
			cfg := selfplay.DefaultConfig()
			cfg.Games, cfg.Steppers = c.games, c.steppers
			cfg.Search.Kind, cfg.Search.Batch = mcts.PUCT, c.leaves
			cfg.FullSims, cfg.CheapSims, cfg.FullFraction = 200, 40, 0.25
			switch c.off {
			case "solver":
				cfg.Search.Solver, cfg.Search.ProofTargets = false, false
			case "resign":
				cfg.ResignThreshold = 0
			}
			for b.Loop() {
				benchThroughput(b, c.width, cfg, bc, 4*time.Second)
			}
		})
	}
}

var throughputModel = flag.String("throughput.model", "", "BenchmarkThroughput: a trained togyz .kmodel to play with instead of random weights")

// benchThroughput runs one pool until it is warm, then measures a window.
func benchThroughput(b *testing.B, width int, cfg selfplay.Config, bc net.BatcherConfig, window time.Duration) {
	params := randomTogyzNet(width)
	if *throughputModel != "" {
		m, err := net.LoadFor(*throughputModel, togyz.Spec.Name, togyz.Spec.ObsVersion)
		if err != nil {
			b.Fatal(err)
		}
		params = m.Params
	}
	bat := net.NewBatcher(params, bc)
	defer bat.Close()
	pool, err := selfplay.NewPool(togyz.Spec, bat, cfg)
	if err != nil {
		b.Fatal(err)
	}
	var s0, s1 net.BatcherStats
	var c0, c1 time.Duration
	var i0, i1 float64
	var t0, t1 time.Time
	runPool(b, pool, window, func() { s0, c0, i0, t0 = bat.Stats(), cpuTime(b), schedIdle(), time.Now() },
		func() { s1, c1, i1, t1 = bat.Stats(), cpuTime(b), schedIdle(), time.Now() })
	rows := float64(s1.NetRows - s0.NetRows)
	fill := rows / float64(max(1, s1.Batches-s0.Batches))
	wall, cpu := t1.Sub(t0).Seconds(), (c1 - c0).Seconds()
	kernel := kernelRate(b, params, max(1, int(fill+0.5)))
	procs := float64(runtime.GOMAXPROCS(0))
	b.ReportMetric(rows/wall, "rows/s")
	b.ReportMetric(fill, "fill")
	b.ReportMetric(rows/cpu, "rows/cpu-s")
	b.ReportMetric(kernel, "kernel-rows/cpu-s")
	b.ReportMetric(rows/cpu/kernel, "net-share")
	b.ReportMetric((i1-i0)/(wall*procs), "idle")
	b.ReportMetric(rows/wall/(procs*kernel), "capacity")
}

// runPool runs pool's games without end, takes the first readings by
// before once its trees have filled (a quarter of window) and the second
// by after window later, then stops the games.
func runPool(b *testing.B, pool *selfplay.Pool, window time.Duration, before, after func()) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := pool.Run(ctx, 1<<30, 1, nil)
		done <- err
	}()
	time.Sleep(window / 4) // trees fill, every game under way
	before()
	time.Sleep(window)
	after()
	cancel()
	if err := <-done; err != nil && err != context.Canceled {
		b.Fatal(err)
	}
}

// randomTogyzNet is the default network's shape at width, with the random
// weights every self-play benchmark plays with (seeded the same).
func randomTogyzNet(width int) *net.Params {
	nc := net.DefaultConfig(togyz.Spec.ObsLen, togyz.Spec.NumActions)
	nc.Width, nc.Blocks, nc.ValueHidden = width, 2, 64
	params := net.NewParams(nc)
	params.Init(rand.New(rand.NewPCG(1, 2)))
	return params
}

// kernelRate runs the network alone on one locked thread at batch n for
// about 0.3 s of that thread's CPU time, and returns rows per CPU-second.
func kernelRate(b *testing.B, p *net.Params, n int) float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c := p.Config
	f := net.NewInfer(p, n)
	rng := rand.New(rand.NewPCG(3, 4))
	obs, mask := make([]float32, n*c.InputLen), make([]float32, n*c.Actions)
	for i := range obs {
		obs[i] = rng.Float32()
	}
	for i := range mask {
		mask[i] = 1
	}
	priors, values := make([]float32, n*c.Actions), make([]float32, n)
	rows, t0 := 0, threadTime(b)
	for threadTime(b)-t0 < 300*time.Millisecond {
		for range 64 {
			f.Run(obs, mask, priors, values)
		}
		rows += 64 * n
	}
	return float64(rows) / (threadTime(b) - t0).Seconds()
}

// threadTime returns the calling thread's user and system CPU time.
func threadTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil { // 1: RUSAGE_THREAD
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// schedIdle returns the Go runtime's estimate of processor time spent with
// nothing to run, in seconds.
func schedIdle() float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/idle:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64()
}

// BenchmarkSearchSide measures self-play without a network: togyz games
// with the default search and budgets (200/40 simulations, a quarter
// full, the solver and resignation on) evaluated by mcts.Uniform, 96 at a
// time, so that what it times is the tree walk, expansion, backup, rules,
// observation and sample recording a network row costs beside the
// network. Per case: leaf rows per second of the process's CPU time, and
// per op (one op is 96 games).
//
//	go test ./selfplay/ -run '^$' -bench SearchSide -benchmem -benchtime 2x -cpu 1
func BenchmarkSearchSide(b *testing.B) {
	for _, steppers := range []int{-1, 1} {
		b.Run(fmt.Sprintf("steppers=%d", steppers), func(b *testing.B) {
			cfg := selfplay.DefaultConfig()
			cfg.Games, cfg.Steppers = 96, steppers
			ev := &countRows{}
			pool, err := selfplay.NewPool(togyz.Spec, ev, cfg)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			c0 := cpuTime(b)
			for b.Loop() {
				if _, err := pool.Run(context.Background(), 96, 1, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(ev.rows.Load())/(cpuTime(b)-c0).Seconds(), "rows/cpu-s")
		})
	}
}

// countRows is mcts.Uniform counting its rows.
type countRows struct{ rows atomic.Int64 }

func (e *countRows) Evaluate(obs, mask, priors, values []float32) error {
	e.rows.Add(int64(len(values)))
	return mcts.Uniform{}.Evaluate(obs, mask, priors, values)
}

// BenchmarkIterations plays self-play as a training run does, in
// iterations: configs/togyz.yaml's 96 games at once, Run for 192 games and
// again, four times, so that each iteration's tail (its last games
// playing out with fewer and fewer games left) counts, as it does in
// `make run`. Per case: rows/s over the four iterations' wall time,
// rows/cpu-s, and cpu/s (CPU seconds per wall second: what the cores did
// not idle). Compare -cpu 1 and -cpu 2 for the two-core speed-up:
//
//	go test ./selfplay/ -run '^$' -bench Iterations -benchtime 1x -cpu 1,2
func BenchmarkIterations(b *testing.B) {
	params := randomTogyzNet(128)
	bc := net.DefaultBatcherConfig()
	bc.MaxBatch, bc.MinBatch, bc.Workers = 128, 1, runtime.GOMAXPROCS(0)
	bat := net.NewBatcher(params, bc)
	defer bat.Close()
	cfg := selfplay.DefaultConfig()
	cfg.Games = 96
	cfg.Search.Kind, cfg.Search.Batch = mcts.PUCT, 1
	cfg.FullSims, cfg.CheapSims, cfg.FullFraction = 200, 40, 0.25
	pool, err := selfplay.NewPool(togyz.Spec, bat, cfg)
	if err != nil {
		b.Fatal(err)
	}
	seed := uint64(1)
	for b.Loop() {
		s0, c0, t0 := bat.Stats(), cpuTime(b), time.Now()
		for range 4 {
			if _, err := pool.Run(context.Background(), 192, seed, nil); err != nil {
				b.Fatal(err)
			}
			seed++
		}
		s1, c1, wall := bat.Stats(), cpuTime(b), time.Since(t0).Seconds()
		rows, cpu := float64(s1.NetRows-s0.NetRows), (c1 - c0).Seconds()
		b.ReportMetric(rows/wall, "rows/s")
		b.ReportMetric(rows/cpu, "rows/cpu-s")
		b.ReportMetric(cpu/wall, "cpu/s")
	}
}
