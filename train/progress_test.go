package train

import (
	"strings"
	"testing"
	"time"

	"kumalak/selfplay"
)

// TestNetFigures pins how an iteration's network figures come from the
// batcher's counts, the process's CPU time and self-play's wall time.
func TestNetFigures(t *testing.T) {
	cases := []struct {
		name    string
		r       netReading
		elapsed time.Duration
		want    SelfPlayMetrics
	}{
		{"busy", netReading{rows: 3000, batches: 100, cpu: 3 * time.Second}, 1500 * time.Millisecond,
			SelfPlayMetrics{NetRowsPerSec: 2000, NetRowsPerCPU: 1000, CPUPerSec: 2, BatchFill: 30}},
		{"idle", netReading{rows: 3000, batches: 100, idle: 1e9}, 1500 * time.Millisecond,
			SelfPlayMetrics{NetRowsPerSec: 2000, BatchFill: 30, IdleShare: 1}},
		{"no cpu time known", netReading{rows: 10, batches: 4}, time.Second,
			SelfPlayMetrics{NetRowsPerSec: 10, BatchFill: 2.5}},
		{"nothing run", netReading{}, 0, SelfPlayMetrics{}},
		{"no wall time", netReading{rows: 5, batches: 5, cpu: time.Second}, 0, SelfPlayMetrics{BatchFill: 1}},
	}
	for _, c := range cases {
		got := selfPlayMetrics(selfplay.Stats{Elapsed: c.elapsed}, c.r)
		if got.NetRowsPerSec != c.want.NetRowsPerSec || got.NetRowsPerCPU != c.want.NetRowsPerCPU ||
			got.CPUPerSec != c.want.CPUPerSec || got.BatchFill != c.want.BatchFill || got.IdleShare != c.want.IdleShare {
			t.Errorf("%s: rows/s %g, rows/cpu-s %g, cpu/s %g, batch %g, idle %g; want %g, %g, %g, %g, %g", c.name,
				got.NetRowsPerSec, got.NetRowsPerCPU, got.CPUPerSec, got.BatchFill, got.IdleShare,
				c.want.NetRowsPerSec, c.want.NetRowsPerCPU, c.want.CPUPerSec, c.want.BatchFill, c.want.IdleShare)
		}
	}
	line := selfPlayRate(selfplay.Progress{Games: 3, Positions: 900, Elapsed: time.Second}, netReading{rows: 800, batches: 20})
	if want := "3.0 games/s 900 sims/s 800 rows/s batch 40.0"; line != want {
		t.Errorf("progress figures %q, want %q", line, want)
	}
	sum := Metrics{SelfPlay: SelfPlayMetrics{NetRowsPerSec: 1234, BatchFill: 7.5}}.Summary()
	if !strings.Contains(sum, "1234 rows/s") || !strings.Contains(sum, "batch 7.5") {
		t.Errorf("summary %q lacks the network rows or the batch size", sum)
	}
}

// TestEvery: ticks come until stop, and none after it returns.
func TestEvery(t *testing.T) {
	ticks := make(chan struct{}, 100)
	var after bool
	stopped := false
	stop := Every(time.Millisecond, func() {
		if stopped {
			after = true
		}
		select {
		case ticks <- struct{}{}:
		default:
		}
	})
	<-ticks
	<-ticks // two ticks: it keeps ticking
	stop()
	stopped = true
	for len(ticks) > 0 {
		<-ticks
	}
	if after {
		t.Error("a tick ran after stop returned")
	}
}
