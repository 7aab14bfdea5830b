package protocol

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"kumalak/env"
)

func TestParseCommand(t *testing.T) {
	cases := []struct {
		line string
		want Command
		out  string // Format of the result; "" = the line itself
	}{
		{"kumalak", Hello{}, ""},
		{"UCI", Hello{UCI: true}, "uci"},
		{"isready", IsReady{}, ""},
		{"setoption name Sims value 400", SetOption{Name: "sims", Value: "400"}, "setoption name sims value 400"},
		{"setoption name x value a  b", SetOption{Name: "x", Value: "a b"}, "setoption name x value a b"},
		{"setoption name button", SetOption{Name: "button"}, ""},
		{"newgame", NewGame{}, ""},
		{"ucinewgame mangala", NewGame{Game: "mangala"}, "newgame mangala"},
		{"position startpos moves 7 3", Position{Moves: []int{7, 3}}, "position start moves 7 3"},
		{"position start moves", Position{}, "position start"},
		{"position 9,9/9,9 0 0 - - W moves 1", Position{Start: "9,9/9,9 0 0 - - w", Moves: []int{1}}, "position fen 9,9/9,9 0 0 - - w moves 1"},
		{"go", Go{}, ""},
		{"go ponder wtime 100", Go{Ponder: true, Time: [2]time.Duration{100 * time.Millisecond}}, "go wtime 100 ponder"},
		{"ponderhit", PonderHit{}, ""},
		{"go nodes 50 movetime 100 infinite", Go{Sims: 50, MoveTime: 100 * time.Millisecond, Infinite: true}, "go sims 50 movetime 100 infinite"},
		{"go btime 1000 wtime 2000 binc 5 winc 6 movestogo 10 depth 4", Go{Depth: 4, MovesToGo: 10,
			Time: [2]time.Duration{env.White: 2 * time.Second, env.Black: time.Second},
			Inc:  [2]time.Duration{env.White: 6 * time.Millisecond, env.Black: 5 * time.Millisecond}},
			"go depth 4 wtime 2000 btime 1000 winc 6 binc 5 movestogo 10"},
		{"stop", Stop{}, ""},
		{"show", Show{}, "d"},
		{"help", Help{}, ""},
		{"Quit", Quit{}, "quit"},
	}
	for _, c := range cases {
		checkParse(t, ParseCommand, c.line, c.want, c.out)
	}
}

func TestParseCommandErrors(t *testing.T) {
	bad := map[string]string{
		"":                          "protocol: empty line",
		"frobnicate":                `protocol: unknown command "frobnicate" (try help)`,
		"position":                  "protocol: position: want position start|fen",
		"position fen":              "protocol: position: want position start|fen",
		"position start moves 7 x":  `protocol: position: move 2 ("x"): not a pit number`,
		"go sims":                   `protocol: go: "sims" needs a number (want go [sims N] [movetime MS] [depth D]`,
		"go sims -4":                `protocol: go: sims "-4": not a whole number in 0..2147483647`,
		"go movetime 99999999999":   `protocol: go: movetime "99999999999"`,
		"go ponder 3":               `protocol: go: "3" needs a number`,
		"go movetime 100 sims 50 x": `protocol: go: "x" needs a number`,
		"setoption sims 4":          "protocol: setoption: want setoption name <id> value <v>",
		"setoption name a b":        "protocol: setoption: want",
		"newgame togyz mangala":     "protocol: newgame: want newgame [game]",
	}
	for line, want := range bad {
		if _, err := ParseCommand(line); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ParseCommand(%q): %v, want %q", line, err, want)
		}
	}
}

func TestParseAnswer(t *testing.T) {
	cases := []struct {
		line string
		want Answer
		out  string
	}{
		{"id name kumalak ab:depth=3", ID{Key: IDName, Value: "kumalak ab:depth=3"}, ""},
		{"id games mangala togyz", ID{Key: IDGames, Value: "mangala togyz"}, ""},
		{"option name sims type spin default 0 min 0 max 10000000", Option{Name: "sims", Type: Spin, Default: "0", Max: 10000000}, ""},
		{"option name game type combo default togyz var mangala var togyz", Option{Name: "game", Type: Combo, Default: "togyz", Vars: []string{"mangala", "togyz"}}, ""},
		{"option name Clear Hash type button", Option{Name: "clear hash", Type: Button}, "option name clear hash type button"},
		{"kumalakok", HelloOK{}, ""},
		{"uciok", HelloOK{UCI: true}, ""},
		{"readyok", ReadyOK{}, ""},
		{"info depth 3 nodes 120 value 0.25 winprob 0.625 time 7 pv 5 1", Info{Has: InfoDepth | InfoNodes | InfoValue | InfoWinProb | InfoTime | InfoPV,
			Depth: 3, Nodes: 120, Value: 0.25, WinProb: 0.625, Time: 7 * time.Millisecond, PV: []int{5, 1}},
			"info depth 3 nodes 120 value 0.2500 winprob 0.6250 time 7 pv 5 1"},
		{"info visits 58 bogus 9 value -0.12345", Info{Has: InfoVisits | InfoValue, Visits: 58, Value: -0.1235}, "info visits 58 value -0.1235"},
		{"info multipv 2 depth 9 seldepth 14 nodes 5000 score -1.5 wdl 120 30 850 value -0.73 winprob 0.135 nps 250000 hashfull 17 time 20 pv 3 4",
			Info{Has: InfoMultiPV | InfoDepth | InfoSelDepth | InfoNodes | InfoScore | InfoWDL | InfoValue | InfoWinProb | InfoNPS | InfoHashFull | InfoTime | InfoPV,
				MultiPV: 2, Depth: 9, SelDepth: 14, Nodes: 5000, Score: -1.5, WDL: [3]int{120, 30, 850}, Value: -0.73, WinProb: 0.135, NPS: 250000, HashFull: 17,
				Time: 20 * time.Millisecond, PV: []int{3, 4}},
			"info multipv 2 depth 9 seldepth 14 nodes 5000 score -1.5000 wdl 120 30 850 value -0.7300 winprob 0.1350 nps 250000 hashfull 17 time 20 pv 3 4"},
		{"info depth 5 mate -7 value -1", Info{Has: InfoDepth | InfoMate | InfoValue, Depth: 5, Mate: -7, Value: -1}, "info depth 5 mate -7 value -1.0000"},
		{"info", Info{}, ""},
		{"info move 5 share 0.3704 value 0.0267", MoveInfo{Pit: 5, Share: 0.3704, Value: 0.0267}, ""},
		{"info string depth ignored", InfoString{Text: "depth ignored"}, ""},
		{"bestmove 5", BestMove{Pit: 5}, ""},
		{"bestmove 5 ponder 2", BestMove{Pit: 5, Ponder: 2}, ""},
		{"bestmove none", BestMove{}, ""},
		{"error go: no", Error{Text: "go: no"}, ""},
		{"   black |  9 | 9 |", Raw{Line: "black | 9 | 9 |"}, "black | 9 | 9 |"},
	}
	for _, c := range cases {
		checkParse(t, ParseAnswer, c.line, c.want, c.out)
	}
	for _, line := range []string{"info depth x", "info value NaN", "info value 1e9", "info pv 1 x", "info depth", "info wdl 1 2", "info wdl 1 2 1001",
		"info hashfull 1001", "info multipv 0", "info mate x", "info seldepth -1",
		"bestmove", "bestmove 0", "bestmove 3 4", "info move", "info move 3 share", "info move 3 bogus 1",
		"option name x type spin", "option name x type check min 1 max 2", "option type spin min 0 max 1",
		"option name x type combo var", "option name x name y type button", "option name x type string var a", "id"} {
		if a, err := ParseAnswer(line); err == nil {
			t.Errorf("ParseAnswer(%q) = %#v, want an error", line, a)
		}
	}
}

// FuzzParseCommand holds ParseCommand to its round trip: whatever parses
// formats to a line that parses to the same command.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"kumalak", "position fen 9,9/9,9 0 0 - - w moves 1 2", "go sims 5 wtime 100 infinite", "go ponder movetime 5", "ponderhit",
		"setoption name a value b c", "ucinewgame togyz", "go depth 99999999999", "position start moves 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := ParseCommand(line)
		if err != nil {
			return
		}
		out := c.Format()
		back, err := ParseCommand(out)
		if err != nil || !reflect.DeepEqual(back, c) {
			t.Fatalf("%q parsed to %#v, formatted %q, parsed back to %#v, %v", line, c, out, back, err)
		}
	})
}

// FuzzParseAnswer holds ParseAnswer to its round trip.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{"info depth 3 value 0.12345 pv 1 2", "option name a type spin default 1 min 0 max 9",
		"option name g type combo var a b var c", "bestmove 3 ponder 1", "info move 2 share 1 value -1", "id name x",
		"info string hi", "info value 9999999.5", "info wdl 1 2 3 mate -4 hashfull 9 multipv 2 pv 1", "black | 9 |"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		a, err := ParseAnswer(line)
		if err != nil {
			return
		}
		out := a.Format()
		back, err := ParseAnswer(out)
		if err != nil || !reflect.DeepEqual(back, a) {
			t.Fatalf("%q parsed to %#v, formatted %q, parsed back to %#v, %v", line, a, out, back, err)
		}
	})
}

// checkParse checks that parse reads line as want and that want's Format
// writes out ("" = the line itself), for commands and answers alike.
func checkParse[T interface{ Format() string }](t *testing.T, parse func(string) (T, error), line string, want T, out string) {
	t.Helper()
	got, err := parse(line)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("parse(%q) = %#v, %v; want %#v", line, got, err, want)
		return
	}
	if out == "" {
		out = line
	}
	if f := got.Format(); f != out {
		t.Errorf("Format of %q = %q, want %q", line, f, out)
	}
}

// TestClientBadBestMove: a bestmove that does not parse fails the search
// at once, quoting the line, instead of waiting out the move's time; a
// malformed info line before it is skipped.
func TestClientBadBestMove(t *testing.T) {
	for _, line := range []string{"bestmove 0", "bestmove x", "BESTMOVE 3 4"} {
		c := NewClient(io.Discard, strings.NewReader("info move\n"+line+"\nbestmove 3\n"))
		_, err := c.Search(context.Background(), Position{}, Go{Sims: 1}, time.Second, func(Answer) {})
		if !errors.Is(err, ErrBadAnswer) || !strings.Contains(err.Error(), strconv.Quote(line)) {
			t.Errorf("%q: %v, want ErrBadAnswer quoting the line", line, err)
		}
	}
}
