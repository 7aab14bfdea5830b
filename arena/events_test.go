package arena

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/env/envtest"
	"kumalak/solve"
	"kumalak/solve/solvetest"
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

// PlayMatch plays, logs and reports a match, judged when asked (the
// judge's report beside the logs); a resumed log's games are not played
// again, and a game of another event in it is a *ResumeError.
func TestEventPlayMatch(t *testing.T) {
	spec, err := env.Lookup("mangala")
	if err != nil {
		t.Fatal(err)
	}
	j, err := solve.NewJudge(solve.JudgeConfig{Tablebase: solvetest.Open(t)})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var out, bar bytes.Buffer
	e := Event{Logs: LogsConfig{Dir: dir, Event: "arena", Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}, Out: &out, Bar: &bar}
	cfg := DefaultConfig()
	cfg.Games, cfg.Parallel, cfg.MaxPlies = 2, 1, 200
	m := &Match{Spec: spec, A: "greedy", B: "random", Config: cfg}
	res, err := e.PlayMatch(context.Background(), m, j)
	if err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "arena-mangala-*.jsonl"))
	if res.Counts.Games() != 2 || len(logs) != 1 {
		t.Fatalf("%d games, logs %v", res.Counts.Games(), logs)
	}
	for _, w := range []string{"greedy vs random, mangala, 2 games\n", "judge    tablebase ", "judged   ", "records  " + logs[0] + "\n"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("no %q in\n%s", w, out.String())
		}
	}
	if _, err := os.Stat(strings.TrimSuffix(logs[0], ".jsonl") + "-judge.json"); err != nil {
		t.Errorf("the judge's report: %v", err)
	}
	out.Reset()
	e.Logs.Resume = logs[0]
	m = &Match{Spec: spec, A: "greedy", B: "random", Config: cfg}
	if res, err = e.PlayMatch(context.Background(), m, nil); err != nil || res.Counts.Games() != 2 || !strings.Contains(out.String(), "resumed  2 games of ") {
		t.Errorf("resumed: %d games, %v\n%s", res.Counts.Games(), err, out.String())
	}
	m = &Match{Spec: spec, A: "ab:depth=1", B: "random", Config: cfg}
	if _, err = e.PlayMatch(context.Background(), m, nil); !errors.As(err, new(*ResumeError)) {
		t.Errorf("another match's log: %v, want a *ResumeError", err)
	}
}

// PlayTournament plays every pairing and reports the table, quietly
// without a bar.
func TestEventPlayTournament(t *testing.T) {
	var out bytes.Buffer
	e := Event{Out: &out}
	cfg := DefaultConfig()
	cfg.Games, cfg.Parallel = 2, 1
	tour := &Tournament{Spec: envtest.Kalah3, Players: []string{"random", "greedy"}, Config: cfg, Prior: 1}
	res, err := e.PlayTournament(context.Background(), tour)
	if err != nil || len(res.Matches) != 1 || !strings.Contains(out.String(), "anchor random = 0") || strings.Contains(out.String(), "records") {
		t.Errorf("tournament: %v, %d matches\n%s", err, len(res.Matches), out.String())
	}
}
