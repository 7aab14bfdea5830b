package solve

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/env/mangala"
)

func newSolver(t testing.TB, tb *Tablebase) *Solver {
	t.Helper()
	cfg := DefaultConfig()
	cfg.TTBits = 18
	cfg.Tablebase = tb
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.tt = newTable(cfg.TTBits) // the tests call the alpha-beta search of kale directly
	return s
}

// TestSolverMatchesTablebase solves random positions of 9 and 10 stones
// with the tablebase cut to 8 stones, and without one, and compares the
// value and every move's value with the full tablebase.
func TestSolverMatchesTablebase(t *testing.T) {
	full := openShared(t, sharedStones)
	solvers := []*Solver{newSolver(t, openShared(t, 8)), newSolver(t, nil)}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 40 {
		p := randomPits(rng, 9+i%2)
		b := boardOf(t, p, env.Player(i%2), false)
		if _, over := p.Terminal(); over {
			continue
		}
		want, _ := full.Moves(b, nil)
		v, _ := full.Probe(b)
		base := b.Store(b.ToMove()) - b.Store(b.ToMove().Other())
		for k, s := range solvers {
			r, err := s.Solve(b, 0)
			if err != nil || !r.Exact() || r.Lo != base+v || !slices.Equal(r.Moves, want) {
				t.Fatalf("solver %d on %s: %+v (%v); tablebase %d, moves %v", k, b, r, err, base+v, want)
			}
			if k == 0 && r.TBHits == 0 {
				t.Errorf("%s: the tablebase was never probed", b)
			}
		}
	}
}

// TestSolverTimeLimit stops the search at once with a clock that jumps an
// hour per look and checks that the bounds still hold the exact value.
func TestSolverTimeLimit(t *testing.T) {
	full := openShared(t, sharedStones)
	now := time.Unix(0, 0)
	cfg := DefaultConfig()
	cfg.TTBits = 16
	cfg.Now = func() time.Time { now = now.Add(time.Hour); return now }
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b := boardOf(t, Pits{3, 0, 2, 1, 0, 1, 0, 2, 0, 0, 1, 0}, env.White, false)
	r, err := s.Solve(b, time.Minute)
	v, _ := full.Probe(b)
	base := b.Store(env.White) - b.Store(env.Black)
	if err != nil || r.Lo > base+v || r.Hi < base+v || r.Exact() {
		t.Fatalf("bounds %d..%d (%v), exact value %d", r.Lo, r.Hi, err, base+v)
	}
}

// naiveKale is the kale minimax with the solver's convention written out
// plainly: it returns white's future gain, a position repeated on the path
// ending the game with each player storing their own row, and whether a
// repetition was met; only values that met none are memoised.
type naiveKale map[string]int

func (m naiveKale) value(b *mangala.Board, path []string) (int, bool) {
	key := stripStores(b.String())
	var rows [2]int
	for p := env.White; p <= env.Black; p++ {
		for i := 1; i <= rowPits; i++ {
			rows[p] += b.Pit(p, i)
		}
	}
	if rows[0] == 0 || rows[1] == 0 {
		return rows[0] - rows[1], false
	}
	if slices.Contains(path, key) {
		return rows[0] - rows[1], true
	}
	if v, ok := m[key]; ok {
		return v, false
	}
	path = append(path, key)
	white := b.ToMove() == env.White
	v, rep := 1000, false
	if white {
		v = -1000
	}
	for _, a := range b.Legal(nil) {
		c := *b
		c.Apply(a)
		w, r := m.value(&c, path)
		w += c.Store(env.White) - b.Store(env.White) - (c.Store(env.Black) - b.Store(env.Black))
		rep = rep || r
		if white {
			v = max(v, w)
		} else {
			v = min(v, w)
		}
	}
	if !rep {
		m[key] = v
	}
	return v, rep
}

// stripStores drops the store fields of a position string.
func stripStores(s string) string {
	var parts []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return parts[0] + " " + parts[3] + " " + parts[4] + " " + parts[5]
}

// TestSolverKale compares the solver with the naive kale minimax on small
// positions, with and without castles.
func TestSolverKale(t *testing.T) {
	s := newSolver(t, nil)
	rng := rand.New(rand.NewPCG(7, 8))
	positions := []string{
		"1,0,0,1,0,0/0,1,0,0,0,0 45 0 - - w",
		"0,0,2,0,0,0/0,0,0,1,0,0 40 5 2 - b",
	}
	for range 30 {
		p := randomPits(rng, 2+rng.IntN(2))
		positions = append(positions, boardOf(t, p, env.Player(rng.IntN(2)), true).String())
	}
	reps := uint64(0)
	for _, ps := range positions {
		b, err := mangala.Parse(ps, true)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Solve(b, 0)
		base := b.Store(b.ToMove()) - b.Store(b.ToMove().Other())
		want, _ := naiveKale{}.value(b, nil)
		if b.ToMove() == env.Black {
			want = -want
		}
		if err != nil || !r.Exact() || r.Lo != base+want {
			t.Fatalf("%s: solver %+v (%v), naive %d", ps, r, err, base+want)
		}
		reps += r.Repetitions
	}
	t.Logf("repetitions met: %d", reps)
}

// TestSearchAllocs checks that the search, the tablebase probes and the
// build's evaluation allocate nothing.
func TestSearchAllocs(t *testing.T) {
	tb := openShared(t, sharedStones)
	s := newSolver(t, openShared(t, 6))
	b := boardOf(t, Pits{2, 1, 0, 3, 1, 0, 1, 2, 0, 2, 1, 1}, env.White, false)
	kale := boardOf(t, Pits{1, 0, 2, 0, 0, 1, 0, 1, 0, 1, 0, 0}, env.White, true)
	p := Pits{1, 0, 2, 0, 0, 1, 0, 1, 0, 1, 0, 3}
	var sink int
	if n := testing.AllocsPerRun(20, func() {
		sink += s.search(b, -MaxStones-1, MaxStones+1, -1)
		sink += s.search(kale, -MaxStones-1, MaxStones+1, -1)
		sink += evaluate(tbRules{}, &p, tb.levels)
		v, _ := tb.Probe(b)
		sink += v
	}); n != 0 {
		t.Errorf("search, evaluate and Probe allocate %v times", n)
	}
}

// TestSolveWithinNodes: a node budget stops a solve soon after that many
// nodes, and repeats: fresh solvers give the same bounds. Stones counts
// the board.
func TestSolveWithinNodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, kale := range []bool{false, true} {
		b := boardOf(t, randomPits(rng, 24), 0, kale)
		if n, ok := Stones(b); !ok || n != 24 {
			t.Fatalf("Stones = %d, %v; want 24", n, ok)
		}
		var first Result
		for i := range 2 {
			s := newSolver(t, nil)
			r, err := s.SolveWithin(b, Budget{Nodes: 5000}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Nodes > 5000+2*checkEvery {
				t.Errorf("kale %v: %d nodes with a budget of 5000", kale, r.Nodes)
			}
			if i == 0 {
				first = r
			} else if !slices.Equal(r.Moves, first.Moves) || r.Lo != first.Lo || r.Hi != first.Hi {
				t.Errorf("kale %v: %+v, then %+v", kale, first, r)
			}
		}
	}
}
