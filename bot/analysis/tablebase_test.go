package analysis

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/solve"
	"kumalak/solve/solvetest"
)

func TestMain(m *testing.M) { os.Exit(solvetest.Main(m)) }

// TestOpenTablebases: nothing asked opens nothing; a tablebase gives exact
// values and, alone, the judge; --judge-extra alone the solver's judge; a
// game without tablebases or the solver and a bad folder are ValueErrors
// naming the flag.
func TestOpenTablebases(t *testing.T) {
	mangala, _ := env.Lookup("mangala")
	togyz, _ := env.Lookup("togyz")
	none, err := OpenTablebases(mangala, "", "", solve.JudgeConfig{})
	if err != nil || none.Exact != nil || none.Judge != nil || none.Verdict() != nil {
		t.Errorf("nothing asked: %+v, %v", none, err)
	}
	none.Close()

	dir := solvetest.Dir(t)
	tb, err := OpenTablebases(mangala, dir, "", solve.JudgeConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if tb.Exact == nil || tb.Judge == nil || tb.Verdict() == nil {
		t.Errorf("--tablebase alone: %+v, want exact values and the judge", tb)
	}
	judge, err := OpenTablebases(mangala, "", dir, solve.JudgeConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer judge.Close()
	if judge.Exact != nil || judge.Judge == nil {
		t.Errorf("--judge alone: %+v, want the judge only", judge)
	}

	kalah, _ := env.Lookup("kalah")
	solver, err := OpenTablebases(kalah, "auto", "", solve.JudgeConfig{Extra: 12, Limit: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer solver.Close()
	if solver.Exact != nil || solver.Judge == nil || solver.Judge.Reach(kalah) != 12 || solver.Verdict() == nil {
		t.Errorf("--judge-extra alone: %+v, want the solver's judge only", solver)
	}

	for _, c := range []struct {
		game      *env.Spec
		dir, jdir string
		want      string
	}{
		{togyz, dir, "", "--tablebase and --judge: "},
		{mangala, dir + "/missing", "", "--tablebase: "},
		{mangala, "", dir + "/missing", "--judge: "},
		{togyz, "", "", "--judge-extra: "},
	} {
		_, err := OpenTablebases(c.game, c.dir, c.jdir, solve.JudgeConfig{Extra: 12, Limit: time.Second})
		var ve *ValueError
		if !errors.As(err, &ve) || !strings.HasPrefix(ve.Reason, c.want) {
			t.Errorf("%s %q %q: %v, want a ValueError starting %q", c.game.Name, c.dir, c.jdir, err, c.want)
		}
	}
}
