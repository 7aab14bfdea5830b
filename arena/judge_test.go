package arena

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"kumalak/env"
	_ "kumalak/env/games" // registers every game
	"kumalak/solve"
	"kumalak/solve/solvetest"
)

func TestMain(m *testing.M) { os.Exit(solvetest.Main(m)) }

// judgedGame returns a record of a mangala game inside the test
// tablebase: white and black play the first legal pit to the end after a
// one-move opening.
func judgedGame(t *testing.T, white, black string, index int) *Record {
	t.Helper()
	spec, _ := env.Lookup("mangala")
	const start = "1,0,0,1,2,2/0,0,0,1,0,1 20 20 - - w"
	st, err := spec.Start(start)
	if err != nil {
		t.Fatal(err)
	}
	r := &Record{Index: index, Game: spec.Name, White: white, Black: black, Start: start, Opening: []int{6}}
	if err := env.Replay(st, r.Opening); err != nil {
		t.Fatal(err)
	}
	var buf [env.MaxActions]env.Action
	for st.Result() == env.Ongoing {
		a := st.Legal(buf[:0])[0]
		r.Moves = append(r.Moves, a.Pit())
		st.Apply(a)
	}
	r.Result, r.Final = st.Result().String(), st.String()
	return r
}

// TestJudgeLog: every move after the opening lands in its player's tally,
// the players in order, and the games go on to the inner writer.
func TestJudgeLog(t *testing.T) {
	spec, _ := env.Lookup("mangala")
	j, err := solve.NewJudge(solve.JudgeConfig{Tablebase: solvetest.Open(t)})
	if err != nil {
		t.Fatal(err)
	}
	var jsonBuf, textBuf bytes.Buffer
	cases := []struct {
		name  string
		inner io.Writer
		check func() bool // what the inner writer got
	}{
		{"nil", nil, func() bool { return true }},
		{"json", &jsonBuf, func() bool { return strings.Count(jsonBuf.String(), "\n") == 3 }},
		{"logs", &Logs{Text: &textBuf, Spec: spec}, func() bool { return strings.Count(textBuf.String(), "[White ") == 3 }},
	}
	for _, c := range cases {
		l := NewJudgeLog(c.inner, spec, j, "a", "b")
		games := []*Record{judgedGame(t, "a", "b", 0), judgedGame(t, "b", "a", 1), judgedGame(t, "c", "a", 2)}
		moves := map[string]int{}
		for _, g := range games {
			if err := l.LogGame(g); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			st, played, _ := g.Replay(spec)
			for _, a := range played {
				name := g.Black
				if st.ToMove() == env.White {
					name = g.White
				}
				moves[name]++
				st.Apply(a)
			}
		}
		players := l.Players()
		if len(players) != 3 || players[0].Player != "a" || players[1].Player != "b" || players[2].Player != "c" {
			t.Fatalf("%s: players %+v", c.name, players)
		}
		for _, p := range players {
			if p.Moves != moves[p.Player] || p.Judged > p.Moves || p.Rate != l.Tally(p.Player).Rate() {
				t.Errorf("%s: %s's tally %+v, want %d moves", c.name, p.Player, p.Summary, moves[p.Player])
			}
		}
		if !c.check() {
			t.Errorf("%s: the inner writer got %q %q", c.name, jsonBuf.String(), textBuf.String())
		}
	}
	bad := judgedGame(t, "a", "b", 3)
	bad.Moves[0] = 9
	if err := NewJudgeLog(nil, spec, j).LogGame(bad); err == nil || !strings.Contains(err.Error(), "pit 9 out of range") {
		t.Errorf("a bad record: %v", err)
	}
}

// TestJudgeGame: a record judged whole tallies each side's moves as white
// and black, in a report that names the judge's setting, as a JudgeLog's
// report of the same game does for its players.
func TestJudgeGame(t *testing.T) {
	spec, _ := env.Lookup("mangala")
	tb := solvetest.Open(t)
	j, err := solve.NewJudge(solve.JudgeConfig{Tablebase: tb, Extra: 1, Limit: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r := judgedGame(t, "a", "b", 0)
	st, moves, err := r.Replay(spec)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := JudgeGame(j, &env.GameRecord{Spec: spec, Start: st, Moves: moves})
	if err != nil {
		t.Fatal(err)
	}
	l := NewJudgeLog(nil, spec, j, "a", "b")
	if err := l.LogGame(r); err != nil {
		t.Fatal(err)
	}
	logged := l.Report()
	if rep.Tablebase != tb.Dir() || rep.Stones != tb.Stones() || rep.Extra != 1 || logged.Tablebase != rep.Tablebase || logged.Extra != 1 {
		t.Errorf("setting %+v, logged %+v", rep, logged)
	}
	if len(rep.Players) != 2 || rep.Players[0].Player != "white" || rep.Players[1].Player != "black" ||
		rep.Players[0].Moves+rep.Players[1].Moves != len(moves) {
		t.Fatalf("players %+v of %d moves", rep.Players, len(moves))
	}
	for i := range 2 {
		if rep.Players[i].Summary.Moves != logged.Players[i].Summary.Moves || rep.Players[i].Mistakes != logged.Players[i].Mistakes {
			t.Errorf("%s: %+v, logged %+v", rep.Players[i].Player, rep.Players[i], logged.Players[i])
		}
	}
	moves[0] = env.Action(8)
	if _, err := JudgeGame(j, &env.GameRecord{Spec: spec, Start: st, Moves: moves}); err == nil || !strings.HasPrefix(err.Error(), "arena: judge: ") {
		t.Errorf("an illegal move: %v", err)
	}
}

// TestOpenJudge: neither flag gives no judge; --judge-extra alone judges
// kale and kalah by the solver; togyz and a tablebase for kale are errors
// naming the flag.
func TestOpenJudge(t *testing.T) {
	kale, _ := env.Lookup("mangala-kale")
	togyz, _ := env.Lookup("togyz")
	if j, err := OpenJudge(kale, "", solve.JudgeConfig{Limit: time.Second}); j != nil || err != nil {
		t.Errorf("no flag: %v, %v", j, err)
	}
	cfg := solve.JudgeConfig{Extra: 12, Limit: 50 * time.Millisecond}
	for _, name := range []string{"mangala", "mangala-kale", "kalah"} {
		spec, _ := env.Lookup(name)
		j, err := OpenJudge(spec, "", cfg)
		if err != nil || j.Reach(spec) != 12 || j.Config().Tablebase != nil {
			t.Fatalf("%s --judge-extra 12: %v", name, err)
		}
	}
	for _, c := range []struct {
		game  *env.Spec
		dir   string
		limit time.Duration
		want  string
	}{
		{togyz, "", time.Second, "--judge-extra: solve: judge: the solver plays "},
		{kale, solvetest.Dir(t), time.Second, "--judge: solve: mangala-kale has no tablebases"},
		{kale, "", 0, "--judge-time 0s: "},
	} {
		cfg := solve.JudgeConfig{Extra: 12, Limit: c.limit}
		if _, err := OpenJudge(c.game, c.dir, cfg); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s %q: %v, want %q", c.game.Name, c.dir, err, c.want)
		}
	}
}

// TestJudgeGameBySolver: a kale game judged by the solver alone tallies
// its moves and says so in its report.
func TestJudgeGameBySolver(t *testing.T) {
	spec, _ := env.Lookup("mangala-kale")
	j, err := OpenJudge(spec, "", solve.JudgeConfig{Extra: 12, Limit: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	st, err := spec.Start("0,2,0,1,0,0/1,0,3,0,0,1 20 20 2 - w")
	if err != nil {
		t.Fatal(err)
	}
	var moves []env.Action
	var buf [env.MaxActions]env.Action
	for c := env.Clone(st); c.Result() == env.Ongoing; {
		legal := c.Legal(buf[:0])
		a := legal[len(legal)-1]
		moves = append(moves, a)
		c.Apply(a)
	}
	rep, err := JudgeGame(j, &env.GameRecord{Spec: spec, Start: st, Moves: moves})
	if err != nil {
		t.Fatal(err)
	}
	p := rep.Players
	if p[0].Moves+p[1].Moves != len(moves) || p[0].Judged+p[1].Judged+p[0].Forced+p[1].Forced != len(moves) || p[0].Judged == 0 {
		t.Errorf("players %+v of %d moves: every move judged or forced", p, len(moves))
	}
	var b strings.Builder
	rep.WriteText(&b)
	if rep.Tablebase != "" || rep.Extra != 12 || rep.Time != "1m0s" || !strings.HasPrefix(b.String(), "judge    solver, positions of up to 12 stones, 1m0s each\n") {
		t.Errorf("report %+v:\n%s", rep, b.String())
	}
}
