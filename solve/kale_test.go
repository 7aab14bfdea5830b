package solve

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"kumalak/env"
	"kumalak/env/mangala"
)

// randomKale returns a kale position of s stones spread at random, each
// player holding no castle or one at random (its pit emptied), the stones
// off the board in the stores; nil when the castles collide.
func randomKale(t testing.TB, rng *rand.Rand, s int) *mangala.Board {
	t.Helper()
	p := randomPits(rng, s)
	var castle [2]int // 0: none, else the number of the opponent's pit
	rows := [2][]string{}
	for pl := range 2 {
		if rng.IntN(3) > 0 {
			castle[pl] = 1 + rng.IntN(rowPits-1)
		}
	}
	for pl := range 2 {
		if c := castle[1-pl]; c != 0 { // the opponent's castle on pl's pit c
			p[pl*rowPits+c-1] = 0
		}
	}
	for k, v := range p {
		rows[k/rowPits] = append(rows[k/rowPits], fmt.Sprint(v))
	}
	special := [2]string{"-", "-"}
	for pl, c := range castle {
		if c != 0 {
			special[pl] = fmt.Sprint(c)
		}
	}
	off := mangala.Stones - p.Stones()
	ps := fmt.Sprintf("%s/%s %d %d %s %s %s", strings.Join(rows[0], ","), strings.Join(rows[1], ","), off/2, off-off/2, special[0], special[1], env.Player(rng.IntN(2)))
	b, err := mangala.Parse(ps, true)
	if err != nil {
		return nil
	}
	return b
}

// TestPlayKale checks the engine's kale move (playKale) against
// mangala.Board on every move of random positions, castles included.
func TestPlayKale(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 1))
	var buf [rowPits]env.Action
	moves := 0
	for range 3000 {
		b := randomKale(t, rng, 1+rng.IntN(40))
		if b == nil || b.Result() != env.Ongoing {
			continue
		}
		p := kaleOf(b)
		me := b.ToMove()
		for _, a := range b.Legal(buf[:0]) {
			c := *b
			c.Apply(a)
			got := playKale(&p, int(a))
			gain := c.Store(me) - b.Store(me) - (c.Store(me.Other()) - b.Store(me.Other()))
			want := kaleOf(&c)
			over := c.Result() != env.Ongoing
			if over {
				want = kpos{}
			}
			if got.gain != gain || got.p != want || got.over != over || got.extra {
				t.Fatalf("%s, pit %d: engine %+v, board %s (gain %d)", b, a.Pit(), got, &c, gain)
			}
			moves++
		}
	}
	if moves < 5000 {
		t.Fatalf("only %d moves checked", moves)
	}
}

// TestKaleEngineMatchesReference solves random kale positions, small
// enough for the reference alpha-beta search of search.go, with the
// engine of ksearch.go, and compares the value and every move's value.
// (The engine may meet fewer repetitions: its bounds from the stones on
// the board cut some lines off before they come back.)
func TestKaleEngineMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 2))
	n, hi := 60, 11
	if testing.Short() || raceEnabled {
		n, hi = 25, 9
	}
	ref, fast := newSolver(t, nil), newSolver(t, nil)
	ref.reference = true
	cfg := DefaultConfig()
	cfg.TTBits, cfg.Threads = 16, 2
	par, err := New(cfg) // two threads, each with its own path
	if err != nil {
		t.Fatal(err)
	}
	const refNodes = 300_000
	solved, reps, skipped, unsettled := 0, 0, 0, 0
	for solved < n {
		b := randomKale(t, rng, 3+solved%(hi-2))
		if b == nil || b.Result() != env.Ongoing {
			continue
		}
		want, err := ref.SolveWithin(b, Budget{Nodes: refNodes}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !allExact(want) {
			skipped++ // cycles the reference cannot settle within its budget
			continue
		}
		got, err := fast.SolveWithin(b, Budget{Nodes: 4 * refNodes}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !allExact(got) {
			unsettled++
		}
		for i, m := range got.Moves {
			if w := want.Moves[i]; m.Action != w.Action || m.Lo > w.Lo || m.Hi < w.Hi || (m.Exact() && m.Lo != w.Lo) {
				t.Fatalf("%s: engine %+v, reference %+v", b, got, want)
			}
		}
		if got.Lo > want.Lo || got.Hi < want.Hi {
			t.Fatalf("%s: engine %+v, reference %+v", b, got, want)
		}
		if two, err := par.SolveWithin(b, Budget{Nodes: 4 * refNodes}, nil); err != nil || two.Lo > want.Lo || two.Hi < want.Hi || (two.Exact() && two.Lo != want.Lo) {
			t.Fatalf("%s: engine on two threads %+v (%v), reference %+v", b, two, err, want)
		}
		if want.Repetitions > 0 {
			reps++
		}
		solved++
	}
	t.Logf("%d positions, %d of them with repetitions; %d skipped, unsettled by the reference; %d unsettled by the engine in 4 times the nodes", solved, reps, skipped, unsettled)
	if unsettled > solved/10 {
		t.Errorf("the engine left %d of %d positions unsettled", unsettled, solved)
	}
	if skipped > solved {
		t.Errorf("the reference settled only %d of %d positions", solved, solved+skipped)
	}
}

// allExact reports whether r holds every move's exact value.
func allExact(r Result) bool {
	for _, m := range r.Moves {
		if !m.Exact() {
			return false
		}
	}
	return r.Exact()
}

// kaleGames returns n running kale positions reached by random moves from
// the start, with lo..hi stones on the board (as the agent's
// TestExactEndgames picks them).
func kaleGames(n, lo, hi int, seed uint64) []*mangala.Board {
	rng := rand.New(rand.NewPCG(seed, 36))
	var buf [rowPits]env.Action
	var out []*mangala.Board
	for len(out) < n {
		b := mangala.KaleSpec.New().(*mangala.Board)
		want := lo + len(out)%(hi-lo+1)
		for b.Result() == env.Ongoing && stonesOf(b) > want {
			legal := b.Legal(buf[:0])
			b.Apply(legal[rng.IntN(len(legal))])
		}
		if b.Result() == env.Ongoing && stonesOf(b) >= lo {
			out = append(out, b)
		}
	}
	return out
}

// TestKaleBudget: within the agent's default exact budget (250,000 nodes)
// the engine settles more kale positions of 12 to 16 stones than the
// reference search, with the same values (docs/TABLEBASE.md, "Kale").
func TestKaleBudget(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("millions of nodes")
	}
	const budget = 250_000
	var settled [2]int
	var nodes [2]uint64
	positions := kaleGames(20, 12, 16, 7)
	for _, b := range positions {
		var r [2]Result
		for i := range r {
			s := newSolver(t, nil)
			s.reference = i == 0
			var err error
			if r[i], err = s.SolveWithin(b, Budget{Nodes: budget}, nil); err != nil {
				t.Fatal(err)
			}
			if r[i].Exact() {
				settled[i]++
			}
			nodes[i] += r[i].Nodes
		}
		if r[0].Exact() && r[1].Exact() && r[0].Lo != r[1].Lo {
			t.Errorf("%s: reference %+v, engine %+v", b, r[0], r[1])
		}
	}
	t.Logf("of %d positions, the reference settled %d (%d nodes in all), the engine %d (%d nodes)", len(positions), settled[0], nodes[0], settled[1], nodes[1])
	if settled[1] < settled[0]+len(positions)/4 {
		t.Errorf("the engine settled %d, the reference %d", settled[1], settled[0])
	}
}
