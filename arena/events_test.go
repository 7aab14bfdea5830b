package arena

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kumalak/env/envtest"
)

// A resumed match's first progress report draws the games it resumed, not 0.
func TestProgressShowsResumedGames(t *testing.T) {
	var b bytes.Buffer
	report, _ := ProgressBar(&b, 10, false)
	report(Progress{Done: 6, Total: 10, A: "x", B: "y"})
	if !strings.Contains(b.String(), "(6/10)") || strings.Contains(b.String(), "(0/10)") {
		t.Errorf("bar after a report of 6 of 10 games:\n%q", b.String())
	}
	var quiet bytes.Buffer
	report, finish := ProgressBar(&quiet, 10, true)
	report(Progress{Done: 6, Total: 10})
	finish()
	if quiet.Len() != 0 {
		t.Errorf("a quiet bar wrote %q", quiet.String())
	}
}

// OpenLogs: none without a folder, a new pair in one, an earlier log
// resumed (and said so), a log that cannot be resumed an ErrResumeLog;
// Finish names the logs and lets the event's error win.
func TestOpenLogs(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cfg := LogsConfig{Event: "arena", Spec: envtest.Kalah3, Now: now}
	var w bytes.Buffer
	logs, done, err := OpenLogs(&w, cfg)
	if logs != nil || done != nil || err != nil {
		t.Fatalf("no folder: %v %v %v", logs, done, err)
	}
	if err := logs.Finish(&w, nil); err != nil || w.Len() != 0 {
		t.Errorf("finishing no logs: %v, %q", err, w.String())
	}
	cfg.Dir = dir
	if logs, _, err = OpenLogs(&w, cfg); err != nil {
		t.Fatal(err)
	}
	runErr := errors.New("the match failed")
	if err := logs.Finish(&w, runErr); err != runErr || !strings.Contains(w.String(), "records  "+logs.JSONPath()+"\ngames    "+logs.TextPath()+"\n") {
		t.Errorf("finish: %v, %q", err, w.String())
	}
	if err := os.WriteFile(logs.JSONPath(), []byte(`{"cut`), 0o644); err != nil {
		t.Fatal(err)
	}
	w.Reset()
	resume := cfg
	resume.Resume = logs.JSONPath()
	logs, done, err = OpenLogs(&w, resume)
	if err != nil || len(done) != 0 || w.String() != "resumed  0 games of "+resume.Resume+" (its last line, cut short, dropped)\n" {
		t.Fatalf("resume: %v, %d games, %q", err, len(done), w.String())
	}
	logs.Close()
	for _, bad := range []string{filepath.Join(dir, "none.jsonl"), filepath.Join(dir, "x.kgn")} {
		resume.Resume = bad
		if _, _, err := OpenLogs(&w, resume); !errors.Is(err, ErrResumeLog) || !strings.HasPrefix(err.Error(), "arena: resume "+bad) {
			t.Errorf("resume %s: %v, want ErrResumeLog", bad, err)
		}
	}
}
