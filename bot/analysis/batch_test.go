package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"kumalak/env"
	"kumalak/solve"
	"kumalak/solve/solvetest"
)

// movesGame is the record of moves of game from its start.
func movesGame(t *testing.T, game, moves string) *env.GameRecord {
	t.Helper()
	spec, err := env.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	g, err := spec.RecordOfMoves(spec.New(), moves)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Select keeps the game --index names, or all; --plot wants one.
func TestSelect(t *testing.T) {
	a, b := movesGame(t, "mangala", "3"), movesGame(t, "mangala", "4")
	games := []*env.GameRecord{a, b}
	cases := []struct {
		index int
		plot  bool
		want  []*env.GameRecord
		err   string
	}{
		{0, false, games, ""},
		{2, false, games[1:], ""},
		{1, true, games[:1], ""},
		{0, true, nil, "--plot draws one game; the input has 2 (choose with --index)"},
		{3, false, nil, "--index 3: the input has 2 games"},
		{-1, false, nil, "--index -1: the input has 2 games"},
	}
	for _, c := range cases {
		got, err := Select(games, c.index, c.plot)
		if c.err != "" {
			var ve *ValueError
			if !errors.As(err, &ve) || ve.Reason != c.err {
				t.Errorf("index %d plot %v: %v, want %q", c.index, c.plot, err, c.err)
			}
			continue
		}
		if err != nil || len(got) != len(c.want) || got[0] != c.want[0] {
			t.Errorf("index %d plot %v: %v, %v", c.index, c.plot, got, err)
		}
	}
}

// AnalyzeAll analyses every game and, with a judge, judges each; the
// report's text follows each game's table with its judge's, and its JSON
// is an array, or an object with the judge's reports.
func TestAnalyzeAll(t *testing.T) {
	games := []*env.GameRecord{movesGame(t, "mangala", "3 6 1"), movesGame(t, "mangala", "4 2")}
	cfg := Config{Agent: "ab:depth=2"}
	plain, err := AnalyzeAll(context.Background(), games, cfg, &Tablebases{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Analyses) != 2 || plain.Judged != nil || len(plain.Analyses[1].Moves) != 2 {
		t.Fatalf("without a judge: %d analyses, judged %v", len(plain.Analyses), plain.Judged)
	}
	var js strings.Builder
	if err := plain.WriteJSON(&js); err != nil || !strings.HasPrefix(js.String(), "[") {
		t.Errorf("JSON without a judge: %v\n%.80s", err, js.String())
	}
	spec, _ := env.Lookup("mangala")
	tb, err := OpenTablebases(spec, "", solvetest.Dir(t), solve.JudgeConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	judged, err := AnalyzeAll(context.Background(), games, cfg, tb)
	if err != nil {
		t.Fatal(err)
	}
	if len(judged.Judged) != 2 || judged.Judged[0].Players[0].Player != "white" {
		t.Fatalf("with a judge: %+v", judged.Judged)
	}
	var text strings.Builder
	if err := judged.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(text.String(), "judge    tablebase "); n != 2 {
		t.Errorf("%d judge tables in the text, want 2:\n%s", n, text.String())
	}
	js.Reset()
	if err := judged.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var obj struct {
		Analyses []json.RawMessage `json:"analyses"`
		Judge    []json.RawMessage `json:"judge"`
	}
	if err := json.Unmarshal([]byte(js.String()), &obj); err != nil || len(obj.Analyses) != 2 || len(obj.Judge) != 2 {
		t.Errorf("JSON with a judge: %v, %d analyses, %d reports", err, len(obj.Analyses), len(obj.Judge))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := AnalyzeAll(ctx, games, cfg, &Tablebases{}); err == nil {
		t.Error("a cancelled analysis returned no error")
	}
}
