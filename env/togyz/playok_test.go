package togyz

import (
	"os"
	"slices"
	"strings"
	"testing"

	"kumalak/env"
)

// testdata/playok.kgn is a game exported from PlayOK as it came (no Game
// tag, the mover's kazan after a capture in parentheses, X for a tuzdyk,
// move pairs wrapped across lines, a resignation or loss on time at move
// 49). testdata/playok-many.kgn holds it and three games in the same form
// written by env.PlayOK from random play (one played to its end, one
// drawn by agreement, one resigned), wrapped at 60 columns as PlayOK does.

// readFile reads a record file of testdata whose records lack a Game tag.
func readFile(t *testing.T, name string) (string, []*env.GameRecord) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	games, err := env.ReadRecords(strings.NewReader(string(data)), Spec)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return string(data), games
}

func TestPlayOKRecord(t *testing.T) {
	text, games := readFile(t, "playok.kgn")
	if len(games) != 1 {
		t.Fatalf("%d games, want 1", len(games))
	}
	g := games[0]
	tags := map[string]string{"Event": "?", "Site": "PlayOK", "Date": "2025.08.26", "Round": "-", "White": "darru",
		"Black": "harrison01", "Result": "1-0", "Time": "20:55:03", "TimeControl": "180", "WhiteElo": "1200",
		"BlackElo": "1201", "Game": "togyz", "Termination": env.OffBoard}
	for name, want := range tags {
		if got := g.Tag(name); got != want {
			t.Errorf("tag %s = %q, want %q", name, got, want)
		}
	}
	final, err := g.Final()
	if err != nil || len(g.Moves) != 97 || final.String() != "1,2,3,0,0,3,1,1,4/0,2,0,3,1,0,1,1,2 75 62 6 4 b" {
		t.Fatalf("%d moves to %v, %v", len(g.Moves), final, err)
	}
	// Written in PlayOK's form, the moves are the export's, token for token.
	out, err := g.TextIn(env.PlayOK)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := moveTokens(out), moveTokens(text); !slices.Equal(got, want) {
		t.Errorf("PlayOK form:\n%s\nwant the moves of\n%s", out, text)
	}
	// Written in kumalak's form, it reads back the same game, tags and all.
	kgn, err := g.Text()
	if err != nil {
		t.Fatal(err)
	}
	back, err := env.ReadRecords(strings.NewReader(kgn), nil)
	if err != nil || len(back) != 1 || !slices.Equal(back[0].Moves, g.Moves) || back[0].Tag("Termination") != env.OffBoard || back[0].Tag("WhiteElo") != "1200" {
		t.Fatalf("read back %v, %v:\n%s", back, err, kgn)
	}
}

// moveTokens returns the words of a record's move text: what follows the
// first blank line.
func moveTokens(text string) []string {
	_, moves, _ := strings.Cut(text, "\n\n")
	return strings.Fields(moves)
}

func TestPlayOKFile(t *testing.T) {
	_, games := readFile(t, "playok-many.kgn")
	want := []struct {
		moves  int
		result env.Result
		over   bool // played to the end: no Termination
	}{
		{97, env.WhiteWins, false},
		{147, env.WhiteWins, true},
		{30, env.Draw, false},
		{41, env.WhiteWins, false},
	}
	if len(games) != len(want) {
		t.Fatalf("%d games, want %d", len(games), len(want))
	}
	for i, w := range want {
		g := games[i]
		final, err := g.Final()
		if err != nil || len(g.Moves) != w.moves || g.Result != w.result || (final.Result() != env.Ongoing) != w.over {
			t.Errorf("game %d: %d moves, %s, ended %s, %v; want %d, %s, over %v", i+1, len(g.Moves), g.Result, final.Result(), err, w.moves, w.result, w.over)
		}
		if term := g.Tag("Termination"); (term == "") != w.over {
			t.Errorf("game %d: Termination %q", i+1, term)
		}
	}
}

// TestPlayOKErrors: a kazan that the replay does not reach, a tuzdyk
// where none is made, and an unknown note are refused, naming the game,
// the line, the move and both numbers.
func TestPlayOKErrors(t *testing.T) {
	data, err := os.ReadFile("testdata/playok-many.kgn")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ from, to, want string }{
		{"13. 93(44)", "13. 93(45)", "env: record game 3, line 66: togyz: move 25 (93(45)): white's kazan holds 44 after it, but the record says 45"},
		{"3. 68(22) 79", "3. 68(22) 79X", "env: record game 4, line 81: togyz: move 6 (79X): no tuzdyk was made"},
		{"92(41) 96", "92(41) 96!", "env: record game 1, line 15: togyz: move 26 (96!): want a pit 1..9"},
		{"49. 89 1-0", "49. 89 0-1", "env: record game 1, line 23: result 0-1, but the Result tag says 1-0"},
	}
	for _, c := range cases {
		text := strings.Replace(string(data), c.from, c.to, 1)
		_, err := env.ReadRecords(strings.NewReader(text), Spec)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s for %s: %v, want %q", c.to, c.from, err, c.want)
		}
	}
}
