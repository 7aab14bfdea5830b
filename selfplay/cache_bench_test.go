//go:build unix

package selfplay_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/env/mangala"
	"kumalak/env/togyz"
	"kumalak/mcts"
	"kumalak/net"
	"kumalak/selfplay"
)

// BenchmarkPosCache plays self-play with a real network (the configs'
// sizes, random weights) behind net.Batcher, with the batcher's position
// cache off and on, side by side, for both search kinds: the ratios tell
// whether the cache pays. Besides wall-clock rates it reports the
// process's CPU time per sample, which a busy machine disturbs less. Run it
// alone:
//
//	go test ./selfplay/ -run '^$' -bench PosCache -benchtime 3x
func BenchmarkPosCache(b *testing.B) {
	for _, spec := range []*env.Spec{togyz.Spec, mangala.Spec} {
		for _, kind := range []mcts.Kind{mcts.PUCT, mcts.Gumbel} {
			for _, cache := range []int{0, 1 << 16} {
				name := fmt.Sprintf("%s/%s/cache=%d", spec.Name, kind, cache)
				b.Run(name, func(b *testing.B) { benchSelfPlay(b, spec, kind, cache, false) })
			}
		}
	}
}

// BenchmarkBudgets compares self-play with budgets that add simulations to
// what tree reuse kept and honest ones that count it (HonestBudget), for
// both search kinds, by simulations and CPU time per recorded sample:
//
//	go test ./selfplay/ -run '^$' -bench Budgets -benchtime 3x
func BenchmarkBudgets(b *testing.B) {
	for _, kind := range []mcts.Kind{mcts.PUCT, mcts.Gumbel} {
		for _, honest := range []bool{false, true} {
			name := fmt.Sprintf("togyz/%s/honest=%v", kind, honest)
			b.Run(name, func(b *testing.B) { benchSelfPlay(b, togyz.Spec, kind, 0, honest) })
		}
	}
}

// benchSelfPlay plays rounds of 16 games with the configs' settings (PUCT:
// 200/40 simulations, a quarter of moves full; Gumbel: 32 at every move).
func benchSelfPlay(b *testing.B, spec *env.Spec, kind mcts.Kind, cache int, honest bool) {
	nc := net.DefaultConfig(spec.ObsLen, spec.NumActions)
	nc.Width, nc.Blocks, nc.ValueHidden = 128, 2, 64
	params := net.NewParams(nc)
	params.Init(rand.New(rand.NewPCG(1, 2)))
	bc := net.DefaultBatcherConfig()
	bc.MinBatch, bc.Workers, bc.CacheSize = 1, 2, cache
	bat := net.NewBatcher(params, bc)
	defer bat.Close()

	cfg := selfplay.DefaultConfig()
	cfg.Games = 16
	cfg.Search.Kind, cfg.HonestBudget = kind, honest
	cfg.Search.MaxNodes = 1 << 16
	cfg.FullSims, cfg.CheapSims, cfg.FullFraction = 200, 40, 0.25
	if kind == mcts.Gumbel {
		cfg.FullSims, cfg.CheapSims, cfg.FullFraction = 32, 32, 1
	}
	pool, err := selfplay.NewPool(spec, bat, cfg)
	if err != nil {
		b.Fatal(err)
	}
	var games, samples, positions, seconds float64
	cpu0 := cpuTime(b)
	for i := 0; b.Loop(); i++ {
		st, err := pool.Run(context.Background(), 16, uint64(i), nil)
		if err != nil {
			b.Fatal(err)
		}
		games += float64(st.Games)
		samples += float64(st.Samples)
		positions += float64(st.Positions)
		seconds += st.Elapsed.Seconds()
	}
	cpu := cpuTime(b) - cpu0
	bs := bat.Stats()
	b.ReportMetric(float64(cpu.Microseconds())/samples, "cpu-us/sample")
	b.ReportMetric(float64(cpu.Microseconds())/positions, "cpu-us/sim")
	b.ReportMetric(games/seconds, "games/s")
	b.ReportMetric(samples/seconds, "samples/s")
	b.ReportMetric(positions/seconds, "sims/s")
	b.ReportMetric(positions/samples, "sims/sample")
	if bs.Rows > 0 {
		b.ReportMetric(float64(bs.CacheHits)/float64(bs.Rows), "hit-rate")
	}
}

// cpuTime returns the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
