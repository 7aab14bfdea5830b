package arena

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kumalak/env"
)

// TestCreateLogs: the logs are named after the event, the game and the
// time, take games through Logs, and the judge's report goes beside them.
func TestCreateLogs(t *testing.T) {
	spec, _ := env.Lookup("mangala")
	now := time.Date(2026, 12, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct{ event, base string }{
		{"arena", "arena-mangala-20261202-030405"},
		{"tournament", "tournament-mangala-20261202-030405"},
	}
	for _, c := range cases {
		dir := filepath.Join(t.TempDir(), "runs", "arena")
		f, err := CreateLogs(dir, c.event, spec, now)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Join(dir, c.base)
		if f.JSONPath() != base+".jsonl" || f.TextPath() != base+".kgn" || f.JudgePath() != base+"-judge.json" {
			t.Errorf("%s: paths %s %s %s, want %s.*", c.event, f.JSONPath(), f.TextPath(), f.JudgePath(), base)
		}
		r := &Record{Game: spec.Name, White: "a", Black: "b", Start: spec.New().String(), Moves: []int{4}, Result: "*"}
		if err := writeRecord(f.Logs, r); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		text, _ := os.ReadFile(f.TextPath())
		js, _ := os.ReadFile(f.JSONPath())
		if !strings.Contains(string(text), `[Event "kumalak `+c.event+`"]`) || !strings.Contains(string(text), `[Date "2026.12.02"]`) || strings.Count(string(js), "\n") != 1 {
			t.Errorf("%s: logs\n%s\n%s", c.event, text, js)
		}
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := CreateLogs(file, "arena", spec, now); err == nil || !strings.HasPrefix(err.Error(), "arena: logs: ") {
		t.Errorf("logs under a file: %v", err)
	}
}
