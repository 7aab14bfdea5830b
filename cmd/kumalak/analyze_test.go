package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kumalak/env"
)

// blunders is a record file of three games, one of each kind, whose first
// move throws a win away.
const blunders = "testdata/blunders.kgn"

func TestAnalyzeMarksStagedBlunders(t *testing.T) {
	code, out, errs := kumalak(t, "analyze", "--agent", "ab:depth=10", blunders)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, game := range []string{"mangala:", "mangala-kale:", "togyz:"} {
		if !strings.Contains(out, game) {
			t.Errorf("no analysis of %s\n%s", game, out)
		}
	}
	if n := strings.Count(out, "blunder ??"); n != 3 {
		t.Errorf("%d blunders marked, want 3:\n%s", n, out)
	}
	code, out, errs = kumalak(t, "analyze", "--agent", "mcts:sims=2000", "--json", blunders)
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errs)
	}
	var ans []struct {
		Game  string
		Moves []struct{ Mark, Mover string }
	}
	if err := json.Unmarshal([]byte(out), &ans); err != nil || len(ans) != 3 {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	for _, an := range ans {
		if an.Moves[0].Mark != "blunder" {
			t.Errorf("%s: first move marked %q", an.Game, an.Moves[0].Mark)
		}
	}
}

func TestAnalyzeInputs(t *testing.T) {
	data, err := os.ReadFile(blunders)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := kumalakIn(t, string(data), "analyze", "--agent", "ab:depth=8", "--index", "3", "-")
	if code != 0 || !strings.Contains(out, "togyz:") || strings.Contains(out, "mangala") {
		t.Fatalf("stdin --index 3: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = kumalak(t, "analyze", "--game", "mangala", "--agent", "ab:depth=8",
		"--position", "1,0,0,1,2,2/0,0,0,1,0,1 20 20 - - w", "1", "6", "4")
	if code != 0 || !strings.Contains(out, "blunder ??") {
		t.Fatalf("moves: exit %d\n%s%s", code, out, errs)
	}
	png := filepath.Join(t.TempDir(), "v.png")
	code, _, errs = kumalak(t, "analyze", "--agent", "mcts:sims=100", "--index", "2", "--plot", png, blunders)
	if code != 0 {
		t.Fatalf("--plot: exit %d: %s", code, errs)
	}
	if b, err := os.ReadFile(png); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("--plot wrote no PNG: %v", err)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.kgn")
	if err := os.WriteFile(bad, []byte("[Game \"togyz\"]\n\n1. 76 98\n2. 55 12x *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"analyze", "--agent", "ab", "--plot", "x.png", blunders}, "analyze: --plot draws one game; the input has 3 (choose with --index)"},
		{[]string{"analyze", "--agent", "ab", "--index", "4", blunders}, "analyze: --index 4: the input has 3 games"},
		{[]string{"analyze", "--agent", "ab", bad}, "analyze: " + bad + ": env: record game 1, line 4: togyz: move 4 (12x): no tuzdyk was made"},
		{[]string{"analyze", "--agent", "ab", "nothere.kgn"}, "analyze: open nothere.kgn: no such file or directory"},
		{[]string{"analyze", "--agent", "random", blunders}, "reports no values"},
		{[]string{"analyze", "--model", "m.kmodel", "--agent", "ab", blunders}, "analyze: give --model or --agent, not both"},
		{[]string{"analyze", "--agent", "ab"}, "analyze: give a record file, - for standard input, or moves"},
		{[]string{"analyze", "--agent", "ab", "--marks", "0.2,0.1,0.3", blunders}, "analyze: --marks: thresholds 0.2/0.1/0.3"},
		{[]string{"analyze", "--agent", "ab", "--position", "start", blunders}, "--position goes with moves"},
		{[]string{"analyze", "--agent", "ab", "--game", "mangala", "4", "7"}, "analyze: mangala: move 2 (7): illegal move: pit 7 out of range 1..6"},
	}
	for _, c := range cases {
		code, _, errs := kumalak(t, c.args...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want %q", c.args, code, errs, c.want)
		}
	}
}

// TestRecordsRoundTrip: the records an arena writes are read by replay,
// analyze and play, and play's saved record replays to the same position.
func TestRecordsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := kumalak(t, "arena", "--game", "togyz", "--a", "ab:depth=2", "--b", "greedy", "--games", "2", "--out", dir, "--quiet")
	if code != 0 {
		t.Fatalf("arena: exit %d: %s", code, errs)
	}
	kgn, _ := filepath.Glob(filepath.Join(dir, "*.kgn"))
	jsonl, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(kgn) != 1 || len(jsonl) != 1 {
		t.Fatalf("arena logs: %v %v", kgn, jsonl)
	}
	js, _ := os.ReadFile(jsonl[0])
	var finals []string
	for _, line := range strings.Split(strings.TrimSpace(string(js)), "\n") {
		var r struct{ Final, Result string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		finals = append(finals, r.Final+"\nresult "+r.Result)
	}
	code, out, errs := kumalak(t, "replay", kgn[0])
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errs)
	}
	for _, f := range finals {
		if !strings.Contains(out, f) {
			t.Errorf("replay of the record lacks the arena's final %q:\n%s", f, out)
		}
	}
	code, out, errs = kumalak(t, "replay", "--record", kgn[0])
	text, _ := os.ReadFile(kgn[0])
	if code != 0 || out != string(text) {
		t.Errorf("replay --record of the arena's record: exit %d %s\n%s\nwant\n%s", code, errs, out, text)
	}
	code, out, errs = kumalak(t, "analyze", "--agent", "ab:depth=2", "--index", "1", kgn[0])
	if code != 0 || !strings.Contains(out, "ab:depth=2 (white) vs greedy (black)") {
		t.Errorf("analyze: exit %d %s\n%s", code, errs, out)
	}
	saved := filepath.Join(dir, "saved.kgn")
	code, out, errs = kumalakIn(t, "load "+kgn[0]+" 2\nsave "+saved+"\nquit\n", "play", "--agent", "ab:depth=1", "--game", "togyz", "--lang", "en")
	if code != 0 || !strings.Contains(out, "loaded ") || !strings.Contains(out, "saved ") {
		t.Fatalf("play: exit %d %s\n%s", code, errs, out)
	}
	code, out, errs = kumalak(t, "replay", saved)
	if code != 0 || !strings.Contains(out, finals[1]) {
		t.Errorf("replay of play's save: exit %d %s\n%s\nwant %s", code, errs, out, finals[1])
	}
	games, err := env.ReadRecords(strings.NewReader(string(text)), nil)
	if err != nil || len(games) != 2 || games[0].Tag("Event") != "kumalak arena" {
		t.Errorf("arena record: %v %v", games, err)
	}
}
