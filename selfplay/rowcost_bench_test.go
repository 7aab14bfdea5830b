//go:build linux

package selfplay_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"kumalak/env/togyz"
	"kumalak/mcts"
	"kumalak/net"
	"kumalak/selfplay"
)

// BenchmarkRowCost plays togyz self-play as the C measuring stick's
// `selfplay 96 4` does, in one thread: the default network (128 wide, 2
// blocks, random weights) and search (PUCT, 200/40 simulations, a quarter
// of moves full), 96 games on one stepper, the network run on the
// stepper's own goroutine (net.Infer, no batcher), and times the network
// inside self-play by the thread's CPU clock around each batch. It reports,
// over a 4-second window after a 1-second warm-up, the C program's figures:
//
//   - rows/cpu-s: network rows per second of the process's CPU time;
//   - net-us/row: the network's CPU per row, inside self-play;
//   - outside-us/row: everything else per row (tree walk, expansion,
//     backup, rules, observation, samples, moves);
//   - sims/row: simulations per network row (exact leaves need none).
//
// The cases turn the MCTS-solver, resignation or both off (off=...), to
// show what each costs beside the C program, which has neither (nor
// training samples: their cost is worker.sample's share of a profile).
//
//	go test ./selfplay/ -run '^$' -bench RowCost -benchtime 1x -cpu 1
func BenchmarkRowCost(b *testing.B) {
	for _, off := range []string{"none", "solver", "resign", "both"} {
		b.Run("off="+off, func(b *testing.B) {
			cfg := selfplay.DefaultConfig()
			cfg.Games, cfg.Steppers = 96, 1
			cfg.Search.Kind, cfg.Search.Batch = mcts.PUCT, 1
			cfg.FullSims, cfg.CheapSims, cfg.FullFraction = 200, 40, 0.25
			if off == "solver" || off == "both" {
				cfg.Search.Solver, cfg.Search.ProofTargets = false, false
			}
			if off == "resign" || off == "both" {
				cfg.ResignThreshold = 0
			}
			for b.Loop() {
				benchRowCost(b, cfg, 4*time.Second)
			}
		})
	}
}

func benchRowCost(b *testing.B, cfg selfplay.Config, window time.Duration) {
	params := randomTogyzNet(128)
	ev := &timedNet{f: net.NewInfer(params, cfg.Games*cfg.Search.Batch)}
	pool, err := selfplay.NewPool(togyz.Spec, ev, cfg)
	if err != nil {
		b.Fatal(err)
	}
	var r0, n0, s0, r1, n1, s1 int64
	var c0, c1 time.Duration
	runPool(b, pool, window, func() { r0, n0, s0, c0 = ev.rows.Load(), ev.nanos.Load(), pool.Progress().Positions, cpuTime(b) },
		func() { r1, n1, s1, c1 = ev.rows.Load(), ev.nanos.Load(), pool.Progress().Positions, cpuTime(b) })
	rows, cpu, netCPU := float64(r1-r0), (c1 - c0).Seconds(), float64(n1-n0)/1e9
	b.ReportMetric(rows/cpu, "rows/cpu-s")
	b.ReportMetric(1e6*netCPU/rows, "net-us/row")
	b.ReportMetric(1e6*(cpu-netCPU)/rows, "outside-us/row")
	b.ReportMetric(float64(s1-s0)/rows, "sims/row")
}

// timedNet runs a network on the caller's goroutine and counts its rows
// and the CPU time of the calling thread spent in it.
type timedNet struct {
	f           *net.Infer
	rows, nanos atomic.Int64
	t0, t1      unix.Timespec
}

func (t *timedNet) Evaluate(obs, mask, priors, values []float32) error {
	runtime.LockOSThread() // both clock readings on one thread
	defer runtime.UnlockOSThread()
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &t.t0)
	t.f.Run(obs, mask, priors, values)
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &t.t1)
	t.nanos.Add(t.t1.Nano() - t.t0.Nano())
	t.rows.Add(int64(len(values)))
	return nil
}
