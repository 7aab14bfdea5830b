package train

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// newBar returns a progress bar on w for n steps of the named job.
func newBar(w io.Writer, n int, desc string) *progressbar.ProgressBar {
	return progressbar.NewOptions(n,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(24),
		progressbar.OptionThrottle(250*time.Millisecond),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionOnCompletion(func() { _, _ = io.WriteString(w, "\n") }),
	)
}

// watch redescribes bar with a prefix and rate() every half second until the
// returned stop function is called.
func (r *Run) watch(bar *progressbar.ProgressBar, rate func() string) (stop func()) {
	desc := bar.State().Description
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				bar.Describe(desc + "  " + rate())
			}
		}
	}()
	return func() { close(done); <-finished }
}
