package solve

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// BuildReported runs Build with what a person watches: a progress bar
// of the configurations still to compute on bar (none when bar is nil or
// every level is built), a line per level (LevelStat.String) and, once
// built, a closing line with the levels, their bytes and the time taken
// on out. cfg's Progress and Done are its own.
func BuildReported(ctx context.Context, cfg BuildConfig, out, bar io.Writer) error {
	pending, err := Pending(cfg)
	if err != nil {
		return err
	}
	var pb *progressbar.ProgressBar
	if bar != nil && pending > 0 {
		pb = newBuildBar(bar, int64(pending))
		cfg.Progress = func(n int64) { _ = pb.Add64(n) }
	}
	var bytes int64
	cfg.Done = func(st LevelStat) {
		bytes += st.Bytes
		if pb != nil {
			_ = pb.Clear()
		}
		fmt.Fprintln(out, st)
	}
	t0 := time.Now()
	_, err = Build(ctx, cfg)
	if pb != nil {
		_ = pb.Exit()
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "tablebase %s: levels 0..%d, %d bytes, %.1fs\n", cfg.Dir, cfg.Stones, bytes, time.Since(t0).Seconds())
	return nil
}

// BuildBar draws a progress bar of n configurations on w: add counts
// configurations done, done ends the bar (CacheBar's form).
func BuildBar(w io.Writer, n int64) (add func(int64), done func()) {
	pb := newBuildBar(w, n)
	return func(k int64) { _ = pb.Add64(k) }, func() { _ = pb.Exit() }
}

// newBuildBar returns a progress bar over n configurations.
func newBuildBar(w io.Writer, n int64) *progressbar.ProgressBar {
	return progressbar.NewOptions64(n,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("positions"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("pos"),
		progressbar.OptionSetWidth(24),
		progressbar.OptionThrottle(250*time.Millisecond),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionOnCompletion(func() { _, _ = io.WriteString(w, "\n") }),
	)
}
