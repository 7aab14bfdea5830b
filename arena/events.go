package arena

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"kumalak/env"
	"kumalak/solve"
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

// Event is how a command plays a match or a tournament: its games logged
// as Logs says, a progress bar on Bar (nil: none), the report on Out.
type Event struct {
	Logs LogsConfig
	Out  io.Writer
	Bar  io.Writer
}

// open opens e's logs (OpenLogs) for spec's game.
func (e Event) open(spec *env.Spec) (*LogFiles, []Record, error) {
	cfg := e.Logs
	cfg.Spec = spec
	return OpenLogs(e.Out, cfg)
}

// bar returns the progress bar of total games (ProgressBar).
func (e Event) bar(total int) (show func(Progress), finish func()) {
	if e.Bar == nil {
		return ProgressBar(io.Discard, total, true)
	}
	return ProgressBar(e.Bar, total, false)
}

// PlayMatch plays m: its games logged (a resumed log's games counted,
// not played again), judged by j when not nil; then it reports the
// result (WriteResult), the judge's report (written beside the logs too,
// LogFiles.WriteJudge) and the logs' names (LogFiles.Finish). An error
// opening the logs wraps ErrResumeLog for a log that cannot be resumed;
// a game of the resumed log that is not of m is a *ResumeError.
func (e Event) PlayMatch(ctx context.Context, m *Match, j *solve.Judge) (Result, error) {
	logs, done, err := e.open(m.Spec)
	if err != nil {
		return Result{}, err
	}
	m.Done = done
	if logs != nil {
		m.Records = logs.Logs
	}
	var jl *JudgeLog
	if j != nil {
		jl = NewJudgeLog(m.Records, m.Spec, j, m.A, m.B)
		m.Records = jl
	}
	show, finish := e.bar(m.Config.Games)
	m.Progress = show
	res, runErr := m.Run(ctx)
	finish()
	m.WriteResult(e.Out, res)
	if jl != nil {
		rep := jl.Report()
		rep.WriteText(e.Out)
		if logs != nil {
			if err := logs.WriteJudge(rep); err != nil && runErr == nil {
				runErr = err
			}
			fmt.Fprintf(e.Out, "judged   %s\n", logs.JudgePath())
		}
	}
	return res, logs.Finish(e.Out, runErr)
}

// PlayTournament plays t as PlayMatch plays a match, and reports its
// table (WriteTable) once every match is played.
func (e Event) PlayTournament(ctx context.Context, t *Tournament) (TournamentResult, error) {
	logs, done, err := e.open(t.Spec)
	if err != nil {
		return TournamentResult{}, err
	}
	if logs != nil {
		t.Records = logs.Logs
	}
	t.Done = done
	show, finish := e.bar(t.Config.Games * t.Pairings())
	t.Progress = show
	res, runErr := t.Run(ctx)
	finish()
	if runErr == nil {
		t.WriteTable(e.Out, res)
	}
	return res, logs.Finish(e.Out, runErr)
}
