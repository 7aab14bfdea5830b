package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kumalak runs the command in-process with args and returns its exit status,
// standard output and standard error.
func kumalak(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	root := newRoot()
	var out, errb bytes.Buffer
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetIn(strings.NewReader(""))
	code := run(root)
	return code, out.String(), errb.String()
}

func TestPerft(t *testing.T) {
	cases := []struct {
		game, depth string
		want        []string
	}{
		{"togyz", "4", []string{"1 9", "2 73", "3 613", "4 5199"}},
		{"mangala", "5", []string{"1 6", "2 36", "3 213", "4 1233", "5 6956"}},
		{"mangala-kale", "5", []string{"1 6", "2 36", "3 210", "4 1197", "5 6468"}},
	}
	for _, c := range cases {
		code, out, errs := kumalak(t, "perft", "--game", c.game, "--depth", c.depth)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.game, code, errs)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != len(c.want) {
			t.Fatalf("%s: %d lines, want %d:\n%s", c.game, len(lines), len(c.want), out)
		}
		for i, w := range c.want {
			if f := strings.Fields(lines[i]); len(f) < 2 || f[0]+" "+f[1] != w {
				t.Errorf("%s line %d = %q, want it to start %q", c.game, i, lines[i], w)
			}
		}
	}
}

func TestReplay(t *testing.T) {
	code, out, errs := kumalak(t, "replay", "--game", "togyz", "1.", "76", "98", "2.", "55", "12")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(out, "\n")
	if lines[0] != "11,11,10,10,1,11,3,12,11/1,12,12,12,12,1,10,10,2 10 0 - - w" || lines[1] != "result *" {
		t.Fatalf("replay output:\n%s", out)
	}
	if !strings.Contains(out, "record 1. 76 98 2. 55 12 *") || !strings.Contains(out, "kazan") {
		t.Fatalf("replay output lacks the board or the record:\n%s", out)
	}
	code, out, _ = kumalak(t, "replay", "--game", "mangala", "4")
	if code != 0 || !strings.HasPrefix(out, "4,4,4,1,5,5/4,4,4,4,4,4 1 0 - - w\nresult *\n") {
		t.Fatalf("mangala replay (extra turn after pit 3 keeps white to move), exit %d:\n%s", code, out)
	}
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"show", "--game", "chess"}, `show: unknown game "chess"`},
		{[]string{"show", "--position", "9,9/9 0 0 - - w"}, "show: togyz: position"},
		{[]string{"replay", "--game", "mangala", "1", "7"}, "replay: mangala: move 2 (7): illegal move: pit 7 out of range 1..6"},
		{[]string{"replay", "--game", "togyz", "--position", "0,9,9,9,9,9,9,9,18/9,9,9,9,9,9,9,9,9 0 0 - - w", "1"}, "replay: togyz: move 1 (1): illegal move: pit is empty"},
		{[]string{"replay", "--game", "togyz", "71"}, "replay: togyz: move 1 (71): last stone fell in pit 6"},
		{[]string{"replay", "--game", "mangala", "--position", "0,0,0,0,0,1/4,4,4,4,4,4 23 0 - - w", "1"}, "replay: mangala: move 1 (1): illegal move: pit is empty"},
		{[]string{"perft", "--depth", "0"}, "perft: --depth 0 out of range"},
		{[]string{"perft", "--depth", "x"}, "perft: invalid argument"},
		{[]string{"nosuch"}, "unknown command"},
		{[]string{"train", "--config", "/nonexistent.yaml"}, "train: config"},
		{[]string{"info", "/nonexistent.kmodel"}, "info: net: load"},
	}
	for _, c := range cases {
		code, _, errs := kumalak(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", c.args, code, errs, c.want)
		}
	}
}

func TestShow(t *testing.T) {
	for _, g := range []string{"togyz", "mangala", "mangala-kale"} {
		code, out, errs := kumalak(t, "show", "--game", g)
		if code != 0 || !strings.Contains(out, "legal moves: 1 2 3 4 5 6") {
			t.Errorf("%s: exit %d %s\n%s", g, code, errs, out)
		}
	}
	code, out, _ := kumalak(t, "show", "--position", "0,0,0,0,0,0,0,0,0/9,0,0,0,0,0,0,0,0 77 76 - - w")
	if code != 0 || !strings.Contains(out, "game over: 0-1") {
		t.Errorf("terminal position: exit %d\n%s", code, out)
	}
}

// TestConfigsDecode: a bad config file is a usage error naming what is
// wrong (train's TestConfigsResolve reads the shipped ones).
func TestConfigsDecode(t *testing.T) {
	dir := t.TempDir()
	bad := map[string]string{
		"unknown key":  "game: togyz\nbogus: 1\n",
		"wrong type":   "game: togyz\nselfplay:\n  full_sims: many\n",
		"out of range": "game: togyz\nselfplay:\n  full_fraction: 2\n",
		"unknown game": "game: chess\n",
	}
	wants := map[string]string{"unknown key": "bogus", "wrong type": "many", "out of range": "full_fraction", "unknown game": "chess"}
	for name, text := range bad {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".yaml")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs := kumalak(t, "train", "--config", p, "--run", filepath.Join(dir, "run"))
		if code != 2 || !strings.Contains(errs, wants[name]) {
			t.Errorf("%s: exit %d, %q; want exit 2 naming %q", name, code, errs, wants[name])
		}
	}
}

// TestTrainExportInfo checks the two tiny iterations of tinyRun (trained
// once for this test and TestDocCommands), resumes a copy of the finished
// run with a larger iteration count, exports it and reads the card back.
func TestTrainExportInfo(t *testing.T) {
	t.Parallel()
	tr := tinyRun(t)
	if out := tr.out; !strings.Contains(out, "best model: "+filepath.Join(tr.dir, "best.kmodel")) || strings.Count(out, "\niter ") != 2 {
		t.Fatalf("train: want the best model and one summary line per iteration:\n%s", out)
	}
	// A finished run says so and how to extend it; the tiny run's rating
	// (random = 0) is not on the shipped model's scale (ab:depth=6 = 0), so
	// it only says how to measure the two.
	for _, w := range []string{
		"finished: its 2 iterations are done; to train it further: kumalak train --run " + tr.dir + " --resume --iterations 4\n",
		"vs shipped: not rated on the shipped model's scale; measure it head to head: kumalak arena --game togyz --a model:path=" + tr.dir + "/best.kmodel --b model --games 100\n",
	} {
		if !strings.Contains(tr.out, w) {
			t.Errorf("train: want %q in\n%s", w, tr.out)
		}
	}
	run := filepath.Join(t.TempDir(), "tiny")
	if err := os.CopyFS(run, os.DirFS(tr.dir)); err != nil {
		t.Fatal(err)
	}
	code, _, errs := kumalak(t, "train", "--config", "../../configs/tiny.yaml", "--run", run)
	if code == 0 || !strings.Contains(errs, "--resume") {
		t.Fatalf("training over an existing run without --resume: exit %d %s", code, errs)
	}
	code, out, errs := kumalak(t, "train", "--run", run, "--resume", "--quiet")
	if w := "run " + run + " is already finished: its 2 iterations are done; nothing to train\n"; code != 0 || !strings.Contains(out, w) ||
		strings.Contains(out, "\niter ") || !strings.Contains(out, "--resume --iterations 4") {
		t.Fatalf("a finished run again: exit %d, want %q and how to extend it, no iteration:\n%s\n%s", code, w, out, errs)
	}
	code, out, errs = kumalak(t, "train", "--run", run, "--resume", "--iterations", "3", "--quiet")
	if code != 0 || !strings.Contains(out, "iteration 2 done") || !strings.Contains(out, "inference kernel ") || strings.Count(out, "\niter ") != 1 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out, errs)
	}
	model := filepath.Join(run, "bot.kmodel")
	onnx := filepath.Join(run, "bot.onnx")
	code, out, errs = kumalak(t, "export", "--run", run, "--out", model, "--onnx", onnx)
	if code != 0 || !strings.Contains(out, "wrote "+model) {
		t.Fatalf("export: exit %d\n%s\n%s", code, out, errs)
	}
	if fi, err := os.Stat(onnx); err != nil || fi.Size() == 0 {
		t.Fatalf("onnx: %v", err)
	}
	code, out, errs = kumalak(t, "info", model)
	for _, w := range []string{"game          togyz", "iteration", "vs random", "rating", "search", "kernel        inference on this machine: "} {
		if code != 0 || !strings.Contains(out, w) {
			t.Fatalf("info: exit %d, want %q in\n%s\n%s", code, w, out, errs)
		}
	}
	// The exported model and the run's ladder rung, rated on one scale
	// with the anchor, which joins the players.
	rung := filepath.Join(run, "ladder", "iter-0001.kmodel")
	code, out, errs = kumalak(t, "tournament", "--game", "togyz", "--anchor", "random", "--models", model+","+rung,
		"--sims", "2", "--games", "2", "--parallel", "2", "--out", "", "--quiet")
	for _, w := range []string{"model:path=" + model + ",sims=2", "model:path=" + rung + ",sims=2", "anchor random = 0"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Fatalf("tournament --models: exit %d, want %q in\n%s\n%s", code, w, out, errs)
		}
	}
	code, _, errs = kumalak(t, "tournament", "--game", "togyz", "--models", "a.kmodel,", "--players", "random")
	if code != 2 || !strings.Contains(errs, "--models") {
		t.Errorf("tournament --models with an empty name: exit %d %q", code, errs)
	}
}

// TestInfoOldCards reads model files written before the card was one typed
// struct: info still prints every part of the card, or says there is none.
func TestInfoOldCards(t *testing.T) {
	code, out, errs := kumalak(t, "info", filepath.Join("..", "..", "net", "testdata", "card-v1.kmodel"))
	for _, w := range []string{
		"game          togyz (observation togyz-obs-1)",
		"network       residual MLP 5-4x1-3, value head 2",
		"run           runs/togyz: iteration 41 of 48, 30m0s of training, 9600 games, 1234567 samples",
		"search        400 simulations per move, cpuct 1.25",
		"strength      at iteration 40:",
		"rating 812 ±61 Elo",
		"vs ab:depth=2     +20 =4 -16  score  55.0%  elo +35 [-70, +141]",
		"vs random         +39 =1 -0  score  98.8%  elo +760 [+500, +inf]",
	} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("info card-v1.kmodel: exit %d, want %q in\n%s%s", code, w, out, errs)
		}
	}
	code, out, errs = kumalak(t, "info", filepath.Join("..", "..", "net", "testdata", "nocard-v1.kmodel"))
	if code != 0 || !strings.Contains(out, "card          none") {
		t.Errorf("info nocard-v1.kmodel: exit %d\n%s%s", code, out, errs)
	}
}
