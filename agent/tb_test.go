package agent

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"testing"

	"kumalak/env"
	"kumalak/env/mangala"
	"kumalak/env/togyz"
	"kumalak/mcts"
	"kumalak/solve"
	"kumalak/solve/solvetest"
)

// The tablebase of the tests (solvetest's): its levels, its folder, opened.
const tbStones = solvetest.Stones

func TestMain(m *testing.M) { os.Exit(solvetest.Main(m)) }

func tbDir(t testing.TB) string { t.Helper(); return solvetest.Dir(t) }

func openTB(t testing.TB) *solve.Tablebase { t.Helper(); return solvetest.Open(t) }

// newTBAgent builds spec with the test tablebase's folder.
func newTBAgent(t testing.TB, spec string, seed uint64) Agent {
	t.Helper()
	sp, err := ParseSpec(spec)
	if err == nil {
		sp, err = sp.WithTablebase(tbDir(t))
	}
	if err != nil {
		t.Fatal(err)
	}
	a, err := sp.New(mangala.Spec, seed)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c, ok := a.(interface{ Close() error }); ok {
			c.Close()
		}
	})
	return a
}

// endgameBoard plays random moves from the start until at most stones are
// left on the board, in a running game.
func endgameBoard(rng *rand.Rand, stones int) *mangala.Board {
	var buf [mangala.PitsPerSide]env.Action
	for {
		b := mangala.New(false)
		for b.Result() == env.Ongoing && mangala.Stones-b.Store(env.White)-b.Store(env.Black) > stones {
			legal := b.Legal(buf[:0])
			b.Apply(legal[rng.IntN(len(legal))])
		}
		if b.Result() == env.Ongoing {
			return b
		}
	}
}

// TestTBNeverLosesValue: in random tablebase positions the tb agent's move
// keeps the position's exact value, which its analysis reports.
func TestTBNeverLosesValue(t *testing.T) {
	tb := openTB(t)
	j, err := solve.NewJudge(solve.JudgeConfig{Tablebase: tb})
	if err != nil {
		t.Fatal(err)
	}
	a := newTBAgent(t, "tb", 1)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		b := endgameBoard(rng, tbStones)
		m, err := a.Move(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		lost, ok := j.Check(b, m)
		g, _ := tb.Probe(b)
		want := b.Store(b.ToMove()) - b.Store(b.ToMove().Other()) + g
		an := a.(Analyzer).Analysis()
		if !ok || lost != 0 || an.Score != float32(want) || !an.HasWDL || an.PV[0] != m {
			t.Fatalf("%s: move %d lost %d (%v); analysis %+v, exact value %d", b, m.Pit(), lost, ok, an, want)
		}
		if v, _ := tb.Exact(b); an.Value != v {
			t.Fatalf("%s: value %v, tablebase %v", b, an.Value, v)
		}
	}
}

// TestTBBeatsBaselines plays pairs of short games (one endgame, colours
// swapped) against random, greedy and ab: the tb agent scores at least
// half of every pair, and the judge finds no mistake in its moves, inside
// the tablebase or solved above it.
func TestTBBeatsBaselines(t *testing.T) {
	tb := openTB(t)
	j, err := solve.NewJudge(solve.JudgeConfig{Tablebase: tb, Extra: 4, Limit: 10e9})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, base := range []string{"random", "greedy", "ab:depth=4"} {
		var tally solve.Tally
		for pair := range 3 {
			start := endgameBoard(rng, tbStones+4)
			score := 0.0
			for _, tbWhite := range []bool{true, false} {
				players := [2]Agent{newTBAgent(t, "tb:time=10s", 7), newTBAgent(t, base, 8)}
				if !tbWhite {
					players[0], players[1] = players[1], players[0]
				}
				res := playOut(t, j, &tally, start, players, tbPlayer(tbWhite))
				score += float64(res.Value(tbPlayer(tbWhite))+1) / 2
			}
			if score < 1 {
				t.Errorf("tb vs %s, pair %d from %s: tb scored %.1f of 2", base, pair, start, score)
			}
		}
		if tally.Mistakes != 0 || tally.Judged+tally.Forced != tally.Moves || tally.Moves == 0 {
			t.Errorf("tb vs %s: tally %+v", base, tally)
		}
	}
}

func tbPlayer(white bool) env.Player {
	if white {
		return env.White
	}
	return env.Black
}

// playOut plays start to the end with players (white, black), judging the
// moves of judged into tally, and returns the result.
func playOut(t *testing.T, j *solve.Judge, tally *solve.Tally, start *mangala.Board, players [2]Agent, judged env.Player) env.Result {
	t.Helper()
	b := *start
	for b.Result() == env.Ongoing {
		a, err := players[b.ToMove()].Move(context.Background(), &b)
		if err != nil {
			t.Fatal(err)
		}
		if b.ToMove() == judged {
			j.Record(tally, &b, a)
		}
		b.Apply(a)
	}
	return b.Result()
}

// TestTBSolverOutside: without a tablebase the solver alone plays; with a
// time too short to prove anything it still plays a legal move.
func TestTBSolverOutside(t *testing.T) {
	a, err := New(mangala.Spec, "tb:time=1ms", 1)
	if err != nil {
		t.Fatal(err)
	}
	st := mangala.New(false)
	m, err := a.Move(context.Background(), st)
	if err != nil || st.Check(m) != nil {
		t.Fatalf("move %v, %v", m, err)
	}
	if _, err := New(mangala.KaleSpec, "tb:time=1ms", 1); err != nil {
		t.Errorf("kale: %v", err)
	}
}

// TestTBFallbackIsPlainAB: the middle game's alpha-beta evaluates and
// hashes as an "ab" spec with no keys does, on every game tb plays.
func TestTBFallbackIsPlainAB(t *testing.T) {
	for _, spec := range []*env.Spec{mangala.Spec, mangala.KaleSpec} {
		tb, err := New(spec, "tb:time=1ms", 1)
		if err != nil {
			t.Fatal(err)
		}
		ab, err := New(spec, "ab", 1)
		if err != nil {
			t.Fatal(err)
		}
		fb, plain := tb.(*tbAgent).fb, ab.(*alphaBeta)
		if fb.mob != plain.mob || fb.mib != plain.mib || (fb.tt == nil) != (plain.tt == nil) {
			t.Errorf("%s: fallback mob %d, table %d MiB; ab's %d, %d MiB", spec.Name, fb.mob, fb.mib, plain.mob, plain.mib)
		}
	}
}

// TestTBSpecs: tb takes only mangala, a real folder, and WithTablebase
// gives the folder to the kinds that take one.
func TestTBSpecs(t *testing.T) {
	dir := tbDir(t)
	for _, bad := range []string{"tb:dir=/nonexistent", "tb:tt=0", "tb:depth=3"} {
		if _, err := New(mangala.Spec, bad, 1); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if _, err := New(togyz.Spec, "tb", 1); err == nil {
		t.Error("tb built for togyz")
	}
	if _, err := New(togyz.Spec, "mcts:tablebase="+dir, 1); err == nil {
		t.Error("a mangala tablebase given to a togyz search")
	}
	cases := []struct{ in, want string }{
		{"tb:time=2s", "tb:dir=" + dir + ",time=2s"},
		{"mcts:sims=10", "mcts:sims=10,tablebase=" + dir},
		{"mcts:tablebase=other", "mcts:tablebase=other"},
		{"ab:depth=3", "ab:depth=3"},
	}
	for _, c := range cases {
		sp, _ := ParseSpec(c.in)
		got, err := sp.WithTablebase(dir)
		if err != nil || got.String() != c.want {
			t.Errorf("%s with %s: %v (%v), want %s", c.in, dir, got, err, c.want)
		}
	}
	if sp, _ := ParseSpec("tb"); must(sp.WithTablebase("a,b")) == nil {
		t.Error("a folder with a comma accepted")
	}
	for in, want := range map[string]string{"mcts:sims=10": "mcts:sims=10,tablebase=" + dir, "ab:depth=3": "ab:depth=3", "nonsense:x": "nonsense:x"} {
		if got, err := SpecWithTablebase(in, dir); err != nil || got != want {
			t.Errorf("SpecWithTablebase(%s): %s, %v, want %s", in, got, err, want)
		}
	}
	if got, err := SpecWithTablebase("mcts", ""); err != nil || got != "mcts" {
		t.Errorf("no folder: %s, %v", got, err)
	}
	if _, err := SpecWithTablebase("tb", "a,b"); err == nil {
		t.Error("SpecWithTablebase: a folder with a comma accepted")
	}
}

// must returns the error of a two-result call, for table checks.
func must(_ Spec, err error) error { return err }

// TestMCTSWithTablebase: an mcts agent with tablebase= proves tablebase
// positions at the root and plays a move that keeps their value.
func TestMCTSWithTablebase(t *testing.T) {
	tb := openTB(t)
	j, _ := solve.NewJudge(solve.JudgeConfig{Tablebase: tb})
	a := newTBAgent(t, "mcts:sims=3000", 2)
	rng := rand.New(rand.NewPCG(9, 10))
	for range 20 {
		b := endgameBoard(rng, 8)
		m, err := a.Move(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := tb.Exact(b)
		an := a.(Analyzer).Analysis()
		if lost, _ := j.Check(b, m); an.Value != v || isDecisive(tb, b, m, v) {
			t.Fatalf("%s: value %v (tablebase %v), move %d lost %d", b, an.Value, v, m.Pit(), lost)
		}
	}
	var _ mcts.Oracle = tb
}

// isDecisive reports whether move m of b changes the result v: the MCTS
// solver keeps results, not stones.
func isDecisive(tb *solve.Tablebase, b *mangala.Board, m env.Action, v float32) bool {
	c := *b
	c.Apply(m)
	w, _ := tb.Exact(&c)
	if c.ToMove() != b.ToMove() {
		w = -w
	}
	return w != v
}

// TestSearchPerfectInTablebase: an mcts search with the tablebase as its
// oracle proves wins and losses alone, so it could win by fewer stones
// than it might; at a root inside the tablebase it plays a move of the
// best exact value, and its analysis leads with that move.
func TestSearchPerfectInTablebase(t *testing.T) {
	tb := openTB(t)
	j, err := solve.NewJudge(solve.JudgeConfig{Tablebase: tb})
	if err != nil {
		t.Fatal(err)
	}
	a := newTBAgent(t, "mcts:sims=64,reuse=false", 1)
	rng := rand.New(rand.NewPCG(5, 6))
	choices := 0
	for range 200 {
		b := endgameBoard(rng, tbStones)
		var buf [mangala.PitsPerSide]env.Action
		if len(b.Legal(buf[:0])) > 1 {
			choices++
		}
		m, err := a.Move(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		if lost, ok := j.Check(b, m); !ok || lost != 0 {
			t.Fatalf("%s: move %d lost %d stones (judged %v)", b, m.Pit(), lost, ok)
		}
		if an := a.(Analyzer).Analysis(); an.PV[0] != m {
			t.Fatalf("%s: played %d, analysis line %v", b, m.Pit(), an.PV)
		}
	}
	if choices < 100 {
		t.Fatalf("only %d of 200 positions had a choice", choices)
	}
}

// TestAutoTablebase: tablebase=auto gives a mangala or kalah search the
// cached tablebase (built once, in the test's cache folder), gives none to a
// togyz search or to a level (whose ratings were measured without), and
// off gives none; the tb agent takes auto as its dir.
func TestAutoTablebase(t *testing.T) {
	t.Setenv(solve.EnvCache, t.TempDir())
	old := solve.CacheLog
	solve.CacheLog = io.Discard
	t.Cleanup(func() { solve.CacheLog = old })
	oracle := func(g *env.Spec, spec string) bool {
		t.Helper()
		a, err := New(g, spec, 1)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		defer Close(a)
		switch x := a.(type) {
		case *searcher:
			return x.tb != nil
		case *levelAgent:
			return x.searcher.tb != nil
		case *tbAgent:
			return x.tb != nil
		}
		t.Fatalf("%s: a %T", spec, a)
		return false
	}
	for _, c := range []struct {
		game *env.Spec
		spec string
		want bool
	}{
		{mangala.Spec, "mcts:sims=10,tablebase=auto:6", true},
		{mangala.Spec, "mcts:sims=10,tablebase=off", false},
		{togyz.Spec, "mcts:sims=10,tablebase=auto:6", false},
		{mangala.Spec, "tb:dir=auto:6", true},
		{mangala.Spec, "model:level=3,tablebase=auto:6", false},
		{kalahSpec(t), "mcts:sims=10,tablebase=auto:6", true},
		{kalahSpec(t), "model:sims=10,tablebase=auto:6", true},
		{kalahSpec(t), "tb:dir=auto:6", true},
	} {
		if got := oracle(c.game, c.spec); got != c.want {
			t.Errorf("%s on %s: a tablebase %v, want %v", c.spec, c.game.Name, got, c.want)
		}
	}
	if _, err := New(mangala.Spec, "mcts:tablebase=auto:99", 1); err == nil {
		t.Error("auto:99 accepted")
	}
}

// SpecsWithTablebase gives the specs a folder, leaves them as written
// where the value gives nothing (off, or auto for a game no tablebase
// answers), and refuses a bad folder.
func TestSpecsWithTablebase(t *testing.T) {
	mangala, _ := env.Lookup("mangala")
	togyz, _ := env.Lookup("togyz")
	for _, c := range []struct {
		game  *env.Spec
		dir   string
		wantA string
	}{
		{mangala, "tbdir", "mcts:sims=10,tablebase=tbdir"},
		{mangala, "off", "mcts:sims=10"},
		{mangala, "", "mcts:sims=10"},
		{togyz, "auto", "mcts:sims=10"},
		{kalahSpec(t), "auto", "mcts:sims=10,tablebase=auto"},
	} {
		a, b := "mcts:sims=10", "random"
		if err := SpecsWithTablebase(c.game, c.dir, &a, &b); err != nil || a != c.wantA || b != "random" {
			t.Errorf("%s %q: %s, %s, %v; want %s, random", c.game.Name, c.dir, a, b, err, c.wantA)
		}
	}
	a := "tb"
	if err := SpecsWithTablebase(mangala, "a,b", &a); err == nil {
		t.Error("a folder with a comma accepted")
	}
}

// kalahSpec is Kalah(6,4).
func kalahSpec(t *testing.T) *env.Spec {
	t.Helper()
	s, err := env.Lookup("kalah")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
