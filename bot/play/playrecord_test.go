package play

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kumalak/bot/bottest"
	"kumalak/env"
)

// fixedNow is the clock of the tests' saved records.
func fixedNow() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) }

func TestPlayBoardTurnedForBlack(t *testing.T) {
	for _, game := range []string{"togyz", "mangala", "mangala-kale"} {
		spec, a := bottest.Agent(t, game, "greedy")
		out := play(t, Config{Spec: spec, Agent: a, Human: env.Black}, "board\nquit\n")
		board := out[strings.Index(out, "black> ")+len("black> "):]
		bottest.InOrder(t, board, "white ", " |", "black ", " |", "(your row, black's, is at the bottom)")
		bottest.InOrder(t, out, "last move: white ")
		// White sees the same layout from the other seat.
		white := play(t, Config{Spec: spec, Agent: a, Human: env.White}, "quit\n")
		bottest.InOrder(t, white, "black ", " |", "white ", " |", "(your row, white's, is at the bottom)")
	}
	spec, a := bottest.Agent(t, "togyz", "greedy")
	start := "0,0,0,0,0,0,0,2,6/0,0,0,1,1,0,1,1,1 77 72 1 3 b"
	out := play(t, Config{Spec: spec, Agent: a, Human: env.Black, Start: start}, "quit\n")
	bottest.InOrder(t, out,
		"                   9    8    7    6    5    4    3    2    1\n",
		"white kazan  77 |  6 |  2 |  0 |  0 |  0 |  0 |  X |  0 |  0 |\n",
		"black           |  X |  0 |  0 |  1 |  1 |  0 |  1 |  1 |  1 |  kazan  72\n",
		"black to move (your row, black's, is at the bottom)",
		"X: white's tuzdyk on black's 1, black's tuzdyk on white's 3")
}

func TestPlayMoveStated(t *testing.T) {
	cases := []struct {
		game, start, script string
		human               env.Player
		want                string
	}{
		{"togyz", "", "7\nquit\n", env.White, "last move: white 7 (76): sowed 9, captured black's pit 6, kazan +10 (now 10)"},
		{"mangala", "", "4\nquit\n", env.White, "last move: white 4: sowed 4, store +1 (now 1), last stone in the store: white moves again"},
		{"mangala", "0,0,0,0,2,0/4,4,4,4,4,4 12 10 - - w", "5\nquit\n", env.White, "last move: white 5: sowed 2, captured black's pit 1, store +5 (now 17)"},
	}
	for _, c := range cases {
		spec, a := bottest.Agent(t, c.game, "greedy")
		bottest.InOrder(t, play(t, Config{Spec: spec, Agent: a, Human: c.human, Start: c.start}, c.script), c.want)
	}
	// black's 22x of docs/RULES.md makes a tuzdyk on white's 2.
	spec, a := bottest.Agent(t, "togyz", "greedy")
	dir := t.TempDir()
	path := filepath.Join(dir, "g.kgn")
	if err := os.WriteFile(path, []byte("[Game \"togyz\"]\n1. 21 65 2. 34 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := play(t, Config{Spec: spec, Agent: a, Human: env.Black}, "load "+path+"\n22x\nquit\n")
	bottest.InOrder(t, out, "loaded 3 moves", "you play 2 (22x)", "last move: black 2 (22x): sowed 10, kazan +3 (now 3), tuzdyk made on white's 2")
}

func TestPlayTwoDigitInput(t *testing.T) {
	mangala, a := bottest.Agent(t, "mangala", "greedy")
	out := play(t, Config{Spec: mangala, Agent: a, Human: env.White}, "99\n09\n12\n1 2\nquit\n")
	bottest.InOrder(t, out,
		`can't play "99": illegal move: pit 99 out of range 1..6`,
		`can't play "09": want a pit number`,
		`can't play "12": illegal move: pit 12 out of range 1..6`,
		`can't play "1 2": one move at a time`)
	togyz, b := bottest.Agent(t, "togyz", "greedy")
	out = play(t, Config{Spec: togyz, Agent: b, Human: env.White}, "99\n98\nquit\n")
	bottest.InOrder(t, out, `can't play "99": last stone fell in pit 8`, "you play 9 (98)")
	out = play(t, Config{Spec: togyz, Agent: b, Human: env.White, ParseMove: togyzParse}, "76\nquit\n")
	bottest.InOrder(t, out, "you play 7 (76)")
}

func TestPlaySaveLoad(t *testing.T) {
	spec, a := bottest.Agent(t, "togyz", "ab:depth=1")
	dir := t.TempDir()
	path := filepath.Join(dir, "game.kgn")
	cfg := Config{Spec: spec, Agent: a, Human: env.Black, Now: fixedNow, Name: "bot"}
	out := play(t, cfg, "5\nsave "+path+"\nquit\n")
	bottest.InOrder(t, out, "saved 3 moves to "+path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	games, err := env.ReadRecords(strings.NewReader(string(data)), nil)
	if err != nil || len(games) != 1 {
		t.Fatalf("saved record: %v\n%s", err, data)
	}
	g := games[0]
	if g.Tag("White") != "bot" || g.Tag("Black") != "you" || g.Tag("Date") != "2026.12.01" || g.Tag("Event") != "kumalak play" || len(g.Moves) != 3 || g.Moves[1].Pit() != 5 {
		t.Errorf("saved record:\n%s", data)
	}
	// Loaded, it is black's turn again, two moves later: the person plays on.
	out = play(t, Config{Spec: spec, Agent: a, Human: env.White}, "load "+path+"\nquit\n")
	bottest.InOrder(t, out, "loaded 3 moves from "+path+" (game 1)", "last move: white ", "your move (white)")
	other := filepath.Join(dir, "m.kgn")
	if err := os.WriteFile(other, []byte("[Game \"mangala\"]\n4 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out = play(t, cfg, "load "+filepath.Join(dir, "none.kgn")+"\nload "+other+"\nload "+path+" 2\nload\nsave "+dir+"\nquit\n")
	bottest.InOrder(t, out,
		"can't load: open ", "no such file",
		"can't load: game 1 of "+other+" is mangala, this is togyz",
		"can't load: "+path+" has 1 game, not a game 2",
		"load needs a file name",
		"can't save: ")
}
