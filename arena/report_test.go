package arena

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"kumalak/env/envtest"
	"kumalak/rating"
	"kumalak/solve"
)

// The forfeit line names each player's count, and is absent without any.
func TestForfeits(t *testing.T) {
	cases := []struct {
		a, b int
		want string
	}{
		{0, 0, ""},
		{1, 0, "ab:depth=2 1, random 0"},
		{0, 3, "ab:depth=2 0, random 3"},
	}
	for _, c := range cases {
		r := Result{A: "ab:depth=2", B: "random", ForfeitsA: c.a, ForfeitsB: c.b}
		if got := r.Forfeits(); got != c.want {
			t.Errorf("forfeits %d/%d: %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

// The progress line shows the LLR only while an SPRT runs.
func TestProgressString(t *testing.T) {
	cases := []struct {
		p    Progress
		want string
	}{
		{Progress{A: "a", B: "b", Counts: rating.Counts{W: 3, D: 2, L: 1}}, "a vs b +3 =2 -1"},
		{Progress{A: "a", B: "b", LLR: -1.234}, "a vs b +0 =0 -0 llr -1.23"},
	}
	for _, c := range cases {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}

// A match's figures: nothing but the heading without games; forfeits and
// the SPRT's line only when they happened.
func TestWriteResult(t *testing.T) {
	m := &Match{Spec: envtest.Kalah3, Config: Config{Games: 10}}
	s := NewSPRT(0, 10)
	cases := []struct {
		name     string
		r        Result
		want     []string
		wantNone []string
	}{
		{"empty", Result{A: "x", B: "y"}, []string{"x vs y, " + envtest.Kalah3.Name + ", 0 games\n"}, []string{"W/D/L"}},
		{"plain", Result{A: "x", B: "y", Counts: rating.Counts{W: 3, D: 1}, AWhite: rating.Counts{W: 2}, Model: "pentanomial", LOS: 0.9},
			[]string{"4 games", "W/D/L    3/1/0 (A as white 2/0/0)", "score    87.5%", "(95%, pentanomial)", "LOS      90.0%"}, []string{"forfeits", "sprt"}},
		{"sprt", Result{A: "x", B: "y", Counts: rating.Counts{L: 4}, ForfeitsB: 1, SPRT: &s, LLR: -3, Verdict: AcceptH0, Stopped: true},
			[]string{"forfeits x 0, y 1", "sprt     elo0 0 elo1 10: LLR -3.00", "H0 accepted after 4 of 10 games"}, nil},
	}
	for _, c := range cases {
		var b strings.Builder
		m.WriteResult(&b, c.r)
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, b.String())
			}
		}
		for _, w := range c.wantNone {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s: %q in\n%s", c.name, w, b.String())
			}
		}
	}
}

// The table's player column is as wide as the longest name, and a
// pairing with forfeits says so.
func TestWriteTable(t *testing.T) {
	tour := &Tournament{Spec: envtest.Kalah3, Players: []string{"random", "ab:depth=2"}, Config: Config{Games: 4}, Prior: 1}
	r := TournamentResult{
		Standings: []Standing{{Player: "ab:depth=2", Elo: 120, Err: 80, Games: 4, Score: 0.75}, {Player: "random", Games: 4, Score: 0.25}},
		Anchor:    "random",
		Matches:   []Result{{A: "random", B: "ab:depth=2", Counts: rating.Counts{W: 1, L: 3}, ForfeitsA: 1}},
	}
	var b strings.Builder
	tour.WriteTable(&b, r)
	want := envtest.Kalah3.Name + ", 4 games per pairing\n" +
		"rank  player           elo     ±95%   games   score\n" +
		"   1  ab:depth=2     120.0     80.0       4   75.0%\n" +
		"   2  random           0.0      0.0       4   25.0%\n" +
		"anchor random = 0; prior 1 virtual draws per pairing\n" +
		"  random vs ab:depth=2: 1/0/3, elo " + (rating.Elo{}).String() + ", forfeits random 1, ab:depth=2 0\n"
	if b.String() != want {
		t.Errorf("table\n%s\nwant\n%s", b.String(), want)
	}
}

// Model files become model players after the specs given, at the sims
// asked; the anchor joins when it is not a player yet.
func TestModelPlayers(t *testing.T) {
	cases := []struct {
		players, models []string
		anchor          string
		sims            int
		want            []string
		bad             string
	}{
		{[]string{"random", "greedy"}, nil, "", 0, []string{"random", "greedy"}, ""},
		{[]string{"random"}, []string{"a.kmodel", "b.kmodel"}, "", 50, []string{"random", "model:path=a.kmodel,sims=50", "model:path=b.kmodel,sims=50"}, ""},
		{nil, []string{"a.kmodel"}, "ab:depth=2", 0, []string{"model:path=a.kmodel", "ab:depth=2"}, ""},
		{[]string{"ab:depth=2"}, nil, "ab:depth=2", 0, []string{"ab:depth=2"}, ""},
		{nil, []string{"a,b.kmodel"}, "", 0, nil, "comma"},
		{nil, []string{""}, "", 0, nil, "empty"},
		{nil, nil, "", -1, nil, "out of range"},
		{nil, nil, "", MaxModelSims + 1, nil, "out of range"},
	}
	for _, c := range cases {
		got, err := ModelPlayers(c.players, c.models, c.anchor, c.sims)
		if c.bad != "" {
			var ve *ValueError
			if !errors.As(err, &ve) || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("%v %v sims %d: error %v, want a ValueError with %q", c.players, c.models, c.sims, err, c.bad)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v %v %q %d: %v, %v; want %v", c.players, c.models, c.anchor, c.sims, got, err, c.want)
		}
	}
}

// The judge's table clips long names, names the solver's reach when it
// judged above the tablebase, and lists the worst mistakes.
func TestJudgeReportText(t *testing.T) {
	long := strings.Repeat("p", 40)
	r := JudgeReport{Tablebase: "tb", Stones: 10, Extra: 2, Players: []PlayerTally{
		{Player: long, Summary: solve.Summary{Tally: solve.Tally{Moves: 9, Judged: 5, Mistakes: 1, Lost: 3,
			Worst: []solve.Mistake{{Position: "POS", Pit: 2, Best: 4, Value: -1, BestValue: 2, Lost: 3}}}, Rate: 0.2, LostPerMistake: 3}},
		{Player: "white"},
	}}
	var b strings.Builder
	r.WriteText(&b)
	out := b.String()
	for _, w := range []string{
		"judge    tablebase tb (10 stones, the solver up to 12)\n",
		"  " + strings.Repeat("p", 27) + "…      9      0      5        1   20.0%     3.00",
		"worst of " + strings.Repeat("p", 27) + "…: pit 2 lost 3 stones (best pit 4: +2, played -1) in POS",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in\n%s", w, out)
		}
	}
	r.Extra = 0
	b.Reset()
	r.WriteText(&b)
	if !strings.HasPrefix(b.String(), "judge    tablebase tb (10 stones)\n") {
		t.Errorf("without extra stones:\n%s", b.String())
	}
}

// The judge's report lands beside the logs as indented JSON that reads
// back to the report.
func TestWriteJudge(t *testing.T) {
	dir := t.TempDir()
	logs, err := CreateLogs(dir, "arena", envtest.Kalah3, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close()
	r := JudgeReport{Tablebase: "tb", Stones: 8, Players: []PlayerTally{{Player: "a"}}}
	if err := logs.WriteJudge(r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(logs.JudgePath())
	if err != nil {
		t.Fatal(err)
	}
	var back JudgeReport
	if err := json.Unmarshal(b, &back); err != nil || back.Tablebase != "tb" || back.Stones != 8 || len(back.Players) != 1 {
		t.Errorf("read back %+v, %v from\n%s", back, err, b)
	}
	if !bytes.HasPrefix(b, []byte("{\n  \"tablebase\"")) {
		t.Errorf("not indented:\n%s", b)
	}
	if filepath.Dir(logs.JudgePath()) != dir {
		t.Errorf("judge report %s not in %s", logs.JudgePath(), dir)
	}
}
