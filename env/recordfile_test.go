package env_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"kumalak/env"
	_ "kumalak/env/games" // registers every game
)

// twoGames is a record file of a togyz game and a mangala game from a
// position, with comments, a % escape line and an extra tag.
const twoGames = `% written by hand
[Event "club \"open\""]
[Site "Almaty"]
[Date "2026.12.01"]
[Round "1"]
[White "Ayan"]
[Black "kumalak"]
[Result "*"]
[Game "togyz"]

1. 21 65 {black takes} 2. 34 22x ; a tuzdyk
*

[Event "?"]
[Result "1-0"]
[Game "mangala"]
[Position "0,0,0,0,0,1/0,0,0,0,0,1 23 23 - - w"]
[Annotator "me"]

6 1-0
`

// playOKGame is the start of a game as PlayOK exports it: no Game tag,
// the mover's kazan in parentheses after a capture, X for a tuzdyk, a
// move pair wrapped across lines and a resignation before the end.
const playOKGame = `[Event "?"]
[Site "PlayOK"]
[Date "2025.08.26"]
[Round "-"]
[White "darru"]
[Black "harrison01"]
[Result "1-0"]
[Time "20:55:03"]
[TimeControl "180"]
[WhiteElo "1200"]
[BlackElo "1201"]

1. 76(10) 76(10) 2. 99 89(12) 3. 67 34(24) 4. 56X 47 5. 36
14X 6. 57 12 7. 74(20) 12 1-0
`

func TestReadRecords(t *testing.T) {
	games, err := env.ReadRecords(strings.NewReader(twoGames), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 {
		t.Fatalf("%d games, want 2", len(games))
	}
	g := games[0]
	if g.Spec.Name != "togyz" || g.Tag("Event") != `club "open"` || g.Tag("Black") != "kumalak" || g.Result != env.Ongoing || len(g.Moves) != 4 {
		t.Errorf("game 1: %+v", g)
	}
	if g.Tag("Position") != "" || g.Tag("Result") != "*" || g.Tag("Game") != "togyz" {
		t.Errorf("game 1 fields as tags: %q %q %q", g.Tag("Position"), g.Tag("Result"), g.Tag("Game"))
	}
	m := games[1]
	if m.Spec.Name != "mangala" || m.Result != env.WhiteWins || len(m.Moves) != 1 || m.Tag("Annotator") != "me" {
		t.Errorf("game 2: %+v", m)
	}
	if m.Tag("Position") != "0,0,0,0,0,1/0,0,0,0,0,1 23 23 - - w" {
		t.Errorf("game 2 position %q", m.Tag("Position"))
	}
}

func TestRecordRoundTrip(t *testing.T) {
	games, err := env.ReadRecords(strings.NewReader(twoGames), nil)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := env.WriteRecords(&sb, games...); err != nil {
		t.Fatal(err)
	}
	want := `[Event "club \"open\""]
[Site "Almaty"]
[Date "2026.12.01"]
[Round "1"]
[White "Ayan"]
[Black "kumalak"]
[Result "*"]
[Game "togyz"]

1. 21 65 2. 34 22x *

[Event "?"]
[Site "?"]
[Date "?"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1-0"]
[Game "mangala"]
[Position "0,0,0,0,0,1/0,0,0,0,0,1 23 23 - - w"]
[Annotator "me"]

6 1-0
`
	if sb.String() != want {
		t.Fatalf("written:\n%s\nwant:\n%s", sb.String(), want)
	}
	again, err := env.ReadRecords(strings.NewReader(sb.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	var sb2 strings.Builder
	if err := env.WriteRecords(&sb2, again...); err != nil || sb2.String() != want {
		t.Fatalf("second round: %v\n%s", err, sb2.String())
	}
}

// TestRecordLongGame round-trips whole games of every game, wrapped over
// lines, and one starting with black to move.
func TestRecordLongGame(t *testing.T) {
	for _, name := range env.Games() {
		spec, _ := env.Lookup(name)
		st := spec.New()
		g := &env.GameRecord{Spec: spec, Start: spec.New()}
		var buf [env.MaxActions]env.Action
		for i := 0; st.Result() == env.Ongoing; i++ {
			moves := st.Legal(buf[:0])
			a := moves[(i*7+3)%len(moves)]
			st.Apply(a)
			g.Moves = append(g.Moves, a)
		}
		g.Result = st.Result()
		text, err := g.Text()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, line := range strings.Split(text, "\n") {
			if len(line) > 79 {
				t.Errorf("%s: line of %d bytes: %q", name, len(line), line)
			}
		}
		back, err := env.ReadRecords(strings.NewReader(text), nil)
		if err != nil || len(back) != 1 || len(back[0].Moves) != len(g.Moves) || back[0].Result != g.Result {
			t.Fatalf("%s: read back %v, %v\n%s", name, back, err, text)
		}
		for i, a := range g.Moves {
			if back[0].Moves[i] != a {
				t.Fatalf("%s: move %d read back %d, want %d", name, i+1, back[0].Moves[i].Pit(), a.Pit())
			}
		}
	}
	spec, _ := env.Lookup("togyz")
	start, _ := spec.Start("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - b")
	g := &env.GameRecord{Spec: spec, Start: start, Moves: []env.Action{8, 0}}
	text, err := g.Text()
	if err != nil || !strings.Contains(text, "\n1... 98 2. ") {
		t.Fatalf("black first: %v\n%s", err, text)
	}
}

func TestRecordErrors(t *testing.T) {
	togyz, _ := env.Lookup("togyz")
	cases := []struct {
		text string
		def  *env.Spec
		err  string
	}{
		{"1. 76 98", nil, `env: record game 1, line 1: no Game tag (want one such as [Game "togyz"])`},
		{"[Game \"chess\"]\n1. e4", nil, `env: record game 1, line 1: tag Game: unknown game "chess" (known: kalah, mangala, mangala-kale, togyz)`},
		{"[Game \"togyz\"]\n\n1. 76 98 2. 55 12x *", nil, "env: record game 1, line 3: togyz: move 4 (12x): no tuzdyk was made"},
		{"1. 76\n98\n2. 55\n12x *", togyz, "env: record game 1, line 4: togyz: move 4 (12x): no tuzdyk was made"},
		{"[Game \"togyz\"]\n1. 76 *\n\n[Game \"mangala\"]\n\n4 7", nil, "env: record game 2, line 6: mangala: move 2 (7): illegal move: pit 7 out of range 1..6"},
		{"[Event \"a\"b\"]", togyz, `env: record game 1, line 1: tag Event: a quote inside the value must be written \"`},
		{"[Event a]", togyz, `env: record game 1, line 1: want a tag [Name "value"], got "[Event a]"`},
		{"[1x \"a\"]", togyz, `env: record game 1, line 1: tag name "1x": want letters, digits and _, starting with a letter`},
		{"[Event \"a\"]\n[Event \"b\"]", togyz, "env: record game 1, line 2: tag Event given twice"},
		{"[Result \"2-0\"]", togyz, "env: record game 1, line 1: tag Result: bad result \"2-0\" (want 1-0, 0-1, 1/2-1/2 or *)"},
		{"[Result \"1-0\"]\n1. 76 0-1", togyz, "env: record game 1, line 2: result 0-1, but the Result tag says 1-0"},
		{"1. 76 * 98", togyz, `env: record game 1, line 1: "98" after the result *`},
		{"1. 76 {open", togyz, "env: record game 1, line 1: a { comment is not closed by }"},
		{"[Position \"1,2/3\"]", togyz, `env: record game 1, line 1: tag Position: togyz: position "1,2/3": white store: missing; want 6 fields separated by single spaces`},
		{"", togyz, "env: record: no game found"},
	}
	for _, c := range cases {
		_, err := env.ReadRecords(strings.NewReader(c.text), c.def)
		if err == nil || err.Error() != c.err {
			t.Errorf("%q:\n got %v\nwant %s", c.text, err, c.err)
		}
	}
	if _, err := env.ReadRecords(strings.NewReader("1. 76"), nil); !errors.Is(err, env.ErrNoGame) {
		t.Errorf("no game: %v does not wrap ErrNoGame", err)
	}
	long := strings.Repeat("7 ", env.MaxRecordLine)
	if _, err := env.ReadRecords(strings.NewReader(long), togyz); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("long line: %v", err)
	}
}

func TestRecordWriteErrors(t *testing.T) {
	spec, _ := env.Lookup("mangala")
	start, _ := spec.Start("0,0,0,0,0,1/0,0,0,0,0,1 23 23 - - w")
	cases := []struct {
		g   env.GameRecord
		err string
	}{
		{env.GameRecord{Spec: spec, Moves: []env.Action{0, 6}}, "env: record: mangala: move 2 (pit 7): illegal move: pit 7 out of range 1..6"},
		{env.GameRecord{Spec: spec, Start: start, Moves: []env.Action{5}, Result: env.BlackWins}, "env: record: result 0-1, but the game ended 1-0"},
		{env.GameRecord{Spec: spec, Tags: []env.Tag{{"a b", "x"}}}, `env: record: tag name "a b": want letters, digits and _, starting with a letter`},
		{env.GameRecord{Spec: spec, Tags: []env.Tag{{"Event", "a\nb"}}}, "env: record: tag Event: value has a line break"},
	}
	for _, c := range cases {
		_, err := c.g.Text()
		if err == nil || err.Error() != c.err {
			t.Errorf("%+v:\n got %v\nwant %s", c.g, err, c.err)
		}
	}
	if err := env.WriteRecords(failWriter{}, &env.GameRecord{Spec: spec}); err == nil || !strings.Contains(err.Error(), "write record") {
		t.Errorf("failing writer: %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, io.ErrShortWrite }

func TestRecordReaderNext(t *testing.T) {
	spec, _ := env.Lookup("mangala")
	r := env.NewRecordReader(strings.NewReader("4 3 *\n6 1\n\n2"), spec)
	var n []int
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n = append(n, len(g.Moves))
	}
	if len(n) != 3 || n[0] != 2 || n[1] != 2 || n[2] != 1 {
		t.Errorf("games of %v moves, want [2 2 1]", n)
	}
}

func TestSetTag(t *testing.T) {
	spec, _ := env.Lookup("togyz")
	g := &env.GameRecord{Spec: spec}
	g.SetTag("White", "a")
	g.SetTag("White", "b")
	g.SetTag("Annotator", "c")
	if len(g.Tags) != 2 || g.Tag("White") != "b" || g.Tag("Annotator") != "c" || g.Tag("Black") != "" {
		t.Errorf("tags %v", g.Tags)
	}
	defer func() {
		if recover() == nil {
			t.Error("SetTag(Result) did not panic")
		}
	}()
	g.SetTag("Result", "1-0")
}

// FuzzReadRecords feeds the reader arbitrary text: it never panics, each
// error names the reader, and what it accepts writes and reads back the same.
func FuzzReadRecords(f *testing.F) {
	for _, s := range []string{twoGames, "1. 76 98 *", "[Game \"mangala-kale\"]\n4 3 {x} 1", "[Result \"1-0\"", "{\n}\n[a \"\\\\\"]", "4 3\n\n%x\n6",
		playOKGame, "[Game \"togyz\"]\n1. 76+10 98 2. 36x", "white 4↻ white 3 black 6+2", "[Result \"0-1\"]\n4\n3 0-1\n\n[Game \"togyz\"]\n… 76(10)"} {
		f.Add(s)
	}
	spec, _ := env.Lookup("mangala")
	f.Fuzz(func(t *testing.T, text string) {
		games, err := env.ReadRecords(strings.NewReader(text), spec)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "env: ") {
				t.Fatalf("%q: error %q does not name env", text, err)
			}
			return
		}
		var sb strings.Builder
		if err := env.WriteRecords(&sb, games...); err != nil {
			t.Fatalf("%q: read, but can't be written: %v", text, err)
		}
		back, err := env.ReadRecords(strings.NewReader(sb.String()), nil)
		if err != nil || len(back) != len(games) {
			t.Fatalf("%q: written as %q, read back %d games, %v", text, sb.String(), len(back), err)
		}
		var sb2 strings.Builder
		if err := env.WriteRecords(&sb2, back...); err != nil || sb2.String() != sb.String() {
			t.Fatalf("%q: second writing differs: %v\n%s\n%s", text, err, sb.String(), sb2.String())
		}
	})
}

// TestRecordReaderFrom: a record of the start's game without a Position
// tag starts there; a Position tag or another game's record does not.
func TestRecordReaderFrom(t *testing.T) {
	spec, _ := env.Lookup("mangala")
	from := spec.New()
	if err := env.Replay(from, []int{4}); err != nil {
		t.Fatal(err)
	}
	togyz, _ := env.Lookup("togyz")
	cases := []struct {
		text, game, start string
		moves             int
	}{
		{"3 1", "mangala", from.String(), 2},
		{"[Game \"mangala\"]\n\n3", "mangala", from.String(), 1},
		{"[Position \"" + spec.New().String() + "\"]\n\n4 3", "mangala", spec.New().String(), 2},
		{"[Game \"togyz\"]\n\n1. 76", "togyz", togyz.New().String(), 1},
	}
	for _, c := range cases {
		g, err := env.NewRecordReaderFrom(strings.NewReader(c.text), from).Next()
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if g.Spec.Name != c.game || g.StartState().String() != c.start || len(g.Moves) != c.moves {
			t.Errorf("%q: game %s from %s, %d moves; want %s from %s, %d", c.text, g.Spec.Name, g.StartState(), len(g.Moves), c.game, c.start, c.moves)
		}
	}
}
