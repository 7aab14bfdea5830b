package solve

import (
	"context"
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
	for _, c := range []JudgeConfig{{}, {Extra: 2}, {Tablebase: tb, Extra: -1}, {Tablebase: tb, Worst: -1}, {Extra: MaxStones + 1, Limit: time.Second}, {Extra: 12, Limit: -time.Second}} {
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
	if _, err := OpenJudge("togyz", dir, JudgeConfig{}); err == nil || !strings.Contains(err.Error(), "not togyz") {
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

// solverCase is a small random position of a game the solver plays.
type solverCase struct {
	name string
	next func(rng *rand.Rand) env.State // nil when the draw is not a position
}

// solverCases draws kale positions (castles included) and kalah ones of
// 3 to 10 stones on the board.
func solverCases(t *testing.T) []solverCase {
	return []solverCase{
		{"mangala-kale", func(rng *rand.Rand) env.State {
			if b := randomKale(t, rng, 3+rng.IntN(8)); b != nil {
				return b
			}
			return nil
		}},
		{"kalah", func(rng *rand.Rand) env.State {
			return boardOfK(t, randomPits(rng, 3+rng.IntN(8)))
		}},
	}
}

// TestJudgeBySolver: a judge without a tablebase judges kale and kalah
// positions of up to Extra stones, every move's value and the best one
// those of the solver's full solve; the worst move is a mistake that loses
// the difference, the best none; larger positions and togyz are not judged.
func TestJudgeBySolver(t *testing.T) {
	j := newJudge(t, JudgeConfig{Extra: 10, Limit: time.Minute, TTBits: 16})
	ref, err := New(Config{TTBits: 16})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range solverCases(t) {
		rng := rand.New(rand.NewPCG(36, uint64(len(c.name))))
		judged, mistakes := 0, 0
		for judged < 25 {
			st := c.next(rng)
			if st == nil || st.Result() != env.Ongoing {
				continue
			}
			r, err := ref.Solve(st, 0)
			if err != nil || !r.Exact() {
				t.Fatalf("%s %s: reference solve %+v (%v)", c.name, st, r, err)
			}
			var tally Tally
			for _, m := range r.Moves {
				v, ok := j.Verdict(st, m.Action)
				if !ok || v.Value != m.Lo || v.BestValue != r.Lo {
					t.Fatalf("%s %s move %d: verdict %+v (%v), want value %d, best %d", c.name, st, m.Action.Pit(), v, ok, m.Lo, r.Lo)
				}
				lost, ok := j.Record(&tally, st, m.Action)
				if len(r.Moves) > 1 && (!ok || lost != r.Lo-m.Lo) {
					t.Fatalf("%s %s move %d: recorded lost %d (%v), want %d", c.name, st, m.Action.Pit(), lost, ok, r.Lo-m.Lo)
				}
				if lost > 0 {
					mistakes++
				}
			}
			judged++
		}
		if mistakes == 0 {
			t.Errorf("%s: no move lost value in %d positions", c.name, judged)
		}
	}
	if got := j.Reach(mangala.KaleSpec); got != 10 {
		t.Errorf("reach in kale %d, want 10", got)
	}
	if _, ok := j.Check(mangala.KaleSpec.New(), 0); ok {
		t.Error("kale's 48 stones judged with Extra 10")
	}
	togyz, err := env.Lookup("togyz")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := j.Check(togyz.New(), 0); ok || j.Reach(togyz) != 0 {
		t.Errorf("togyz judged (reach %d)", j.Reach(togyz))
	}
}

// TestJudgeKalahTablebase: a kalah tablebase judges no classic mangala
// position (its values are not mangala's), and kalah's through the
// solver, which reads it: up to its stones with no Extra, so it needs a
// Limit; OpenJudge opens one for kalah.
func TestJudgeKalahTablebase(t *testing.T) {
	dir := t.TempDir()
	if _, err := Build(context.Background(), BuildConfig{Dir: dir, Game: KalahTB, Stones: 4, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	tb, err := OpenGame(dir, KalahTB, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if _, err := NewJudge(JudgeConfig{Tablebase: tb}); err == nil || !strings.Contains(err.Error(), "needs a Limit") {
		t.Errorf("a kalah tablebase without a Limit: %v", err)
	}
	alone := newJudge(t, JudgeConfig{Tablebase: tb, Limit: time.Minute, TTBits: 12})
	with := newJudge(t, JudgeConfig{Tablebase: tb, Extra: 2, Limit: time.Minute, TTBits: 12})
	q := Pits{1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0}
	classic, kb := boardOf(t, q, env.White, false), boardOfK(t, q)
	if _, ok := alone.Check(classic, 0); ok || alone.Reach(mangala.Spec) != 0 {
		t.Error("a kalah tablebase judged a classic mangala position")
	}
	big := boardOfK(t, Pits{1, 0, 2, 0, 1, 0, 0, 1, 1, 0, 2, 0})
	if _, ok := alone.Verdict(big, big.Legal(nil)[0]); ok {
		t.Errorf("%s (8 stones) judged within a 4-stone tablebase and no Extra", big)
	}
	for _, c := range []struct {
		j     *Judge
		reach int
	}{{alone, 4}, {with, 6}} {
		if _, ok := c.j.Check(kb, 0); !ok || c.j.Reach(kb.Spec()) != c.reach {
			t.Errorf("a kalah position of 4 stones not judged by the solver with the tablebase (reach %d, want %d)", c.j.Reach(kb.Spec()), c.reach)
		}
	}
	j, err := OpenJudge("kalah", dir, JudgeConfig{Limit: time.Minute, TTBits: 12})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	v, ok := j.Verdict(kb, kb.Legal(nil)[0])
	if w, wok := alone.Verdict(kb, kb.Legal(nil)[0]); !ok || !wok || v != w || j.Reach(kb.Spec()) != 4 {
		t.Errorf("OpenJudge of a kalah tablebase: %+v %v, want %+v (reach %d)", v, ok, w, j.Reach(kb.Spec()))
	}
	if _, err := OpenJudge("kalah:capture=empty", dir, JudgeConfig{Limit: time.Minute}); err == nil {
		t.Error("an opposite-capture tablebase opened for the empty-capture rule")
	}
}

// TestJudgeAllocates: after the first, judging a position by the
// tablebase or the solver allocates nothing.
func TestJudgeAllocates(t *testing.T) {
	tb := openShared(t, sharedStones)
	byTable := newJudge(t, JudgeConfig{Tablebase: tb})
	bySolver := newJudge(t, JudgeConfig{Extra: 10, Limit: time.Minute, TTBits: 12})
	classic := boardOf(t, Pits{1, 2, 0, 0, 1, 0, 1, 1, 1, 1, 0, 0}, env.White, false)
	kale, err := mangala.Parse("0,2,0,1,0,0/1,0,3,0,0,1 20 20 2 - w", true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		j  *Judge
		st env.State
	}{{byTable, classic}, {bySolver, classic}, {bySolver, kale}, {bySolver, boardOfK(t, Pits{1, 0, 2, 0, 1, 0, 0, 1, 1, 0, 2, 0})}} {
		a := c.st.Legal(nil)[0]
		if _, ok := c.j.Verdict(c.st, a); !ok {
			t.Fatalf("%s not judged", c.st)
		}
		if n := testing.AllocsPerRun(20, func() { c.j.Verdict(c.st, a) }); n != 0 {
			t.Errorf("%s: Verdict allocates %v times", c.st, n)
		}
	}
}

// TestOpenJudgeSolver: without a folder OpenJudge judges by the solver
// alone a game it plays; togyz and no Extra are refused.
func TestOpenJudgeSolver(t *testing.T) {
	j, err := OpenJudge(mangala.KaleSpec.Name, "", JudgeConfig{Extra: 12, Limit: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if c := j.Config(); c.Tablebase != nil || c.Extra != 12 || j.Reach(mangala.KaleSpec) != 12 || j.Reach(mangala.Spec) != 12 {
		t.Errorf("config %+v, reach %d", c, j.Reach(mangala.KaleSpec))
	}
	if err := j.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := OpenJudge("togyz", "", JudgeConfig{Extra: 12, Limit: time.Second}); err == nil || !strings.Contains(err.Error(), "the solver plays") || !strings.Contains(err.Error(), "not togyz") {
		t.Errorf("togyz: %v", err)
	}
	if _, err := OpenJudge("kalah", "", JudgeConfig{Limit: time.Second}); err == nil || !strings.Contains(err.Error(), "nothing could be judged") {
		t.Errorf("no Extra: %v", err)
	}
	if _, err := OpenJudge("mangala-kale", sharedDir(t), JudgeConfig{}); err == nil || !strings.Contains(err.Error(), "mangala-kale has no tablebases") {
		t.Errorf("a tablebase for kale: %v", err)
	}
}
