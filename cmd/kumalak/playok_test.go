package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kumalak/env"
)

// playOK is a file of four togyz games in PlayOK's export form, without
// Game tags (env/togyz/testdata/playok-many.kgn): the first as PlayOK
// exported it, ended by a resignation or on time, and three written in the
// same form.
const playOK = "testdata/playok.kgn"

// TestPlayOKRecords: replay, analyze and play read PlayOK's export,
// checking its kazan totals, and replay writes it back in either form.
func TestPlayOKRecords(t *testing.T) {
	code, out, errs := kumalak(t, "replay", playOK)
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errs)
	}
	first := "1,2,3,0,0,3,1,1,4/0,2,0,3,1,0,1,1,2 75 62 6 4 b\nresult 1-0\ntermination " + env.OffBoard + "\n"
	if !strings.HasPrefix(out, first) || strings.Count(out, "\nresult ") != 4 {
		t.Fatalf("replay output:\n%s", out)
	}
	for _, form := range []string{"kgn", "playok"} {
		code, rec, errs := kumalak(t, "replay", "--format", form, playOK)
		if code != 0 {
			t.Fatalf("--format %s: exit %d: %s", form, code, errs)
		}
		code, back, errs := kumalakIn(t, rec, "replay", "-")
		if code != 0 || back != out {
			t.Errorf("--format %s read back: exit %d %s\n%s\nwant\n%s", form, code, errs, back, out)
		}
		if form == "playok" && !strings.Contains(rec, "1. 76(10) 76(10) 2. 99 89(12) 3. 67 34(24) 4. 56X 47") {
			t.Errorf("--format playok:\n%s", rec)
		}
	}
	code, out, errs = kumalak(t, "analyze", "--agent", "ab:depth=1", playOK)
	if code != 0 || strings.Count(out, " moves judged by ab:depth=1") != 4 ||
		!strings.Contains(out, "togyz: darru (white) vs harrison01 (black), 1-0; 97 moves judged") {
		t.Fatalf("analyze: exit %d %s\n%s", code, errs, out)
	}
	code, out, errs = kumalakIn(t, "load "+playOK+" 2\nquit\n", "play", "--agent", "ab:depth=1", "--game", "togyz")
	if code != 0 || !strings.Contains(out, "loaded 147 moves from "+playOK+" (game 2)") {
		t.Fatalf("play load: exit %d %s\n%s", code, errs, out)
	}
}

// TestPlayOKErrors: a kazan total the game does not reach is refused by
// every reader, naming the move and both numbers; a PlayOK record read as
// another game says which game it reads as.
func TestPlayOKErrors(t *testing.T) {
	data, err := os.ReadFile(playOK)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.kgn")
	if err := os.WriteFile(bad, []byte(strings.Replace(string(data), "13. 92(41)", "13. 92(40)", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	const wrong = "env: record game 1, line 15: togyz: move 25 (92(40)): white's kazan holds 41 after it, but the record says 40"
	for _, args := range [][]string{{"replay", bad}, {"analyze", "--agent", "ab:depth=1", bad}} {
		code, _, errs := kumalak(t, args...)
		if code == 0 || !strings.Contains(errs, args[0]+": "+bad+": "+wrong) {
			t.Errorf("%v: exit %d, %q; want %q", args, code, errs, wrong)
		}
	}
	code, out, _ := kumalakIn(t, "load "+bad+"\nquit\n", "play", "--agent", "ab:depth=1", "--game", "togyz")
	if code != 0 || !strings.Contains(out, "can't load: "+wrong) {
		t.Errorf("play load: exit %d\n%s", code, out)
	}
	code, _, errs := kumalak(t, "replay", "--game", "mangala", playOK)
	if code == 0 || !strings.Contains(errs, `its moves read as [Game "togyz"]: add that tag`) {
		t.Errorf("replay --game mangala: exit %d %s", code, errs)
	}
}
