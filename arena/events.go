package arena

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"kumalak/env"
)

// LogsConfig says where an event's logs go: on with the JSON lines of an
// earlier event (Resume, ResumeLogs), else a new pair in Dir
// (CreateLogs), else none.
type LogsConfig struct {
	Dir, Resume string
	Event       string // "arena" or "tournament"
	Spec        *env.Spec
	Now         time.Time // names a new pair
}

// ErrResumeLog is wrapped by OpenLogs's error when the log to resume
// cannot be: a missing file, not a .jsonl log, a line that is no game.
var ErrResumeLog = errors.New("cannot resume the log")

// OpenLogs opens the logs cfg asks for (nil with none) and returns the
// games a resumed log holds; it says on w that it resumed them, and when
// the log's last line, cut short, was dropped.
func OpenLogs(w io.Writer, cfg LogsConfig) (*LogFiles, []Record, error) {
	if cfg.Resume != "" {
		logs, done, torn, err := ResumeLogs(cfg.Resume, cfg.Event, cfg.Spec)
		if err != nil {
			return nil, nil, resumeLogError{err}
		}
		note := ""
		if torn {
			note = " (its last line, cut short, dropped)"
		}
		fmt.Fprintf(w, "resumed  %d games of %s%s\n", len(done), cfg.Resume, note)
		return logs, done, nil
	}
	if cfg.Dir == "" {
		return nil, nil, nil
	}
	logs, err := CreateLogs(cfg.Dir, cfg.Event, cfg.Spec, cfg.Now)
	return logs, nil, err
}

// resumeLogError is ResumeLogs's error, which says what it is, that
// wraps ErrResumeLog.
type resumeLogError struct{ err error }

func (e resumeLogError) Error() string   { return e.err.Error() }
func (e resumeLogError) Unwrap() []error { return []error{e.err, ErrResumeLog} }

// Finish names the logs on w and closes them; runErr, the event's own
// error, wins over the close's. A nil f has nothing to finish.
func (f *LogFiles) Finish(w io.Writer, runErr error) error {
	if f == nil {
		return runErr
	}
	fmt.Fprintf(w, "records  %s\ngames    %s\n", f.JSONPath(), f.TextPath())
	if err := f.Close(); err != nil && runErr == nil {
		return err
	}
	return runErr
}

// ProgressBar returns a progress bar of an event's total games on w,
// hidden when quiet: show moves it with the event's Progress reports (a
// match's or tournament's Progress), finish ends it.
func ProgressBar(w io.Writer, total int, quiet bool) (show func(Progress), finish func()) {
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetVisibility(!quiet),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	show = func(p Progress) {
		// The count first: Describe draws the bar at once, Set only
		// past the throttle (a resumed match's first report would show 0).
		_ = bar.Set(p.Done)
		bar.Describe(p.String())
	}
	return show, func() { _ = bar.Finish() }
}
