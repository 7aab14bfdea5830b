package arena

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

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
	l := &Logs{JSON: js, Text: text, Spec: spec, Event: "kumalak " + event, Site: "kumalak", Date: now.Format("2006.01.02")}
	return &LogFiles{Logs: l, json: js, text: text}, nil
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
