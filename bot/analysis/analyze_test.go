package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"kumalak/agent"
	"kumalak/bot/bottest"
	"kumalak/env"
	"kumalak/env/envtest"
)

// staged holds a game of each kind whose first move is a blunder: the
// mover had a win (found by alpha-beta at depth 10) and plays a loss; the
// rest is the best play.
const staged = `[Game "mangala"]
[Position "1,0,0,1,2,2/0,0,0,1,0,1 20 20 - - w"]

1 6 4 0-1

[Game "mangala-kale"]
[Position "0,1,1,0,0,1/1,5,0,0,0,8 20 11 - 4 b"]

6 6 6 6 2 5 2 6 3 3 6 1 3 3 4 2 4 2 5 1 5 2 6 3 6 1-0

[Game "togyz"]
[Position "0,0,0,0,0,0,0,2,6/0,0,0,1,1,0,1,1,1 77 72 1 3 w"]

1. 89 45 2. 96 78 3. 91 57 4. 89 67 5. 91 45 0-1
`

func stagedGames(t *testing.T) []*env.GameRecord {
	t.Helper()
	games, err := env.ReadRecords(strings.NewReader(staged), nil)
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// TestAnalyzeStagedBlunders: the staged blunder, and only it, is marked,
// by alpha-beta (whose proven results are probabilities) and by MCTS.
func TestAnalyzeStagedBlunders(t *testing.T) {
	for _, g := range stagedGames(t) {
		for _, spec := range []string{"ab:depth=10", "mcts:sims=3000"} {
			an, err := Analyze(context.Background(), Config{Game: g, Agent: spec, Seed: 1})
			if err != nil {
				t.Fatalf("%s %s: %v", g.Spec.Name, spec, err)
			}
			if !an.Probabilities || len(an.Moves) != len(g.Moves) {
				t.Fatalf("%s %s: %+v", g.Spec.Name, spec, an)
			}
			if m := an.Moves[0]; m.Mark != Blunder || m.Loss < 0.5 {
				t.Errorf("%s %s: the staged blunder is %+v", g.Spec.Name, spec, m)
			}
			for _, m := range an.Moves[1:] {
				if spec[:2] == "ab" && m.Mark != Good {
					t.Errorf("%s %s: best play marked: %+v", g.Spec.Name, spec, m)
				}
			}
			mover := 0
			if an.Moves[0].Mover == "black" {
				mover = 1
			}
			if an.Summary[mover].Blunders < 1 {
				t.Errorf("%s %s: summary %+v", g.Spec.Name, spec, an.Summary)
			}
		}
	}
}

func TestAnalyzeTextAndJSON(t *testing.T) {
	g := stagedGames(t)[2]
	an, err := Analyze(context.Background(), Config{Game: g, Agent: "ab:depth=10"})
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := an.WriteText(&sb); err != nil {
		t.Fatal(err)
	}
	bottest.InOrder(t, sb.String(), "togyz: ? (white) vs ? (black), 0-1; 10 moves judged by ab:depth=10",
		"ply  move", "1    1. 89    100%  0%     100%  +1.00  -1.00  95", "blunder ??",
		"white: 5 moves, 0 inaccuracies, 0 mistakes, 1 blunders")
	b, err := json.Marshal(an)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Moves []struct {
			Mark   string
			Best   string
			Before struct {
				WinProb *float32 `json:"win_prob"`
			}
		}
		Probabilities bool
	}
	if err := json.Unmarshal(b, &back); err != nil || !back.Probabilities || back.Moves[0].Mark != "blunder" || back.Moves[0].Best != "95" || *back.Moves[0].Before.WinProb != 1 {
		t.Errorf("JSON %s: %v", b, err)
	}
	if back.Moves[1].Mark != "" {
		t.Errorf("JSON mark of a good move: %q", back.Moves[1].Mark)
	}
}

// TestAnalyzeNoProbabilities: alpha-beta's value in a game without a
// calibration is no probability, so the table has values and no marks.
func TestAnalyzeNoProbabilities(t *testing.T) {
	spec := envtest.Kalah3
	moves, err := spec.ParseMoves(spec.New(), "1 3")
	if err != nil {
		t.Fatal(err)
	}
	an, err := Analyze(context.Background(), Config{Game: &env.GameRecord{Spec: spec, Moves: moves}, Agent: "ab:depth=2"})
	if err != nil {
		t.Fatal(err)
	}
	if an.Probabilities || an.Moves[0].Before.WinProb != nil || an.Moves[0].Mark != Good {
		t.Errorf("%+v", an.Moves[0])
	}
	var sb strings.Builder
	if err := an.WriteText(&sb); err != nil {
		t.Fatal(err)
	}
	bottest.InOrder(t, sb.String(), "no win probabilities", "ply  move     value  after  best  line\n", "1    white 1", "2    white 3")
	if strings.Contains(sb.String(), "win%") {
		t.Errorf("probability columns without probabilities:\n%s", sb.String())
	}
}

func TestWinProbHook(t *testing.T) {
	cases := []struct {
		kind string
		r    agent.Analysis
		ok   bool
	}{
		{"ab", agent.Analysis{Value: 0.3, WinProb: 0.65}, false},
		{"ab", agent.Analysis{Value: 0.3, WinProb: 0.65, HasWDL: true}, true},
		{"ab", agent.Analysis{Value: 1, WinProb: 1}, true},
		{"ab", agent.Analysis{Value: -1, WinProb: 0}, true},
		{"mcts", agent.Analysis{Value: 0.3, WinProb: 0.65}, true},
		{"model", agent.Analysis{Value: -0.5, WinProb: 0.25}, true},
	}
	for _, c := range cases {
		p, ok := WinProb(c.kind, c.r)
		if ok != c.ok || ok && p != c.r.WinProb {
			t.Errorf("WinProb(%s, %+v) = %v, %v", c.kind, c.r, p, ok)
		}
	}
}

// TestAnalyzeForcedAndExact: a position with one legal move takes the
// value of the next; the Exact hook replaces the search's values.
func TestAnalyzeForcedAndExact(t *testing.T) {
	spec, _ := env.Lookup("mangala")
	// White has only pit 5; black then moves.
	start, err := spec.Start("0,0,0,0,2,0/4,4,4,4,4,4 12 10 - - w")
	if err != nil {
		t.Fatal(err)
	}
	g := &env.GameRecord{Spec: spec, Start: start, Moves: []env.Action{4, 1}}
	an, err := Analyze(context.Background(), Config{Game: g, Agent: "mcts:sims=200", Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	m := an.Moves[0]
	if m.Loss != 0 || m.Before.Value != m.After.Value || m.Best != "5" {
		t.Errorf("forced move: %+v", m)
	}
	calls := 0
	exact := func(st env.State) (float32, bool) { calls++; return 0, true }
	an, err = Analyze(context.Background(), Config{Game: g, Agent: "mcts:sims=50", Exact: exact})
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 || !an.Moves[1].Before.Exact || an.Moves[1].Before.Value != 0 || *an.Moves[1].Before.WinProb != 0.5 {
		t.Errorf("exact: %d calls, %+v", calls, an.Moves[1])
	}
}

func TestAnalyzeErrors(t *testing.T) {
	g := stagedGames(t)[0]
	bad := *g
	bad.Moves = []env.Action{0, 0, 0, 0}
	cases := []struct {
		cfg Config
		err string
	}{
		{Config{Agent: "ab"}, "analysis: no game"},
		{Config{Game: g, Agent: "random"}, "reports no values"},
		{Config{Game: g, Agent: "nope"}, "analysis: "},
		{Config{Game: &bad, Agent: "ab"}, "analysis: mangala: move 2"},
		{Config{Game: g, Agent: "ab", Thresholds: Thresholds{0.3, 0.2, 0.1}}, "want 0 < inaccuracy <= mistake <= blunder <= 1"},
	}
	for _, c := range cases {
		_, err := Analyze(context.Background(), c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, Config{Game: stagedGames(t)[1], Agent: "mcts:sims=100000"}); err == nil {
		t.Error("cancelled analysis succeeded")
	}
}

func TestThresholdsMark(t *testing.T) {
	th := DefaultThresholds()
	for _, c := range []struct {
		loss float32
		want Mark
	}{{0, Good}, {0.049, Good}, {0.05, Inaccuracy}, {0.1, Mistake}, {0.19, Mistake}, {0.2, Blunder}, {1, Blunder}} {
		if got := th.Mark(c.loss); got != c.want {
			t.Errorf("Mark(%g) = %v, want %v", c.loss, got, c.want)
		}
	}
	if Blunder.Symbol() != "??" || Mistake.Symbol() != "?" || Inaccuracy.Symbol() != "?!" || Good.String() != "" {
		t.Error("mark names")
	}
}

func TestParseThresholds(t *testing.T) {
	for _, c := range []struct {
		in, err string
		want    Thresholds
	}{
		{in: "0.05,0.1,0.2", want: DefaultThresholds()},
		{in: " 0.1 , 0.1,1", want: Thresholds{Inaccuracy: 0.1, Mistake: 0.1, Blunder: 1}},
		{in: "0.05,0.1", err: `analysis: "0.05,0.1": want three numbers, e.g. 0.05,0.1,0.2`},
		{in: "0.05,x,0.2", err: `analysis: "0.05,x,0.2": "x" is not a number (want three, e.g. 0.05,0.1,0.2)`},
		{in: "0.2,0.1,0.3", err: "analysis: thresholds 0.2/0.1/0.3: want 0 < inaccuracy <= mistake <= blunder <= 1"},
		{in: "0,0.1,0.2", err: "analysis: thresholds 0/0.1/0.2: want 0 < inaccuracy <= mistake <= blunder <= 1"},
		{in: "NaN,0.1,0.2", err: "analysis: thresholds NaN/0.1/0.2: want 0 < inaccuracy <= mistake <= blunder <= 1"},
	} {
		got, err := ParseThresholds(c.in)
		if c.err != "" {
			if _, ok := errors.AsType[*ValueError](err); !ok || err.Error() != c.err {
				t.Errorf("%q: %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %+v, %v, want %+v", c.in, got, err, c.want)
		}
	}
}

// FuzzParseThresholds: what ParseThresholds accepts is valid and reads
// back the same from its own writing.
func FuzzParseThresholds(f *testing.F) {
	for _, s := range []string{"0.05,0.1,0.2", "1,1,1", "0.2,0.1,0.3", ",,", "1e-3, 2e-3 ,0.5", "NaN,1,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		th, err := ParseThresholds(s)
		if err != nil {
			return
		}
		if err := th.Validate(); err != nil {
			t.Fatalf("%q: accepted %+v: %v", s, th, err)
		}
		again, err := ParseThresholds(fmt.Sprintf("%g,%g,%g", th.Inaccuracy, th.Mistake, th.Blunder))
		if err != nil || again != th {
			t.Fatalf("%q: %+v reads back as %+v, %v", s, th, again, err)
		}
	})
}

// TestMoveNumbers: moves are numbered as records number them: togyz in
// pairs (from black too), mangala not at all, since an extra turn gives a
// player two moves in a row (white's 4 ends in the store, white plays 3).
func TestMoveNumbers(t *testing.T) {
	tests := []struct {
		game, start string
		pits        []int
		want        []string
	}{
		{"togyz", "", []int{7, 9, 5}, []string{"1.", "1...", "2."}},
		{"togyz", "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - b", []int{1, 2, 3}, []string{"1...", "2.", "2..."}},
		{"mangala", "", []int{4, 3, 6, 1}, []string{"", "", "", ""}},
		{"mangala-kale", "", []int{4, 3}, []string{"", ""}},
	}
	for _, tt := range tests {
		spec, err := env.Lookup(tt.game)
		if err != nil {
			t.Fatal(err)
		}
		start, err := spec.Start(tt.start)
		if err != nil {
			t.Fatal(err)
		}
		moves := make([]env.Action, len(tt.pits))
		for i, p := range tt.pits {
			moves[i] = env.Action(p - 1)
		}
		if got := moveNumbers(start, moves); strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%s %v: numbers %q, want %q", tt.game, tt.pits, got, tt.want)
		}
	}
}

// TestAnalyzeMangalaLabels: the table names mangala's moves by their mover,
// an extra turn giving two rows of white, and the JSON gives no number.
func TestAnalyzeMangalaLabels(t *testing.T) {
	games, err := env.ReadRecords(strings.NewReader("[Game \"mangala\"]\n\n4 3 6 1 *\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	an, err := Analyze(context.Background(), Config{Game: games[0], Agent: "ab:depth=2"})
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := an.WriteText(&sb); err != nil {
		t.Fatal(err)
	}
	bottest.InOrder(t, sb.String(), "1    white 4", "2    white 3", "3    black 6", "4    white 1")
	for _, m := range an.Moves {
		if m.Number != "" {
			t.Errorf("ply %d numbered %q", m.Ply, m.Number)
		}
	}
}

// TestAnalyzeVerdict marks by the exact values where a verdict knows them:
// the position, where both of white's moves are worth -2, gives
// no mark whatever the search estimates, and the only legal move after it
// is forced.
func TestAnalyzeVerdict(t *testing.T) {
	spec, _ := env.Lookup("mangala")
	start, err := spec.Start("0,0,0,1,0,1/0,0,0,0,3,0 22 21 - - w")
	if err != nil {
		t.Fatal(err)
	}
	g := &env.GameRecord{Spec: spec, Start: start, Moves: []env.Action{5, 3}}
	for _, c := range []struct {
		played, best int
		mark         Mark
	}{{-2, -2, Good}, {-2, 2, Blunder}, {0, 2, Mistake}, {1, 3, Inaccuracy}} {
		verdict := func(env.State, env.Action) (int, int, bool) { return c.played, c.best, true }
		an, err := Analyze(context.Background(), Config{Game: g, Agent: "ab:depth=2", Verdict: verdict})
		if err != nil {
			t.Fatal(err)
		}
		m := an.Moves[0]
		if !m.Exact || m.Value != c.played || m.BestValue != c.best || m.Mark != c.mark || m.Forced {
			t.Errorf("verdict %d/%d: %+v, want mark %v", c.played, c.best, m, c.mark)
		}
		if f := an.Moves[1]; !f.Forced || f.Mark != Good || f.Loss != 0 {
			t.Errorf("the only legal move: %+v", f)
		}
	}
}

func TestExactMark(t *testing.T) {
	for _, c := range []struct {
		played, best int
		want         Mark
	}{{2, 2, Good}, {4, 2, Good}, {2, 6, Inaccuracy}, {-6, -2, Inaccuracy}, {0, 2, Mistake}, {-2, 0, Mistake}, {-2, 2, Blunder}} {
		if got := ExactMark(c.played, c.best); got != c.want {
			t.Errorf("ExactMark(%d, %d) = %v, want %v", c.played, c.best, got, c.want)
		}
	}
}

// TestAnalyzeNeverMarksBest: alpha-beta values the played move in the
// search of the position before it, so no move equal to the engine's best
// is marked, and the best move's before and after agree (the issue's
// depth-6 check on the examples, at depths of both parities).
func TestAnalyzeNeverMarksBest(t *testing.T) {
	f, err := os.Open("../../docs/examples/games.kgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := env.ReadRecords(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, depth := range []int{3, 4} {
		an, err := Analyze(context.Background(), Config{Game: games[0], Agent: fmt.Sprintf("ab:depth=%d", depth)})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range an.Moves {
			if m.Move != m.Best {
				continue
			}
			if m.Mark != Good || m.Loss != 0 || (m.Before.WinProb != nil && m.After.WinProb != nil && *m.Before.WinProb != *m.After.WinProb && !m.Before.Exact) {
				t.Errorf("depth %d, ply %d: the best move %s marked %v, loss %v, before %+v after %+v", depth, m.Ply, m.Move, m.Mark, m.Loss, m.Before, m.After)
			}
		}
	}
}
