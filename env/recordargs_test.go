package env_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kumalak/env"
)

// The arguments name a record file, standard input or moves; a position
// goes with moves only.
func TestReadGames(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "two.kgn")
	rec := "[Game \"mangala\"]\n\n1. 3 6 *\n\n[Game \"mangala\"]\n\n1. 4 *\n"
	if err := os.WriteFile(file, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		a     env.GameArgs
		games int
		moves int    // of the first game
		err   string // "" = none
	}{
		{"moves", env.GameArgs{Args: []string{"3", "6", "1"}, Game: "mangala"}, 1, 3, ""},
		{"one word of moves", env.GameArgs{Args: []string{"3 6"}, Game: "mangala"}, 1, 2, ""},
		{"file", env.GameArgs{Args: []string{file}, Game: "togyz"}, 2, 2, ""},
		{"stdin", env.GameArgs{Args: []string{"-"}, Stdin: strings.NewReader(rec), Game: "togyz"}, 2, 2, ""},
		{"position and moves", env.GameArgs{Args: []string{"6"}, Game: "mangala", Position: "0,0,0,0,0,1/1,0,0,0,0,0 23 23 - - w"}, 1, 1, ""},
		{"position and file", env.GameArgs{Args: []string{file}, Game: "mangala", Position: "x"}, 0, 0, "a position goes with moves"},
		{"no file", env.GameArgs{Args: []string{filepath.Join(dir, "none.kgn")}, Game: "mangala"}, 0, 0, "no such file"},
		{"bad record", env.GameArgs{Args: []string{"-"}, Stdin: strings.NewReader("[Game \"mangala\"]\n\n1. 9 *\n"), Game: "mangala"}, 0, 0, "-: "},
		{"unknown game", env.GameArgs{Args: []string{"3"}, Game: "chess"}, 0, 0, "unknown game"},
		{"bad position", env.GameArgs{Args: []string{"3"}, Game: "mangala", Position: "nonsense"}, 0, 0, "mangala"},
		{"illegal move", env.GameArgs{Args: []string{"1"}, Game: "mangala", Position: "0,0,0,0,0,1/1,0,0,0,0,0 23 23 - - w"}, 0, 0, "pit is empty"},
	}
	for _, c := range cases {
		games, err := env.ReadGames(c.a)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want an error with %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || len(games) != c.games || len(games[0].Moves) != c.moves {
			t.Errorf("%s: %d games, %v; want %d games, the first of %d moves", c.name, len(games), err, c.games, c.moves)
		}
	}
	_, err := env.ReadGames(env.GameArgs{Args: []string{file}, Game: "mangala", Position: "x"})
	if !errors.Is(err, env.ErrPositionWithRecord) {
		t.Errorf("position with a file: %v, want ErrPositionWithRecord", err)
	}
}

// Where a game ends: the position, result, termination, board and, for
// a game with a notation, its record.
func TestWriteFinal(t *testing.T) {
	cases := []struct {
		game, moves string
		want        []string
		none        string
	}{
		{"togyz", "7 9 5 5", []string{"result *\n", "record 1. ", " *\n"}, "termination"},
		{"mangala", "3 6 1 1-0", []string{"result 1-0\n", "termination "}, "record "},
	}
	for _, c := range cases {
		games, err := env.ReadGames(env.GameArgs{Args: strings.Fields(c.moves), Game: c.game})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := games[0].WriteFinal(&b); err != nil {
			t.Fatal(err)
		}
		st, _ := games[0].Final()
		out := b.String()
		if !strings.HasPrefix(out, st.String()+"\n") || !strings.Contains(out, env.Drawing(st)) {
			t.Errorf("%s: no position or board in\n%s", c.game, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", c.game, w, out)
			}
		}
		if strings.Contains(out, c.none) {
			t.Errorf("%s: %q in\n%s", c.game, c.none, out)
		}
	}
	spec, err := env.Lookup("mangala")
	if err != nil {
		t.Fatal(err)
	}
	bad := &env.GameRecord{Spec: spec, Moves: []env.Action{40}}
	if err := bad.WriteFinal(&strings.Builder{}); err == nil {
		t.Error("an illegal move: no error")
	}
}

// A player as a person names one.
func TestParsePlayer(t *testing.T) {
	for _, c := range []struct {
		s    string
		want env.Player
		ok   bool
	}{
		{"w", env.White, true}, {"White", env.White, true}, {"B", env.Black, true}, {"black", env.Black, true},
		{"", 0, false}, {"x", 0, false}, {"whit", 0, false},
	} {
		got, err := env.ParsePlayer(c.s)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("%q: %v, %v; want %v (ok %v)", c.s, got, err, c.want, c.ok)
		}
	}
}

// A position for a person: the board, its string, and who moves with the
// legal moves, or the result of a finished game.
func TestWritePosition(t *testing.T) {
	spec, err := env.Lookup("mangala")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ pos, want string }{
		{"", "white to move; legal moves: 1 2 3 4 5 6\n"},
		{"0,0,0,0,0,1/1,0,0,0,0,0 23 23 - - b", "black to move; legal moves: 1\n"},
		{"0,0,0,0,0,0/0,0,0,0,0,0 25 23 - - w", "game over: 1-0\n"},
	} {
		st, err := spec.Start(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		env.WritePosition(&b, st)
		if want := env.Drawing(st) + "position " + st.String() + "\n" + c.want; b.String() != want {
			t.Errorf("%q:\n%s\nwant\n%s", c.pos, b.String(), want)
		}
	}
}

// Perft's report: a line per depth with the leaf count of env.Perft.
func TestWritePerft(t *testing.T) {
	spec, err := env.Lookup("mangala")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	env.WritePerft(&b, spec.New(), 3)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), b.String())
	}
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) != 5 || f[0] != fmt.Sprint(i+1) || f[1] != fmt.Sprint(env.Perft(spec.New(), i+1)) || !strings.HasSuffix(f[2], "s") {
			t.Errorf("line %d: %q", i+1, l)
		}
	}
}

// Several games' ends, a blank line between them.
func TestWriteFinals(t *testing.T) {
	games, err := env.ReadGames(env.GameArgs{Args: []string{"3"}, Game: "mangala"})
	if err != nil {
		t.Fatal(err)
	}
	var one, two strings.Builder
	if err := env.WriteFinals(&one, games...); err != nil {
		t.Fatal(err)
	}
	if err := env.WriteFinals(&two, games[0], games[0]); err != nil {
		t.Fatal(err)
	}
	if two.String() != one.String()+"\n"+one.String() {
		t.Errorf("two games:\n%s", two.String())
	}
}
