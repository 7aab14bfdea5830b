package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kumalak/arena"
	"kumalak/solve"
)

// tinyTablebase builds a 10-stone mangala tablebase for a test.
func tinyTablebase(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tb")
	if code, out, errs := kumalak(t, "tablebase", "build", "--stones", "10", "--out", dir, "--quiet"); code != 0 {
		t.Fatalf("build: exit %d\n%s\n%s", code, out, errs)
	}
	return dir
}

// TestArenaTBJudge plays the tb agent against greedy with --tablebase and
// --judge: the tb agent makes no mistake, the judge's JSON is written.
func TestArenaTBJudge(t *testing.T) {
	tb := tinyTablebase(t)
	out := t.TempDir()
	code, stdout, errs := kumalak(t, "arena", "--game", "mangala", "--a", "tb:time=20ms", "--b", "greedy", "--games", "2",
		"--parallel", "1", "--quiet", "--tablebase", tb, "--judge", tb, "--out", out)
	if code != 0 {
		t.Fatalf("arena: exit %d\n%s\n%s", code, stdout, errs)
	}
	if !regexp.MustCompile(`(?m)^  tb:dir=\S+ +\d+ +\d+ +\d+ +0 +0\.0%`).MatchString(stdout) || !strings.Contains(stdout, "judge    tablebase") {
		t.Fatalf("arena output:\n%s", stdout)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*-judge.json"))
	if len(files) != 1 {
		t.Fatalf("judge files %v", files)
	}
	b, _ := os.ReadFile(files[0])
	var rep arena.JudgeReport
	if err := json.Unmarshal(b, &rep); err != nil || len(rep.Players) != 2 || rep.Stones != 10 || rep.Players[0].Judged == 0 {
		t.Fatalf("judge JSON %s: %v", b, err)
	}
	code, _, errs = kumalak(t, "arena", "--game", "togyz", "--a", "random", "--games", "2", "--judge", tb, "--out", "")
	if code != 2 || !strings.Contains(errs, "not togyz") {
		t.Errorf("togyz --judge: exit %d, %s", code, errs)
	}
}

// TestAnalyzeTablebase analyses a short mangala endgame with --tablebase:
// exact values in the table and the judge's lines per player.
func TestAnalyzeTablebase(t *testing.T) {
	tb := tinyTablebase(t)
	pos := "0,2,0,1,3,0/1,0,2,0,0,1 20 18 - - w"
	code, out, errs := kumalak(t, "analyze", "--game", "mangala", "--agent", "tb", "--tablebase", tb, "--position", pos, "2")
	if code != 0 {
		t.Fatalf("analyze: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "judge    tablebase") || !regexp.MustCompile(`(?m)^  white +1 +0 +1 +1 +100\.0% +12\.00 +1 +100\.0%$`).MatchString(out) {
		t.Fatalf("analyze output:\n%s", out)
	}
	code, out, errs = kumalak(t, "analyze", "--game", "mangala", "--agent", "ab:depth=2", "--judge", tb, "--json", "--position", pos, "5")
	var v struct {
		Analyses []json.RawMessage   `json:"analyses"`
		Judge    []arena.JudgeReport `json:"judge"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || len(v.Judge) != 1 || v.Judge[0].Players[0].Mistakes != 0 {
		t.Fatalf("analyze --json: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestEngineTB: the engine with the tb agent plays the tablebase's best
// move and reports its exact value in stones.
// The newgame after go waits for the search to finish (a quit right after
// it could cancel the search before it starts on a loaded machine).
func TestEngineTB(t *testing.T) {
	tb := tinyTablebase(t)
	script := "kumalak\nnewgame mangala\nposition fen 0,2,0,1,3,0/1,0,2,0,0,1 20 18 - - w\ngo movetime 100\nnewgame mangala\nquit\n"
	code, out, errs := kumalakIn(t, script, "engine", "--game", "mangala", "--agent", "tb", "--tablebase", tb)
	if code != 0 || !strings.Contains(out, "bestmove 5") || !strings.Contains(out, "score 10") {
		t.Fatalf("engine: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestAutoTablebase: with no --tablebase, a mangala front end builds the
// default tablebase (auto; 8 stones in the tests, TestMain) once into the
// cache folder and gives it to the bot's search; off turns it off; togyz
// needs none and builds none.
func TestAutoTablebase(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(solve.EnvCache, cache)
	pos := "0,2,0,1,3,0/1,0,2,0,0,1 20 18 - - w"
	code, out, errs := kumalak(t, "analyze", "--game", "togyz", "--agent", "ab:depth=1", "1")
	if code != 0 {
		t.Fatalf("togyz analyze: exit %d\n%s\n%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(cache, "tablebase")); !os.IsNotExist(err) {
		t.Errorf("togyz built a tablebase: %v", err)
	}
	code, out, errs = kumalak(t, "analyze", "--game", "mangala", "--agent", "mcts:sims=20", "--json", "--position", pos, "2")
	if code != 0 || !strings.Contains(out, `"agent": "mcts:sims=20,tablebase=auto:8"`) {
		t.Fatalf("analyze: exit %d\n%s\n%s", code, out, errs)
	}
	levels, _ := filepath.Glob(filepath.Join(cache, "tablebase", solve.MangalaTB, "*.tb"))
	if len(levels) != 9 {
		t.Errorf("the cache holds %d levels, want 0..8: %v", len(levels), levels)
	}
	code, out, errs = kumalak(t, "analyze", "--game", "mangala", "--agent", "mcts:sims=20", "--json", "--tablebase", "off", "--position", pos, "2")
	if code != 0 || !strings.Contains(out, `"agent": "mcts:sims=20,tablebase=off"`) {
		t.Fatalf("analyze --tablebase off: exit %d\n%s\n%s", code, out, errs)
	}
}
