package mcts

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"kumalak/env"
)

var ctx = context.Background()

func TestRunCountsSims(t *testing.T) {
	for _, batch := range []int{1, 3, 8} {
		cfg := DefaultConfig()
		cfg.Batch = batch
		s := newTest(kala6, Uniform{}, cfg, 1)
		s.Reset(kala6.New())
		for range 3 {
			if err := s.Run(ctx, Limits{Sims: 100}); err != nil {
				t.Fatal(err)
			}
		}
		if got := s.Root().Visits; got != 300 {
			t.Errorf("batch %d: %d root visits after 3 runs of 100, want 300", batch, got)
		}
		checkTree(t, s)
	}
}

func TestLimits(t *testing.T) {
	s := newTest(kala6, Uniform{}, DefaultConfig(), 1)
	s.Reset(kala6.New())
	for _, lim := range []Limits{{}, {Sims: -1}, {Time: -time.Second}} {
		if err := s.Run(ctx, lim); err == nil {
			t.Errorf("Run(%+v) = nil, want an error", lim)
		}
	}
	if err := s.Run(ctx, Limits{Time: 200 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if s.Root().Visits == 0 {
		t.Error("a 200ms search made no visits")
	}
	c, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Run(c, Limits{Sims: 10}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Run = %v, want context.Canceled", err)
	}
	checkTree(t, s)
}

func TestPolicyAndPV(t *testing.T) {
	s := newTest(kala6, Uniform{}, DefaultConfig(), 1)
	st := mustKala(kala6, "4,4,4,0,4,4/4,4,4,4,4,4 0 0 - - b")
	s.Reset(st)
	pol := make([]float32, 6)
	s.Policy(pol)
	for _, p := range pol {
		if p != 0 {
			t.Fatalf("policy before search %v, want zeros", pol)
		}
	}
	if err := s.Run(ctx, Limits{Sims: 200}); err != nil {
		t.Fatal(err)
	}
	s.Policy(pol)
	var sum float32
	kids := s.Children(nil)
	if len(kids) != 6 {
		t.Fatalf("%d children, want 6", len(kids))
	}
	for _, c := range kids {
		if want := float32(c.Visits) / 199; math.Abs(float64(pol[c.Action]-want)) > 1e-6 {
			t.Errorf("policy[%d] = %v, want %v", c.Action, pol[c.Action], want)
		}
	}
	for _, p := range pol {
		sum += p
	}
	if math.Abs(float64(sum-1)) > 1e-5 {
		t.Errorf("policy sums to %v", sum)
	}
	pv := s.PV(nil)
	if len(pv) < 2 || pv[0] != s.Choose(0) {
		t.Errorf("PV %v, want it to start with Choose(0) = %d and go deeper", pv, s.Choose(0))
	}
	if v := s.RootValue(); v != s.Root().Value || v < -1 || v > 1 {
		t.Errorf("RootValue %v, Root().Value %v", v, s.Root().Value)
	}
}

func TestChildrenBeforeSearch(t *testing.T) {
	s := newTest(kala6, Uniform{}, DefaultConfig(), 1)
	s.Reset(mustKala(kala6, "0,4,4,0,4,0/4,4,4,4,4,4 8 0 - - w"))
	kids := s.Children(nil)
	if len(kids) != 3 || kids[0].Action != 1 || kids[2].Action != 4 || kids[0].Visits != 0 {
		t.Errorf("children before search: %+v", kids)
	}
}

func TestNoise(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NoiseAlpha, cfg.NoiseWeight = 0.5, 0.25
	s := newTest(kala6, Uniform{}, cfg, 11)
	s.Reset(kala6.New())
	if err := s.Run(ctx, Limits{Sims: 200}); err != nil {
		t.Fatal(err)
	}
	kids := s.Children(nil)
	var sum float32
	changed := false
	for _, c := range kids {
		sum += c.Prior
		if c.Prior < 0.75/6-1e-6 {
			t.Errorf("prior %v below (1-weight)/6", c.Prior)
		}
		if math.Abs(float64(c.Prior-1.0/6)) > 1e-3 {
			changed = true
		}
	}
	if math.Abs(float64(sum-1)) > 1e-5 || !changed {
		t.Errorf("noisy root priors %+v: sum %v, changed %v", kids, sum, changed)
	}
	// Below the root, priors are the evaluator's: uniform.
	for i := int32(1); i < s.used; i++ {
		nd := s.nd(i)
		lo, hi := nd.children()
		for c := lo; c < hi && nd.flags()&expanded != 0; c++ {
			if want := 1 / float32(nd.kids); s.nd(c).prior != want {
				t.Fatalf("node %d child prior %v, want %v: noise below the root", i, s.nd(c).prior, want)
			}
		}
	}
	// Once per root: another Run keeps the priors.
	if err := s.Run(ctx, Limits{Sims: 50}); err != nil {
		t.Fatal(err)
	}
	for i, c := range s.Children(nil) {
		if c.Prior != kids[i].Prior {
			t.Fatalf("second Run changed root prior %d: %v -> %v", i, kids[i].Prior, c.Prior)
		}
	}
	// A new root gets fresh noise.
	s.Reset(kala6.New())
	if err := s.Run(ctx, Limits{Sims: 10}); err != nil {
		t.Fatal(err)
	}
	if s.Children(nil)[0].Prior == kids[0].Prior {
		t.Error("the same noise twice")
	}
}

func TestDirichlet(t *testing.T) {
	s := newTest(kala6, Uniform{}, DefaultConfig(), 5)
	const k, draws = 4, 40000
	for _, alpha := range []float64{0.03, 0.3, 1, 2.5} {
		dst := make([]float64, k)
		var mean, sq float64
		for range draws {
			dirichlet(s.rng, alpha, dst)
			var sum float64
			for _, x := range dst {
				if x < 0 {
					t.Fatalf("alpha %v: negative component %v", alpha, x)
				}
				sum += x
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("alpha %v: sums to %v", alpha, sum)
			}
			mean += dst[0]
			sq += dst[0] * dst[0]
		}
		mean /= draws
		variance := sq/draws - mean*mean
		wantVar := (1.0 / k) * (1 - 1.0/k) / (k*alpha + 1)
		if math.Abs(mean-1.0/k) > 0.01 || math.Abs(variance-wantVar) > 0.05*wantVar+1e-4 {
			t.Errorf("alpha %v: mean %.4f var %.5f, want %.4f and %.5f", alpha, mean, variance, 1.0/k, wantVar)
		}
	}
}

func TestExtraTurnValues(t *testing.T) {
	for _, batch := range []int{1, 8} {
		for _, pos := range []string{
			"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w",
			"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - b",
		} {
			cfg := DefaultConfig()
			cfg.Batch = batch
			s := newTest(kala6, whiteEval{kala6.ObsLen}, cfg, 1)
			s.Reset(mustKala(kala6, pos))
			if err := s.Run(ctx, Limits{Sims: 400}); err != nil {
				t.Fatal(err)
			}
			checkTree(t, s)
			extra, nodes := 0, 0
			walk(s, 0, func(idx int32) {
				nd := s.nd(idx)
				if nd.proven() != env.Ongoing {
					t.Fatalf("%s: a terminal node; the test needs none", pos)
				}
				if nd.n > 0 && math.Abs(float64(nd.w/float32(nd.n)-0.6)) > 1e-4 {
					t.Fatalf("%s batch %d: node %d (mover %v) has White value %v, want 0.6", pos, batch, idx, nd.mover(), nd.w/float32(nd.n))
				}
				lo, hi := nd.children()
				for c := lo; c < hi; c++ {
					if s.nd(c).flags()&reached != 0 && s.nd(c).mover() == nd.mover() {
						extra++
					}
				}
				nodes++
			})
			if extra == 0 || nodes < 100 {
				t.Fatalf("%s: %d extra turns among %d nodes; the test needs some", pos, extra, nodes)
			}
			want := float32(0.6) * sign(s.Root().Mover)
			for _, c := range s.Children(nil) {
				if c.Visits > 0 && math.Abs(float64(c.Q-want)) > 1e-4 {
					t.Errorf("%s: child %d Q %v for the root mover, want %v", pos, c.Action, c.Q, want)
				}
			}
		}
	}
}

func TestBackupAcrossExtraTurn(t *testing.T) {
	// White plays pit 3 (index 2) into the store and moves again, then
	// Black is to move: root (White) -> child (White) -> grandchild (Black).
	s := newTest(kala3, Uniform{}, DefaultConfig(), 1)
	s.Reset(mustKala(kala3, "1,1,1/3,3,3 0 0 - - w"))
	if err := s.Run(ctx, Limits{Sims: 1}); err != nil {
		t.Fatal(err)
	}
	c := s.childOf(0, 2)
	w := s.w
	w.scratch.CopyFrom(s.root)
	w.scratch.Apply(2)
	s.reach(w, c)
	first, _ := s.grow([]env.Action{0, 1})
	s.nd(c).first, s.nd(c).kids = first, 2
	s.nd(c).setFlags(expanded, 0, false)
	g := s.nd(c).first
	s.nd(g).prior, s.nd(g+1).prior = 0.5, 0.5
	w.scratch.Apply(0)
	s.reach(w, g)
	if s.nd(c).mover() != env.White || s.nd(g).mover() != env.Black {
		t.Fatalf("movers %v %v, want w b", s.nd(c).mover(), s.nd(g).mover())
	}
	// The grandchild's evaluation is +0.8 for Black, its mover.
	for _, i := range []int32{0, c, g} {
		s.nd(i).vl++ // in flight, as a descent leaves it
	}
	s.backup([]int32{0, c, g}, 0.8*sign(env.Black))
	if q := s.nd(c).q(env.White); q != -0.8 {
		t.Errorf("extra-turn child Q for White = %v, want -0.8", q)
	}
	if q := s.nd(g).q(env.Black); q != 0.8 {
		t.Errorf("grandchild Q for Black = %v, want 0.8", q)
	}
	// pick at the child (White to move) must read Q for White: the visited
	// grandchild is bad for White, so the unvisited sibling is preferred.
	s.cfg.FPUReduction = 0
	if got := s.pick(c); got != g+1 {
		t.Errorf("pick after extra turn chose %d, want %d", got, g+1)
	}
}

func TestNoNoiseRun(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NoiseAlpha, cfg.NoiseWeight = 0.5, 0.25
	s := newTest(kala6, Uniform{}, cfg, 12)
	s.Reset(kala6.New())
	if err := s.Run(ctx, Limits{Sims: 50, NoNoise: true}); err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Children(nil) {
		if c.Prior != 1.0/6 {
			t.Fatalf("a quiet Run noised the root: prior %v", c.Prior)
		}
	}
	// A later Run on the same root draws the noise.
	if err := s.Run(ctx, Limits{Sims: 50}); err != nil {
		t.Fatal(err)
	}
	changed := false
	for _, c := range s.Children(nil) {
		changed = changed || math.Abs(float64(c.Prior-1.0/6)) > 1e-3
	}
	if !changed {
		t.Error("a Run with noise after a quiet one left the priors uniform")
	}
}
