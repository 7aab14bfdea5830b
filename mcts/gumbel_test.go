package mcts

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"kumalak/env"
)

// gumbelConfig is DefaultConfig with the Gumbel search.
func gumbelConfig(m int) Config {
	cfg := DefaultConfig()
	cfg.Kind, cfg.GumbelM = Gumbel, m
	return cfg
}

// refSchedule is sequential halving written out as a simulation of the
// considered actions' visit counts: each phase gives every considered
// action max(1, n/(ceil(log2 m)*considered)) visits in rounds, then halves
// the considered set (to no fewer than 2).
func refSchedule(m, n int) []int {
	if m == 1 {
		seq := make([]int, n)
		for i := range seq {
			seq[i] = i
		}
		return seq
	}
	log2m := int(math.Ceil(math.Log2(float64(m))))
	visits := make([]int, m)
	var seq []int
	for num := m; len(seq) < n; num = max(2, num/2) {
		for range max(1, n/(log2m*num)) {
			seq = append(seq, visits[:num]...)
			for i := range num {
				visits[i]++
			}
		}
	}
	return seq[:n]
}

func TestConsideredVisitSchedule(t *testing.T) {
	// m = 4, n = 16: two phases of 8 simulations, 2 visits each to 4
	// actions, then 4 each to 2.
	want := []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}
	for k, w := range want {
		if got := consideredVisit(4, 16, k); got != w {
			t.Fatalf("m 4, n 16, simulation %d: %d, want %d", k, got, w)
		}
	}
	for n := 16; n <= 200; n++ {
		for m := 1; m <= 16; m++ {
			ref := refSchedule(m, n)
			for k, w := range ref {
				if got := consideredVisit(m, n, k); got != w {
					t.Fatalf("m %d, n %d, simulation %d: %d, want %d", m, n, k, got, w)
				}
			}
		}
	}
}

// halvingCounts returns the visit counts that sequential halving leaves on
// m actions after n simulations, largest first.
func halvingCounts(m, n int) []int {
	counts := make([]int, m)
	for _, target := range refSchedule(m, n) {
		i := slices.Index(counts, target)
		if i < 0 {
			panic("schedule asks for a count no action has")
		}
		counts[i]++
	}
	slices.SortFunc(counts, func(a, b int) int { return b - a })
	return counts
}

// TestGumbelVisitSchedule runs real Gumbel searches from togyz's start (9
// moves, nothing proven early): the root children's visits are exactly the
// counts sequential halving prescribes, the visited moves are the top m by
// Gumbel draw (Gumbel-top-k: the priors are equal), and the played move is
// among the most visited.
func TestGumbelVisitSchedule(t *testing.T) {
	spec := lookup(t, "togyz")
	for _, tc := range []struct{ m, n int }{{4, 16}, {8, 64}, {9, 50}, {2, 30}, {16, 200}, {4, 200}} {
		s := newTest(spec, Uniform{}, gumbelConfig(tc.m), uint64(tc.n))
		s.Reset(spec.New())
		if err := s.Run(ctx, Limits{Visits: tc.n + 1}); err != nil { // the root's own evaluation first
			t.Fatal(err)
		}
		checkTree(t, s)
		var got []int
		for _, c := range s.Children(nil) {
			got = append(got, c.Visits)
		}
		slices.SortFunc(got, func(a, b int) int { return b - a })
		m := min(tc.m, 9)
		want := append(halvingCounts(m, tc.n), make([]int, 9-m)...)
		if !slices.Equal(got, want) {
			t.Errorf("m %d, n %d: root visits %v, want %v", tc.m, tc.n, got, want)
		}
		// Equal priors: the visited moves are the top m by Gumbel draw.
		lo, hi := s.nd(0).children()
		for c := lo; c < hi; c++ {
			rank := 0
			for d := lo; d < hi; d++ {
				if s.g.g[d-lo] > s.g.g[c-lo] {
					rank++
				}
			}
			if visited := s.nd(c).n > 0; visited != (rank < m) {
				t.Errorf("m %d, n %d: move with Gumbel rank %d has %d visits", tc.m, tc.n, rank, s.nd(c).n)
			}
		}
		a := s.Choose(0)
		if n := s.nd(s.childOf(0, a)).n; int(n) != want[0] {
			t.Errorf("m %d, n %d: played a move with %d visits, the most is %d", tc.m, tc.n, n, want[0])
		}
	}
}

func TestCompletedQ(t *testing.T) {
	s := newTest(kala3, Uniform{}, gumbelConfig(4), 1)
	for _, mover := range []env.Player{env.White, env.Black} {
		sg := sign(mover)
		// Root value 0.2 for the mover. A: prior .5, 4 visits, Q .5; B: prior
		// .3, unvisited; C: prior .2, 2 visits, Q -.25 (all mover's view).
		handTree(s, mover, 7, 0, [][4]float32{{0.5, 4, sg * 2, 0}, {0.3, 0, 0, 0}, {0.2, 2, sg * -0.5, 0}})
		s.nd(0).v = sg * 0.2
		vmix := (0.2 + 6*(0.5*0.5+0.2*-0.25)/0.7) / 7
		maxN := s.completedQ(0)
		if maxN != 4 {
			t.Errorf("mover %v: max visits %d, want 4", mover, maxN)
		}
		for i, q := range []float64{0.5, vmix, -0.25} {
			if got, want := float64(s.cq[i]), (q+1)/2; math.Abs(got-want) > 1e-6 {
				t.Errorf("mover %v: completed Q of child %d = %v, want %v", mover, i, got, want)
			}
		}
		// No child visited: the value mix is the root's own value.
		handTree(s, mover, 1, 0, [][4]float32{{0.5, 0, 0, 0}, {0.5, 0, 0, 0}})
		s.nd(0).v = sg * -0.6
		s.completedQ(0)
		if got := s.cq[1]; math.Abs(float64(got)-0.2) > 1e-6 {
			t.Errorf("mover %v: unvisited with no visited sibling: %v, want (−0.6+1)/2", mover, got)
		}
	}
}

// TestImprovedPolicy checks the improved policy against the formula in
// float64 on random hand trees, and that it improves on the prior: its
// expected completed Q is at least the prior's.
func TestImprovedPolicy(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	s := newTest(kala6, Uniform{}, gumbelConfig(16), 1)
	for trial := range 1000 {
		k := 2 + rng.IntN(5)
		kids := make([][4]float32, k)
		var sum, total float32
		for i := range kids {
			n := float32(rng.IntN(3) * rng.IntN(12))
			kids[i] = [4]float32{0.01 + rng.Float32(), n, n * (2*rng.Float32() - 1), 0}
			sum += kids[i][0]
			total += n
		}
		for i := range kids {
			kids[i][0] /= sum
		}
		mover := env.Player(rng.IntN(2))
		handTree(s, mover, int32(total)+1, 0, kids)
		s.nd(0).v = 2*rng.Float32() - 1
		maxN := float64(s.completedQ(0))
		cq := slices.Clone(s.cq[:k])
		pi := s.improved(0)
		var z, gainPi, gainP float64
		ref := make([]float64, k)
		for i := range ref {
			ref[i] = float64(kids[i][0]) * math.Exp((50+maxN)*float64(cq[i]))
			z += ref[i]
		}
		for i := range ref {
			ref[i] /= z
			if math.Abs(ref[i]-float64(pi[i])) > 1e-5 {
				t.Fatalf("trial %d: improved policy %v, formula %v", trial, pi, ref)
			}
			gainPi += float64(pi[i]) * float64(cq[i])
			gainP += float64(kids[i][0]) * float64(cq[i])
		}
		if gainPi < gainP-1e-6 {
			t.Fatalf("trial %d: expected Q %v under the improved policy, %v under the prior", trial, gainPi, gainP)
		}
	}
}

// TestGumbelPolicyTarget: Policy of a Gumbel search is the improved policy
// at the root, and the root's priors carry no Dirichlet noise even when
// NoiseAlpha is set.
func TestGumbelPolicyTarget(t *testing.T) {
	cfg := gumbelConfig(4)
	cfg.NoiseAlpha = 0.3
	s := newTest(kala6, Uniform{}, cfg, 3)
	s.Reset(kala6.New())
	if err := s.Run(ctx, Limits{Sims: 32}); err != nil {
		t.Fatal(err)
	}
	pol := make([]float32, 6)
	s.Policy(pol)
	pi := slices.Clone(s.improved(0))
	for i, c := range s.Children(nil) {
		if c.Prior != 1.0/6 {
			t.Errorf("child %d prior %v: noise was mixed in", i, c.Prior)
		}
		if pol[c.Action] != pi[i] {
			t.Errorf("policy[%d] = %v, improved policy %v", c.Action, pol[c.Action], pi[i])
		}
	}
	if !normalize(pol) {
		t.Fatal("policy sums to nothing")
	}
}

// TestGumbelNeedsSimBudget: with only a time limit there is nothing to plan
// sequential halving for.
func TestGumbelNeedsSimBudget(t *testing.T) {
	s := newTest(kala6, Uniform{}, gumbelConfig(4), 1)
	if err := s.Run(ctx, Limits{Time: 1e6}); err == nil {
		t.Error("a time-only Gumbel search was accepted")
	}
}

// TestGumbelSolver: with the Gumbel search, every proof matches minimax, a
// proven-won root plays a winning move, and many endgames are proven.
func TestGumbelSolver(t *testing.T) {
	pos, val := endgames(20, 4)
	memo := map[kala]solved{}
	for _, puct := range []bool{false, true} {
		proven := 0
		for i, k := range pos {
			cfg := gumbelConfig(4)
			cfg.GumbelPUCT = puct
			s := newTest(kala3, Uniform{}, cfg, uint64(i))
			s.Reset(k)
			if err := s.Run(ctx, Limits{Sims: 5000}); err != nil {
				t.Fatal(err)
			}
			checkTree(t, s)
			if s.Root().Proof != Unproven {
				proven++
				if want := proofOf(val[i].Result, k.ToMove()); s.Root().Proof != want {
					t.Fatalf("%s: root proven %v, minimax says %v", k, s.Root().Proof, want)
				}
			}
			next := *k
			next.Apply(s.Choose(0))
			if s.Root().Proof == ProvenWin && minimax(&next, memo).Result != env.WinFor(k.ToMove()) {
				t.Errorf("%s: proven won, but the Gumbel search plays a losing move", k)
			}
		}
		// Sequential halving spends its budget evenly over a phase's
		// actions, so it proves fewer endgames than PUCT in the same budget.
		if proven < len(pos)/3 {
			t.Errorf("gumbel_puct %v: only %d of %d won endgames proven", puct, proven, len(pos))
		}
	}
}

func TestPickImprovedByHand(t *testing.T) {
	s := newTest(kala3, Uniform{}, gumbelConfig(4), 1)
	// Equal Q everywhere: the improved policy is the prior, and the child
	// furthest below its share of the visits is picked: A has .6 of the
	// prior and 6 of 9 visits (.6-.6 = 0), B .3 and 3 (.3-.3 = 0), C .1
	// and 0 (.1): C.
	handTree(s, env.Black, 10, 0, [][4]float32{{0.6, 6, 0, 0}, {0.3, 3, 0, 0}, {0.1, 0, 0, 0}})
	if got := s.pickImproved(0); got != 3 {
		t.Errorf("picked %d, want 3", got)
	}
	// Now C is a proven loss: with the solver it is skipped.
	s.nd(3).force(env.WhiteWins, 0)
	if got := s.pickImproved(0); got == 3 {
		t.Error("picked a proven loss")
	}
}

// TestPolicyProofs: lost children get no target weight unless all are
// lost; a drawn root spreads the target over its drawing moves.
func TestPolicyProofs(t *testing.T) {
	for _, kind := range []Kind{PUCT, Gumbel} {
		cfg := DefaultConfig()
		cfg.Kind = kind
		s := newTest(kala3, Uniform{}, cfg, 1)
		pol := make([]float32, 3)
		handTree(s, env.White, 31, 0, [][4]float32{{0.4, 20, 2, 0}, {0.3, 6, 1, 0}, {0.3, 4, 0, 0}})
		s.nd(1).force(env.BlackWins, 0)
		s.Policy(pol)
		if pol[0] != 0 || math.Abs(float64(pol[1]+pol[2]-1)) > 1e-6 {
			t.Errorf("%s: policy %v with move 0 lost, want no weight on it", kind, pol)
		}
		for c := int32(1); c <= 3; c++ {
			s.nd(c).force(env.BlackWins, 0)
		}
		s.nd(0).force(env.BlackWins, 0)
		s.Policy(pol)
		if pol[0] == 0 || pol[1] == 0 {
			t.Errorf("%s: policy %v with every move lost, want weight kept", kind, pol)
		}
		s.nd(0).force(env.Draw, 0)
		s.nd(2).force(env.Draw, 0)
		s.nd(3).force(env.Draw, 0)
		s.Policy(pol)
		if pol[0] != 0 || pol[1] != 0.5 || pol[2] != 0.5 {
			t.Errorf("%s: drawn root: policy %v, want [0 .5 .5]", kind, pol)
		}
	}
}

func TestGumbelAllocs(t *testing.T) {
	for _, puct := range []bool{false, true} {
		cfg := gumbelConfig(4)
		cfg.GumbelPUCT = puct
		s := newTest(kala6, Uniform{}, cfg, 1)
		st, next := kala6.New(), kala6.New()
		pol := make([]float32, 6)
		n := testing.AllocsPerRun(5, func() {
			s.Reset(st)
			if err := s.Run(ctx, Limits{Sims: 300}); err != nil {
				t.Fatal(err)
			}
			s.Policy(pol)
			a := s.Choose(0)
			next.CopyFrom(st)
			next.Apply(a)
			s.Advance(a, next)
			if err := s.Run(ctx, Limits{Visits: 400}); err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 {
			t.Errorf("gumbel_puct %v: %v allocations per search, want 0", puct, n)
		}
	}
}

// TestGumbelExtraTurnValues: every position is worth 0.6 to White, so at
// every opened node of a Gumbel search, whichever player moves there and
// whether or not a child repeats the mover (kala's extra turn), every
// completed Q is 0.6 from White's view: rescaled, 0.8 at White's nodes and
// 0.2 at Black's.
func TestGumbelExtraTurnValues(t *testing.T) {
	for _, pos := range []string{
		"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w",
		"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - b",
	} {
		s := newTest(kala6, whiteEval{kala6.ObsLen}, gumbelConfig(4), 1)
		s.Reset(mustKala(kala6, pos))
		if err := s.Run(ctx, Limits{Sims: 400}); err != nil {
			t.Fatal(err)
		}
		checkTree(t, s)
		extra := 0
		walk(s, 0, func(idx int32) {
			nd := s.nd(idx)
			if nd.flags()&expanded == 0 {
				return
			}
			want := float32(0.8)
			if nd.mover() == env.Black {
				want = 0.2
			}
			s.completedQ(idx)
			lo, hi := nd.children()
			for c := lo; c < hi; c++ {
				if math.Abs(float64(s.cq[c-lo]-want)) > 1e-4 {
					t.Fatalf("%s: node %d (mover %v) child %d completed Q %v, want %v", pos, idx, nd.mover(), c, s.cq[c-lo], want)
				}
				if s.nd(c).flags()&reached != 0 && s.nd(c).mover() == nd.mover() {
					extra++
				}
			}
		})
		if extra == 0 {
			t.Fatalf("%s: no extra turn in the tree; the test needs some", pos)
		}
	}
}

// skewed gives priors 0.5, 0.3, 0.2 to the first three legal actions
// (kala3 from the start has three) and value 0.
type skewed struct{}

func (skewed) Evaluate(obs, mask, priors, values []float32) error {
	na := len(mask) / len(values)
	for i := range values {
		values[i] = 0
		k := 0
		for a := range na {
			priors[i*na+a] = 0
			if mask[i*na+a] == 1 && k < 3 {
				priors[i*na+a] = [3]float32{0.5, 0.3, 0.2}[k]
				k++
			}
		}
	}
	return nil
}

// TestGumbelTopOneIsThePrior: argmax(g + logit) samples the prior, so the
// first move a Gumbel search visits is distributed as the priors.
func TestGumbelTopOneIsThePrior(t *testing.T) {
	s := newTest(kala3, skewed{}, gumbelConfig(1), 9)
	start := kala3.New()
	const runs = 20000
	var got [3]int
	for range runs {
		s.Reset(start)
		if err := s.Run(ctx, Limits{Sims: 2}); err != nil {
			t.Fatal(err)
		}
		for i, c := range s.Children(nil) {
			if c.Visits > 0 {
				got[i]++
			}
		}
	}
	for i, p := range []float64{0.5, 0.3, 0.2} {
		sd := math.Sqrt(p * (1 - p) / runs)
		if f := float64(got[i]) / runs; math.Abs(f-p) > 5*sd {
			t.Errorf("move %d visited first in %.4f of searches, prior %.2f", i, f, p)
		}
	}
}
