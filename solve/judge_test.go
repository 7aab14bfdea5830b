package solve

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/env/mangala"
)

func newJudge(t testing.TB, cfg JudgeConfig) *Judge {
	t.Helper()
	j, err := NewJudge(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// blunderPosition returns a tablebase position with a move that loses
// value, that move, and its values and the best one.
func blunderPosition(t *testing.T, tb *Tablebase, rng *rand.Rand) (*mangala.Board, MoveValue, MoveValue) {
	t.Helper()
	for range 1000 {
		p := randomPits(rng, 8)
		if _, over := p.Terminal(); over {
			continue
		}
		b := boardOf(t, p, env.White, false)
		moves, _ := tb.Moves(b, nil)
		best := slices.MaxFunc(moves, func(x, y MoveValue) int { return x.Lo - y.Lo })
		worst := slices.MinFunc(moves, func(x, y MoveValue) int { return x.Lo - y.Lo })
		if worst.Lo < best.Lo {
			return b, worst, best
		}
	}
	t.Fatal("no position with a losing move")
	return nil, MoveValue{}, MoveValue{}
}

// TestJudgeStagedBlunder plays the worst move of a position and the best
// one: the judge counts one mistake, losing exactly the difference.
func TestJudgeStagedBlunder(t *testing.T) {
	tb := openShared(t, sharedStones)
	j := newJudge(t, JudgeConfig{Tablebase: tb})
	b, worst, best := blunderPosition(t, tb, rand.New(rand.NewPCG(1, 2)))
	var tally Tally
	if lost, ok := j.Record(&tally, b, best.Action); !ok || lost != 0 {
		t.Fatalf("best move %d: lost %d, ok %v", best.Action.Pit(), lost, ok)
	}
	lost, ok := j.Record(&tally, b, worst.Action)
	if !ok || lost != best.Lo-worst.Lo || lost <= 0 {
		t.Fatalf("worst move %d of %s: lost %d (%v), want %d", worst.Action.Pit(), b, lost, ok, best.Lo-worst.Lo)
	}
	want := Tally{Moves: 2, Judged: 2, Mistakes: 1, Lost: lost}
	if tally.Moves != want.Moves || tally.Judged != want.Judged || tally.Mistakes != 1 || tally.Lost != lost ||
		len(tally.Worst) != 1 || tally.Worst[0].Position != b.String() || tally.Worst[0].Pit != worst.Action.Pit() {
		t.Fatalf("tally %+v, want %+v with the blunder", tally, want)
	}
	if tally.Rate() != 0.5 || tally.LostPerMistake() != float64(lost) {
		t.Errorf("rate %g, lost per mistake %g", tally.Rate(), tally.LostPerMistake())
	}
}

// TestVerdictTurns: a mistake turns the result when it leaves a worse one
// under perfect play; winning or losing by other margins does not.
func TestVerdictTurns(t *testing.T) {
	for _, c := range []struct {
		value, best int
		turns       bool
	}{
		{4, 4, false},   // the best move
		{2, 6, false},   // a smaller win
		{0, 2, true},    // a win to a draw
		{-2, 2, true},   // a win to a loss
		{-2, 0, true},   // a draw to a loss
		{-8, -2, false}, // a bigger loss
		{0, 0, false},   // a draw kept
	} {
		v := Verdict{Value: c.value, BestValue: c.best}
		if v.Turns() != c.turns {
			t.Errorf("value %+d, best %+d: turns %v, want %v", c.value, c.best, v.Turns(), c.turns)
		}
	}
}

// TestJudgeOutside: positions outside the tablebase, other games and
// finished games are not judged; the solver extends the reach.
func TestJudgeOutside(t *testing.T) {
	tb := openShared(t, 6)
	j := newJudge(t, JudgeConfig{Tablebase: tb})
	start := mangala.New(false)
	var tally Tally
	if _, ok := j.Record(&tally, start, 0); ok || tally.Moves != 1 || tally.Judged != 0 {
		t.Errorf("start position judged: %+v", tally)
	}
	if _, ok := j.Check(env.Clone(mangala.KaleSpec.New()), 0); ok {
		t.Error("kale position judged by a classic tablebase")
	}
	p := Pits{1, 2, 0, 0, 1, 0, 1, 1, 1, 1, 0, 0} // 8 stones
	b := boardOf(t, p, env.White, false)
	if _, ok := j.Check(b, 0); ok {
		t.Error("8 stones judged by a 6-stone tablebase")
	}
	far := newJudge(t, JudgeConfig{Tablebase: tb, Extra: 2, Limit: time.Minute})
	full := openShared(t, sharedStones)
	exact := newJudge(t, JudgeConfig{Tablebase: full})
	for _, a := range b.Legal(nil) {
		got, ok1 := far.Check(b, a)
		want, ok2 := exact.Check(b, a)
		if !ok1 || !ok2 || got != want {
			t.Errorf("move %d of %s: the solver judges %d (%v), the tablebase %d (%v)", a.Pit(), b, got, ok1, want, ok2)
		}
	}
}

// TestJudgeConfig refuses configs that judge nothing or have no limit.
func TestJudgeConfig(t *testing.T) {
	tb := openShared(t, 4)
	for _, c := range []JudgeConfig{{}, {Extra: 2}, {Tablebase: tb, Extra: -1}, {Tablebase: tb, Worst: -1}} {
		if _, err := NewJudge(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// TestTallyWorst keeps the worst mistakes, most stones lost first, and
// Merge adds tallies.
func TestTallyWorst(t *testing.T) {
	a := Tally{keep: 3}
	for _, l := range []int{2, 6, 4, 6, 1} {
		a.addWorst(Mistake{Lost: l, Pit: l})
	}
	var got []int
	for _, m := range a.Worst {
		got = append(got, m.Lost)
	}
	if !slices.Equal(got, []int{6, 6, 4}) {
		t.Fatalf("worst %v, want [6 6 4]", got)
	}
	b := Tally{Moves: 3, Judged: 2, Mistakes: 1, Lost: 8, Turned: 1, keep: 3, Worst: []Mistake{{Lost: 8}}}
	a.Merge(&b)
	if a.Moves != 3 || a.Lost != 8 || a.Turned != 1 || a.Worst[0].Lost != 8 || len(a.Worst) != 3 {
		t.Errorf("merged %+v", a)
	}
}

// TestJudgeGame judges a random game, move by move, into its movers'
// tallies; perfect play by both loses nothing.
func TestJudgeGame(t *testing.T) {
	tb := openShared(t, sharedStones)
	j := newJudge(t, JudgeConfig{Tablebase: tb})
	b, _, _ := blunderPosition(t, tb, rand.New(rand.NewPCG(3, 4)))
	var moves []env.Action
	st := env.Clone(b)
	for st.Result() == env.Ongoing {
		mv, _ := tb.Moves(st.(*mangala.Board), nil)
		best := slices.MaxFunc(mv, func(x, y MoveValue) int { return x.Lo - y.Lo })
		moves = append(moves, best.Action)
		st.Apply(best.Action)
	}
	var tallies [2]Tally
	if err := j.Game(b, moves, &tallies); err != nil {
		t.Fatal(err)
	}
	if n := tallies[0].Moves + tallies[1].Moves; n != len(moves) || tallies[0].Judged+tallies[1].Judged+tallies[0].Forced+tallies[1].Forced != n {
		t.Fatalf("tallies %+v for %d moves", tallies, len(moves))
	}
	if tallies[0].Mistakes+tallies[1].Mistakes != 0 {
		t.Errorf("perfect play has mistakes: %+v", tallies)
	}
	if err := j.Game(b, []env.Action{moves[0], 99}, &tallies); err == nil {
		t.Error("an illegal move was judged")
	}
}

// TestSolverOnPlayouts is the cross-check of the solver's published
// figures: 200 positions from random playouts of the full game, each taken
// when 9 or 10 stones are left on the board, are solved with the
// tablebase cut to 7 stones; the values equal the 10-stone tablebase's.
func TestSolverOnPlayouts(t *testing.T) {
	if testing.Short() {
		t.Skip("solves 200 positions")
	}
	full := openShared(t, sharedStones)
	s := newSolver(t, openShared(t, 7))
	rng := rand.New(rand.NewPCG(13, 14))
	var buf [rowPits]env.Action
	for n := 0; n < 200; {
		b := mangala.New(false)
		for b.Result() == env.Ongoing && stonesOf(b) > 8+rng.IntN(3) {
			legal := b.Legal(buf[:0])
			b.Apply(legal[rng.IntN(len(legal))])
		}
		if b.Result() != env.Ongoing || stonesOf(b) > sharedStones {
			continue
		}
		n++
		r, err := s.Solve(b, 0)
		want, _ := full.Moves(b, nil)
		if err != nil || !r.Exact() || !slices.Equal(r.Moves, want) {
			t.Fatalf("%s: solver %+v (%v), tablebase %v", b, r, err, want)
		}
	}
}

// TestExactAllocates nothing: it is an MCTS oracle, called per new node.
func TestExactAllocates(t *testing.T) {
	tb := openShared(t, sharedStones)
	b := boardOf(t, Pits{1, 2, 0, 0, 1, 0, 1, 1, 1, 1, 0, 0}, env.White, false)
	var st env.State = b
	if n := testing.AllocsPerRun(100, func() { tb.Exact(st) }); n != 0 {
		t.Errorf("Exact allocates %v times", n)
	}
	if v, ok := tb.Exact(st); !ok || v < -1 || v > 1 {
		t.Errorf("Exact %v %v", v, ok)
	}
}

// TestJudgeForced counts the only legal move apart from the judged choices.
func TestJudgeForced(t *testing.T) {
	tb := openShared(t, sharedStones)
	j := newJudge(t, JudgeConfig{Tablebase: tb})
	b, err := mangala.Parse("0,0,0,1,0,1/0,0,0,0,3,0 22 21 - - w", false)
	if err != nil {
		t.Fatal(err)
	}
	var tallies [2]Tally
	if err := j.Game(b, []env.Action{5, 3}, &tallies); err != nil { // 6, then 4 alone
		t.Fatal(err)
	}
	if w := tallies[env.White]; w.Moves != 2 || w.Forced != 1 || w.Judged != 1 || w.Mistakes != 0 {
		t.Errorf("tally %+v, want 2 moves, 1 forced, 1 judged, no mistake", w)
	}
}

// TestOpenJudge: the judge OpenJudge makes judges by the tablebase in the
// folder and closes it; a game without tablebases and a folder without
// one are errors.
func TestOpenJudge(t *testing.T) {
	dir := sharedDir(t)
	j, err := OpenJudge(mangala.Spec.Name, dir, JudgeConfig{Extra: 2, Limit: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	c := j.Config()
	if c.Tablebase == nil || c.Tablebase.Dir() != dir || c.Extra != 2 || c.Worst != 5 {
		t.Errorf("config %+v", c)
	}
	b, worst, best := blunderPosition(t, c.Tablebase, rand.New(rand.NewPCG(1, 2)))
	if lost, ok := j.Check(b, worst.Action); !ok || lost != best.Lo-worst.Lo {
		t.Errorf("worst move: lost %d (%v), want %d", lost, ok, best.Lo-worst.Lo)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if len(c.Tablebase.maps) != 0 {
		t.Error("Close left the tablebase open")
	}
	if err := j.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	if _, err := OpenJudge("togyz", dir, JudgeConfig{}); err == nil || err.Error() != "solve: judge: tablebases are of mangala, not togyz" {
		t.Errorf("togyz: %v", err)
	}
	if _, err := OpenJudge(mangala.Spec.Name, t.TempDir(), JudgeConfig{}); err == nil {
		t.Error("a folder without a tablebase: no error")
	}
	if _, err := OpenJudge(mangala.Spec.Name, dir, JudgeConfig{Extra: 2}); err == nil || !strings.Contains(err.Error(), "Limit") {
		t.Errorf("Extra without a Limit: %v", err)
	}
	if err := newJudge(t, JudgeConfig{Tablebase: c.Tablebase}).Close(); err != nil {
		t.Errorf("NewJudge's Close: %v", err)
	}
}
