package train

import (
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"time"

	"github.com/schollz/progressbar/v3"

	"kumalak/net"
	"kumalak/selfplay"
)

// NewBar returns a progress bar on w for n steps of the named job (the
// run's, and the matches of package export). It shows its time so far,
// not the library's guess of the time left: that guess is a rolling rate
// over the last few updates, which for games ending in bursts
// (self-play's, a round robin's) swings to hours; the run's own estimate
// (Run.left) goes in the description instead.
func NewBar(w io.Writer, n int, desc string) *progressbar.ProgressBar {
	return progressbar.NewOptions(n,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(24),
		progressbar.OptionThrottle(250*time.Millisecond),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionOnCompletion(func() { _, _ = io.WriteString(w, "\n") }),
	)
}

// desc is a progress bar's description of the run's job: the job, then
// the run's time so far and left (leftText) during an iteration.
func (r *Run) desc(job string) string {
	if r.iterStart.IsZero() {
		return job
	}
	return job + "  [" + r.leftText(r.iterStart) + "]"
}

// watch redescribes bar as job, rate() and the run's clock (desc) every
// half second until the returned stop function is called.
func (r *Run) watch(bar *progressbar.ProgressBar, job string, rate func() string) (stop func()) {
	return Every(500*time.Millisecond, func() { bar.Describe(r.desc(job + "  " + rate())) })
}

// Every calls tick every interval from a goroutine of its own, the ticker
// of the progress bars of training and of the worker, until the returned
// stop is called; stop returns once no tick runs or will.
func Every(interval time.Duration, tick func()) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				tick()
			}
		}
	}()
	return func() { close(done); <-finished }
}

// netMeter reads the self-play batcher's work since it was made: the
// network rows it ran (the batcher's count, cache hits and tree visits not
// included), its network runs, and the process's CPU time.
type netMeter struct {
	b     *net.Batcher
	s0    net.BatcherStats
	cpu0  time.Duration
	idle0 float64
}

func newNetMeter(b *net.Batcher) *netMeter {
	return &netMeter{b: b, s0: b.Stats(), cpu0: processCPU(), idle0: schedIdle()}
}

// netReading is a netMeter's reading.
type netReading struct {
	rows, batches int64
	cpu           time.Duration // process CPU time (every goroutine, self-play's and others')
	idle          float64       // seconds of Go processor time with nothing to run
}

func (m *netMeter) read() netReading {
	s := m.b.Stats()
	return netReading{rows: s.NetRows - m.s0.NetRows, batches: s.Batches - m.s0.Batches,
		cpu: processCPU() - m.cpu0, idle: schedIdle() - m.idle0}
}

// idleShare is the share of the Go scheduler's processor time (GOMAXPROCS
// processors over d) that had nothing to run: cores the process left idle,
// as opposed to cores other processes took.
func (r netReading) idleShare(d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return max(0, min(1, r.idle/(d.Seconds()*float64(runtime.GOMAXPROCS(0)))))
}

// schedIdle is the Go runtime's estimate of processor time spent with
// nothing to run so far, in seconds.
func schedIdle() float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/idle:cpu-seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return s[0].Value.Float64()
}

// meanBatch is the mean rows per network run (0 before the first).
func (r netReading) meanBatch() float64 {
	if r.batches == 0 {
		return 0
	}
	return float64(r.rows) / float64(r.batches)
}

// rowsPer returns the rows per second of d (0 when d is not positive).
func (r netReading) rowsPer(d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(r.rows) / d.Seconds()
}

// selfPlayRate is the self-play progress bar's live figures.
func selfPlayRate(p selfplay.Progress, r netReading) string {
	return fmt.Sprintf("%.1f games/s %.0f sims/s %.0f rows/s batch %.1f",
		p.GamesPerSec(), p.PositionsPerSec(), r.rowsPer(p.Elapsed), r.meanBatch())
}
