package arena

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/renameio/v2"

	"kumalak/env"
)

// LogFiles are the two logs of a match or tournament in a folder: a line of
// JSON a game (.jsonl) and a record file (.kgn, docs/RECORDS.md), written
// through Logs, the Records writer to give the match.
type LogFiles struct {
	Logs       *Logs
	json, text *os.File
}

// CreateLogs creates the logs of an event ("arena", "tournament") of spec's
// game in dir, named after the event, the game and the time now:
// EVENT-GAME-20060102-150405.jsonl and .kgn. The records' Event tag is
// "kumalak EVENT", their Date now's.
func CreateLogs(dir, event string, spec *env.Spec, now time.Time) (*LogFiles, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("arena: logs: %w", err)
	}
	base := filepath.Join(dir, fmt.Sprintf("%s-%s-%s", event, spec.Name, now.Format("20060102-150405")))
	js, err := os.Create(base + ".jsonl")
	if err != nil {
		return nil, fmt.Errorf("arena: logs: %w", err)
	}
	text, err := os.Create(base + ".kgn")
	if err != nil {
		js.Close()
		return nil, fmt.Errorf("arena: logs: %w", err)
	}
	return &LogFiles{Logs: newLogs(js, text, spec, event, now), json: js, text: text}, nil
}

// newLogs returns the Logs of an event of spec's game begun on day.
func newLogs(js, text io.Writer, spec *env.Spec, event string, day time.Time) *Logs {
	return &Logs{JSON: js, Text: text, Spec: spec, Event: "kumalak " + event, Site: "kumalak", Date: day.Format("2006.01.02")}
}

// ResumeLogs opens the logs of an earlier event of spec's game to go on
// writing to them: jsonPath's JSON lines (ReadLog; a torn last line is
// dropped and reported by torn) and the record file beside it (.kgn).
// Both are first rewritten from the records read, atomically, so that a
// write cut short by a kill never stays in them; the record file's Date
// tag is the day in the log's name (CreateLogs's), else the JSON file's.
func ResumeLogs(jsonPath, event string, spec *env.Spec) (*LogFiles, []Record, bool, error) {
	fail := func(err error) (*LogFiles, []Record, bool, error) {
		return nil, nil, false, fmt.Errorf("arena: resume %s: %w", jsonPath, err)
	}
	if !strings.HasSuffix(jsonPath, ".jsonl") {
		return fail(errors.New("want the .jsonl log of a match"))
	}
	f, err := os.Open(jsonPath)
	if err != nil {
		return fail(err)
	}
	recs, torn, err := ReadLog(f)
	info, serr := f.Stat()
	f.Close()
	if le, ok := errors.AsType[*LogError](err); ok {
		return nil, nil, false, fmt.Errorf("arena: resume %s: line %d is not a game's record: %w", jsonPath, le.Line, le.Err)
	}
	if err = errors.Join(err, serr); err != nil {
		return fail(err)
	}
	base := strings.TrimSuffix(jsonPath, ".jsonl")
	day := info.ModTime()
	if i := strings.LastIndexByte(base, '-'); i > 9 {
		if t, err := time.Parse("20060102-150405", base[i-8:]); err == nil {
			day = t
		}
	}
	var js, text bytes.Buffer
	l := newLogs(&js, &text, spec, event, day)
	for i := range recs {
		if err := l.LogGame(&recs[i]); err != nil {
			return fail(err)
		}
	}
	for _, w := range []struct {
		path string
		b    []byte
	}{{jsonPath, js.Bytes()}, {base + ".kgn", text.Bytes()}} {
		if err := renameio.WriteFile(w.path, w.b, 0o644); err != nil {
			return fail(err)
		}
	}
	jf, err := os.OpenFile(jsonPath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fail(err)
	}
	tf, err := os.OpenFile(base+".kgn", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		jf.Close()
		return fail(err)
	}
	l.JSON, l.Text = jf, tf
	return &LogFiles{Logs: l, json: jf, text: tf}, recs, torn, nil
}

// JSONPath is the JSON lines' path.
func (f *LogFiles) JSONPath() string { return f.json.Name() }

// TextPath is the record file's path.
func (f *LogFiles) TextPath() string { return f.text.Name() }

// JudgePath is the path of the judge's report beside the logs
// (EVENT-GAME-TIME-judge.json).
func (f *LogFiles) JudgePath() string {
	return strings.TrimSuffix(f.JSONPath(), ".jsonl") + "-judge.json"
}

// Close closes both files.
func (f *LogFiles) Close() error {
	if err := errors.Join(f.json.Close(), f.text.Close()); err != nil {
		return fmt.Errorf("arena: logs: %w", err)
	}
	return nil
}
