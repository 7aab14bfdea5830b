package agent

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/env/envtest"
	"kumalak/mcts"
	"kumalak/net"
)

// TestLevelsWeakenTogether: from level to level down, the search never
// grows and the margin and temperature never shrink, and the top level
// is the agent's full search with no chance in its choice.
func TestLevelsWeakenTogether(t *testing.T) {
	considered := func(l Level) int {
		if l.Consider == 0 {
			return 1 << 30
		}
		return l.Consider
	}
	for _, game := range []string{"togyz", "mangala", "mangala-kale", "kalah"} {
		levels := levelsOf(game)
		for n := 2; n <= MaxLevel; n++ {
			a, b := levels[n-2], levels[n-1]
			if b.Sims <= a.Sims || considered(b) < considered(a) || b.Margin > a.Margin || b.Temp > a.Temp || a.Solver && !b.Solver {
				t.Errorf("%s: level %d %+v is not stronger in every way than level %d %+v", game, n, b, n-1, a)
			}
		}
		top := levels[MaxLevel-1]
		if top.Consider != 0 || top.Temp != 0 || !top.Solver || top.Sims != DefaultModelSims {
			t.Errorf("%s: level %d %+v, want the model agent's own search", game, MaxLevel, top)
		}
		if l, err := LevelOf(game, 4); err != nil || l != levels[3] {
			t.Errorf("LevelOf(%s, 4): %+v, %v", game, l, err)
		}
	}
	for _, n := range []int{0, MaxLevel + 1} {
		if _, err := LevelOf("togyz", n); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("LevelOf(%d): %v", n, err)
		}
	}
}

// TestLevelSpec: level= builds a level agent searching the level's
// simulations; the keys a level sets, two levels, or a level out of
// range are refused, naming them.
func TestLevelSpec(t *testing.T) {
	levels := levelsOf(envtest.Kalah3.Name)
	ag, err := New(envtest.Kalah3, "model:level=3,threads=1", 1)
	if err != nil {
		t.Fatal(err)
	}
	la, ok := ag.(*levelAgent)
	if !ok || la.Limits().Sims != levels[2].Sims || la.Level() != levels[2] {
		t.Fatalf("model:level=3 built %T with limits %+v", ag, ag.(Limiter).Limits())
	}
	for spec, want := range map[string]string{
		"model:level=0":          "level=0 out of range 1..10",
		"model:level=x":          "level=x: not an integer",
		"model:level=2,sims=50":  "sims= and a level",
		"model:level=2,temp=1":   "temp= and a level",
		"model:level=2,solver=1": "solver= and a level",
		"model:level=2,elo=100":  "give one",
		"model:elo=100":          "not measured",
		"model:elo=abc":          "elo=abc: not a number",
		"model:level=2,hash=0":   "hash=0 out of range",
	} {
		if _, err := New(envtest.Kalah3, spec, 1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("New(%q): %v, want %q", spec, err, want)
		}
	}
}

// TestLevelLimits: a time or fewer simulations shorten a level's search;
// more simulations than the level's are refused; none gives the level's.
func TestLevelLimits(t *testing.T) {
	levels := levelsOf(envtest.Kalah3.Name)
	ag, err := New(envtest.Kalah3, "model:level=5", 1)
	if err != nil {
		t.Fatal(err)
	}
	sims := levels[4].Sims
	if _, err := SetLimits(ag, Limits{Time: time.Second}); err != nil {
		t.Fatal(err)
	}
	if got := ag.(Limiter).Limits(); got != (Limits{Sims: sims, Time: time.Second}) {
		t.Errorf("with a time: %+v, want the level's sims and the time", got)
	}
	if _, err := SetLimits(ag, Limits{Sims: sims + 1}); err == nil {
		t.Errorf("sims %d above the level's %d accepted", sims+1, sims)
	}
	if _, err := SetLimits(ag, Limits{Sims: 2}); err != nil || ag.(Limiter).Limits().Sims != 2 {
		t.Errorf("sims 2: %v, %+v", err, ag.(Limiter).Limits())
	}
}

// TestLevelPlaysReproducibly: a level plays a legal game, the same one
// from the same seed, its analysis' line starting with the move played.
func TestLevelPlaysReproducibly(t *testing.T) {
	play := func(seed uint64) []env.Action {
		a, err := New(envtest.Kalah3, "model:level=2", seed)
		if err != nil {
			t.Fatal(err)
		}
		b, err := New(envtest.Kalah3, "model:level=4", seed+1)
		if err != nil {
			t.Fatal(err)
		}
		var moves []env.Action
		st := envtest.Kalah3.New()
		for st.Result() == env.Ongoing {
			ag := a
			if st.ToMove() == env.Black {
				ag = b
			}
			mv, err := ag.Move(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			if pv := ag.(Analyzer).Analysis().PV; len(pv) == 0 || pv[0] != mv {
				t.Fatalf("move %v, analysis line %v", mv, pv)
			}
			if _, err := env.CheckMove(st, mv.Pit()); err != nil {
				t.Fatal(err)
			}
			st.Apply(mv)
			moves = append(moves, mv)
			a.(Observer).Played(mv, st)
			b.(Observer).Played(mv, st)
		}
		return moves
	}
	first, again := play(7), play(7)
	if len(first) != len(again) {
		t.Fatalf("same seed, games of %d and %d plies", len(first), len(again))
	}
	for i := range first {
		if first[i] != again[i] {
			t.Fatalf("same seed, games differ at ply %d", i)
		}
	}
}

// TestLevelChoiceBounded: the level's choice is always within its margin
// of the search's choice, never unvisited or proven lost, and it does
// sometimes leave the search's choice for a near-equal move.
func TestLevelChoiceBounded(t *testing.T) {
	levels := levelsOf("togyz")
	la := &levelAgent{searcher: &searcher{}, lv: levels[0], rng: rand.New(rand.NewPCG(1, 2))}
	la.kids = []mcts.ChildStats{
		{Action: 0, Visits: 3, Q: 0.30},                        // the search's choice
		{Action: 1, Visits: 1, Q: 0.25},                        // near-equal
		{Action: 2, Visits: 1, Q: 0.30 - la.lv.Margin - 0.01},  // just outside the margin
		{Action: 3, Visits: 0, Q: 0.9},                         // unvisited
		{Action: 4, Visits: 2, Q: 0.5, Proof: mcts.ProvenLoss}, // proven lost
		{Action: 5, Visits: 1, Q: 0.35},                        // better by its one visit
		{Action: 6, Visits: 1, Q: 0.30 - la.lv.Margin + 0.01},  // just inside
	}
	seen := map[env.Action]int{}
	for range 2000 {
		seen[la.choose(0)]++
	}
	for _, a := range []env.Action{2, 3, 4} {
		if seen[a] > 0 {
			t.Errorf("played move %d (%+v) %d times", a, la.kids[a], seen[a])
		}
	}
	if seen[0] < seen[1] || seen[1] <= seen[6] || seen[6] == 0 || seen[5] == 0 {
		t.Errorf("choices %v: want the search's choice most, near-equal moves sometimes, the lower the rarer", seen)
	}
	la.kids[0].Proof = mcts.ProvenWin
	for range 100 {
		if a := la.choose(0); a != 0 {
			t.Fatalf("left a proven win for %d", a)
		}
	}
	la.lv = levels[MaxLevel-1]
	la.kids[0].Proof = mcts.Unproven
	for range 100 {
		if a := la.choose(0); a != 0 {
			t.Fatalf("level %d left the search's choice for %d", MaxLevel, a)
		}
	}
}

// TestLevelAtElo: a measured level's rating gives its search back, a
// rating between two levels their searches in between, and one outside
// the levels' range or of a game not measured an error.
func TestLevelAtElo(t *testing.T) {
	levels := levelsOf("test-game")
	var s LevelScale
	for i := range s.Elo {
		s.Elo[i] = float64(100 * i)
	}
	s.Anchor = "random"
	for n := 1; n <= MaxLevel; n++ {
		if l, err := levelAtElo("test-game", s, levels, s.Elo[n-1]); err != nil || l != levels[n-1] {
			t.Errorf("elo %g: %+v, %v; want level %d %+v", s.Elo[n-1], l, err, n, levels[n-1])
		}
	}
	l, err := levelAtElo("test-game", s, levels, 150)
	a, b := levels[1], levels[2]
	if err != nil || l.Sims < a.Sims || l.Sims > b.Sims || l.Margin >= a.Margin || l.Margin <= b.Margin {
		t.Errorf("elo 150: %+v, %v; want between %+v and %+v", l, err, a, b)
	}
	for _, elo := range []float64{-1, 901} {
		if _, err := levelAtElo("test-game", s, levels, elo); err == nil || !strings.Contains(err.Error(), "out of range 0..900") {
			t.Errorf("elo %g: %v", elo, err)
		}
	}
	if _, err := LevelAtElo("kalah:houses=4,seeds=3", 600); err == nil || !strings.Contains(err.Error(), "not measured") {
		t.Errorf("a game with no measured levels gave a level, or %v", err)
	}
	for _, game := range []string{"togyz", "mangala", "kalah"} {
		sc, ok := LevelScaleOf(game)
		if !ok {
			t.Fatalf("%s's levels are not measured", game)
		}
		if l, err := LevelAtElo(game, sc.Elo[3]); err != nil || l != levelsOf(game)[3] {
			t.Errorf("%s at level 4's rating: %+v, %v", game, l, err)
		}
	}
}

// TestLevelOfModel: a level of a model file searches with the network.
func TestLevelOfModel(t *testing.T) {
	levels := levelsOf(envtest.Kalah3.Name)
	path := saveModel(t, &net.Card{Search: net.Search{Sims: 64}})
	ag, err := New(envtest.Kalah3, "model:path="+path+",level=7", 1)
	if err != nil {
		t.Fatal(err)
	}
	st := envtest.Kalah3.New()
	if _, err := ag.Move(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	if an := ag.(Analyzer).Analysis(); an.Nodes != int64(levels[6].Sims) {
		t.Errorf("searched %d simulations, want level 7's %d", an.Nodes, levels[6].Sims)
	}
}
