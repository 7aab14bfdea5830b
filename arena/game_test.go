package arena

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"kumalak/env"
	"kumalak/env/envtest"
)

// TestLogsRecordFile: a match logged through Logs writes the same games as
// JSON lines and as a record file that env reads back move for move.
func TestLogsRecordFile(t *testing.T) {
	m, _ := toyMatch("ab:depth=2", "random", 6)
	var js, text bytes.Buffer
	m.Records = &Logs{JSON: &js, Text: &text, Spec: envtest.Kalah3, Event: "test match", Date: "2026.12.01"}
	if _, err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, &js)
	games, err := env.ReadRecords(strings.NewReader(text.String()), nil)
	if err != nil {
		// Kalah3 is not registered: read with it as the default game.
		games, err = env.ReadRecords(strings.NewReader(strings.ReplaceAll(text.String(), `[Game "`+envtest.Kalah3.Name+"\"]\n", "")), envtest.Kalah3)
	}
	if err != nil || len(games) != len(recs) || len(recs) != 6 {
		t.Fatalf("%d games, %v; %d JSON records\n%s", len(games), err, len(recs), text.String())
	}
	for i, g := range games {
		r := recs[i]
		want := append(append([]int(nil), r.Opening...), r.Moves...)
		if len(g.Moves) != len(want) || g.Result.String() != r.Result || g.Tag("White") != r.White || g.Tag("Event") != "test match" {
			t.Fatalf("game %d: %+v, JSON %+v", i+1, g, r)
		}
		for k, a := range g.Moves {
			if a.Pit() != want[k] {
				t.Fatalf("game %d move %d: %d, want %d", i+1, k+1, a.Pit(), want[k])
			}
		}
		if g.Tag("Round") == "" || g.Tag("Opening") != "2" {
			t.Errorf("game %d tags %v", i+1, g.Tags)
		}
	}
}

func TestRecordGameRecordErrors(t *testing.T) {
	r := &Record{Game: "other", Start: "", Result: "1-0"}
	if _, err := r.GameRecord(envtest.Kalah3); err == nil {
		t.Error("record of another game accepted")
	}
	r.Game = envtest.Kalah3.Name
	r.Result = "2-0"
	if _, err := r.GameRecord(envtest.Kalah3); err == nil || !strings.Contains(err.Error(), "bad result") {
		t.Errorf("bad result: %v", err)
	}
	if err := (&Logs{}).LogGame(&Record{}); err != nil {
		t.Errorf("empty logs: %v", err)
	}
}

func TestRecordReplay(t *testing.T) {
	spec := envtest.Kalah3
	tests := []struct {
		name    string
		r       Record
		moves   []env.Action
		wantErr string
	}{
		{"start and opening", Record{Game: spec.Name, Opening: []int{1}, Moves: []int{2, 3}}, []env.Action{1, 2}, ""},
		{"no opening", Record{Game: spec.Name, Moves: []int{3}}, []env.Action{2}, ""},
		{"another game", Record{Game: "other"}, nil, "not of game"},
		{"bad start", Record{Game: spec.Name, Start: "x"}, nil, "game 1"},
		{"illegal opening", Record{Game: spec.Name, Opening: []int{9}}, nil, "opening move 1"},
		{"move out of range", Record{Game: spec.Name, Index: 4, Moves: []int{1, 257}}, nil, "game 5: move 2: pit 257 out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, moves, err := tt.r.Replay(spec)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := spec.New()
			for _, p := range tt.r.Opening {
				want.Apply(env.Action(p - 1))
			}
			if st.String() != want.String() || !slices.Equal(moves, tt.moves) {
				t.Errorf("got %s %v, want %s %v", st, moves, want, tt.moves)
			}
		})
	}
}
