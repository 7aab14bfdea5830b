package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kumalak/arena"
)

// TestArenaJudgeBySolver judges a mangala-kale match by the solver alone
// (--judge-extra without --judge): the report says what judged, the
// tallies hold judged moves, the JSON is written.
func TestArenaJudgeBySolver(t *testing.T) {
	out := t.TempDir()
	code, stdout, errs := kumalak(t, "arena", "--game", "mangala-kale", "--a", "ab:depth=2", "--b", "greedy", "--games", "2",
		"--parallel", "1", "--quiet", "--judge-extra", "12", "--judge-time", "50ms", "--out", out)
	if code != 0 {
		t.Fatalf("arena: exit %d\n%s\n%s", code, stdout, errs)
	}
	if !strings.Contains(stdout, "judge    solver, positions of up to 12 stones, 50ms each\n") ||
		!regexp.MustCompile(`(?m)^  ab:depth=2 +\d+ +\d+ +[1-9]\d* +\d+ `).MatchString(stdout) {
		t.Fatalf("arena output:\n%s", stdout)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*-judge.json"))
	if len(files) != 1 {
		t.Fatalf("judge files %v", files)
	}
	b, _ := os.ReadFile(files[0])
	var rep arena.JudgeReport
	if err := json.Unmarshal(b, &rep); err != nil || rep.Tablebase != "" || rep.Extra != 12 || rep.Time != "50ms" || len(rep.Players) != 2 {
		t.Fatalf("judge JSON %s: %v", b, err)
	}
}

// TestAnalyzeJudgeBySolver judges a kalah endgame by the solver alone:
// the 11-stone position is above the reach, the two after it are judged.
func TestAnalyzeJudgeBySolver(t *testing.T) {
	code, out, errs := kumalak(t, "analyze", "--game", "kalah", "--agent", "ab:depth=2", "--judge-extra", "10", "--judge-time", "50ms",
		"--position", "1,0,2,0,1,3/0,1,1,0,2,0 36 1 - - w", "6", "1", "5")
	if code != 0 {
		t.Fatalf("analyze: exit %d\n%s\n%s", code, out, errs)
	}
	for _, re := range []string{
		`(?m)^judge    solver, positions of up to 10 stones, 50ms each$`,
		`(?m)^  white +2 +0 +1 +1 +100\.0% +8\.00 `,
		`(?m)^  black +1 +0 +1 +1 +100\.0% +6\.00 `,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Fatalf("no %s in analyze output:\n%s", re, out)
		}
	}
}

// TestJudgeFlagErrors: the solver does not play togyz, and the tablebases
// are classic mangala's: each error names its flag.
func TestJudgeFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"arena", "--game", "togyz", "--a", "random", "--games", "2", "--judge-extra", "12", "--out", ""}, []string{"--judge-extra: ", "not togyz"}},
		{[]string{"analyze", "--game", "togyz", "--agent", "random", "--judge-extra", "12", "1"}, []string{"--judge-extra: ", "not togyz"}},
		{[]string{"arena", "--game", "mangala-kale", "--a", "random", "--games", "2", "--judge", t.TempDir(), "--out", ""}, []string{"--judge: ", "mangala-kale has no tablebases"}},
		{[]string{"arena", "--game", "kalah", "--a", "random", "--games", "2", "--judge-extra", "12", "--judge-time", "0s", "--out", ""}, []string{"--judge-time 0s: ", "with --judge-extra"}},
	} {
		code, _, errs := kumalak(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want[0]) || !strings.Contains(errs, c.want[1]) {
			t.Errorf("%v: exit %d, %s; want %q", c.args, code, errs, c.want)
		}
	}
}

// TestJudgeKalahTablebase builds a small Kalah tablebase and judges with
// it (the solver reads it): analyze judges the endgame's moves inside it,
// arena reports the tablebase and judged moves, and --judge-time 0s,
// which leaves the solver no time, is refused.
func TestJudgeKalahTablebase(t *testing.T) {
	tb := filepath.Join(t.TempDir(), "kalah")
	if code, out, errs := kumalak(t, "tablebase", "build", "--game", "kalah", "--stones", "10", "--out", tb, "--quiet"); code != 0 {
		t.Fatalf("tablebase build: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs := kumalak(t, "analyze", "--game", "kalah", "--agent", "ab:depth=2", "--judge", tb,
		"--position", "1,0,2,0,1,3/0,1,1,0,2,0 36 1 - - w", "6", "1", "5")
	if code != 0 {
		t.Fatalf("analyze: exit %d\n%s\n%s", code, out, errs)
	}
	for _, re := range []string{
		`(?m)^judge    tablebase \S+ \(10 stones\)$`,
		`(?m)^  white +2 +0 +1 +1 +100\.0% +8\.00 `,
		`(?m)^  black +1 +0 +1 +1 +100\.0% +6\.00 `,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Fatalf("no %s in analyze output:\n%s", re, out)
		}
	}
	code, out, errs = kumalak(t, "arena", "--game", "kalah", "--a", "ab:depth=2", "--b", "greedy", "--games", "2",
		"--parallel", "1", "--quiet", "--judge", tb, "--out", "")
	if code != 0 || !strings.Contains(out, "judge    tablebase "+tb+" (10 stones)\n") ||
		!regexp.MustCompile(`(?m)^  (ab:depth=2|greedy) +\d+ +\d+ +[1-9]\d* +\d+ `).MatchString(out) {
		t.Fatalf("arena: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := kumalak(t, "arena", "--game", "kalah", "--a", "random", "--games", "2", "--judge", tb, "--judge-time", "0s", "--out", ""); code != 2 || !strings.Contains(errs, "Limit") {
		t.Errorf("--judge-time 0s with a kalah tablebase: exit %d, %s", code, errs)
	}
}
