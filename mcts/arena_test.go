package mcts

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"kumalak/env"
)

// shape appends the subtree below idx in depth-first order: each node's
// action, visits, value sum, flags and child count, so that two trees
// compare equal whatever their indices.
func shape(s *Search, idx int32, dst []node) []node {
	nd := *s.nd(idx)
	nd.first, nd.prior = 0, 0
	dst = append(dst, nd)
	lo, hi := s.nd(idx).children()
	for c := lo; c < hi; c++ {
		dst = shape(s, c, dst)
	}
	return dst
}

// TestCompactAcrossChunks: a tree of several chunks keeps exactly the
// played move's subtree, moves it to the front, frees the rest, and goes
// on growing in the freed room; the node budget holds throughout.
func TestCompactAcrossChunks(t *testing.T) {
	spec := lookup(t, "togyz")
	cfg := DefaultConfig()
	cfg.MaxNodes = 3*chunkSize + 100
	s := newTest(spec, Uniform{}, cfg, 1)
	st := spec.New()
	s.Reset(st)
	for range 3 {
		if err := s.Run(ctx, Limits{Sims: 12000}); err != nil {
			t.Fatal(err)
		}
		if s.used <= chunkSize {
			t.Fatalf("tree of %d nodes, want more than a chunk", s.used)
		}
		checkTree(t, s)
		a := s.Choose(0)
		c := s.childOf(0, a)
		want := shape(s, c, nil)
		before := s.used
		st.Apply(a)
		s.Advance(a, st)
		checkTree(t, s)
		got := shape(s, 0, nil)
		want[0].vl, want[0].action = 0, got[0].action // the new root keeps its action; nothing else changes
		if len(got) != len(want) {
			t.Fatalf("kept %d nodes, want %d", len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("node %d of the kept subtree: %+v, want %+v", i, got[i], want[i])
			}
		}
		if s.used >= before || int(s.used) > len(want)+len(want)/8+3*chunkSize/256 {
			t.Errorf("arena %d nodes after Advance (was %d), kept %d", s.used, before, len(want))
		}
	}
}

// TestThreads: a threaded Run adds exactly its budget, keeps the tree's
// invariants (in a full arena too), respects Visits, and a failing
// evaluator on any thread stops it with the error. Run with -race, it
// checks that the workers' concurrent descents touch the nodes only by
// atomic operations or after their publication.
func TestThreads(t *testing.T) {
	for _, tc := range []struct {
		name string
		ev   Evaluator
		edit func(*Config)
	}{
		{"uniform", Uniform{}, func(c *Config) { c.Batch = 4 }},
		{"batch1", Uniform{}, func(c *Config) {}},
		{"rollouts", nil, func(c *Config) { c.Rollouts = 2 }},
		{"gumbel", Uniform{}, func(c *Config) { c.Kind, c.Batch = Gumbel, 2 }},
		{"no-solver", Uniform{}, func(c *Config) { c.Solver, c.Batch = false, 8 }},
		{"full", Uniform{}, func(c *Config) { c.MaxNodes, c.Batch = 1500, 2 }},
		{"gumbel-puct", Uniform{}, func(c *Config) { c.Kind, c.GumbelPUCT, c.Batch = Gumbel, true, 4 }},
	} {
		cfg := DefaultConfig()
		tc.edit(&cfg)
		s := newTest(kala6, tc.ev, cfg, 1)
		if err := s.SetThreads(3, func() Evaluator { return tc.ev }); err != nil {
			t.Fatal(err)
		}
		st := kala6.New()
		s.Reset(st)
		for range 4 {
			before := s.Root().Visits
			if err := s.Run(ctx, Limits{Sims: 500}); err != nil {
				t.Fatal(err)
			}
			checkTree(t, s)
			r := s.Root()
			if r.Proof == Unproven && (r.Sims != 500 || r.Visits != before+500) {
				t.Fatalf("%s: root %+v after 500 sims from %d visits", tc.name, r, before)
			}
			if r.Proof != Unproven {
				break
			}
			a := s.Choose(0)
			st.Apply(a)
			s.Advance(a, st)
		}
		if s.Root().Proof == Unproven && tc.name != "gumbel" {
			if err := s.Run(ctx, Limits{Visits: s.Root().Visits + 77}); err != nil {
				t.Fatal(err)
			}
			if r := s.Root(); r.Sims != 77 {
				t.Errorf("%s: Visits budget added %d sims, want 77", tc.name, r.Sims)
			}
			checkTree(t, s)
		}
	}
	var calls atomic.Int64
	bad := failAfter{n: 40, calls: &calls}
	// Every worker's evaluator fails after 40 calls in all: whichever
	// worker the scheduler favours, the Run sees the failure.
	s := newTest(kala6, bad, DefaultConfig(), 1)
	if err := s.SetThreads(2, func() Evaluator { return bad }); err != nil {
		t.Fatal(err)
	}
	s.Reset(kala6.New())
	if err := s.Run(ctx, Limits{Sims: 5000}); !errors.Is(err, errBoom) {
		t.Errorf("Run with a failing evaluator: %v, want errBoom", err)
	}
	checkTree(t, s)
	if err := s.SetThreads(0, nil); err == nil {
		t.Error("SetThreads(0) accepted")
	}
	c, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Run(c, Limits{Sims: 100}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled threaded Run: %v", err)
	}
}

var errBoom = errors.New("boom")

// failAfter is Uniform until n calls (over every copy), then fails.
type failAfter struct {
	n     int64
	calls *atomic.Int64
}

func (f failAfter) Evaluate(obs, mask, priors, values []float32) error {
	if f.calls.Add(1) > f.n {
		return errBoom
	}
	return Uniform{}.Evaluate(obs, mask, priors, values)
}

// TestSetMaxNodes: shrinking below the tree drops it, keeping the root
// position; out of range is refused.
func TestSetMaxNodes(t *testing.T) {
	s := newTest(kala6, Uniform{}, DefaultConfig(), 1)
	st := kala6.New()
	st.Apply(2)
	s.Reset(st)
	if err := s.Run(ctx, Limits{Sims: 300}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMaxNodes(100); err != nil {
		t.Fatal(err)
	}
	if r := s.Root(); r.Visits != 0 || r.Nodes != 1 || !env.Same(s.root, st) {
		t.Errorf("after shrinking: %+v", r)
	}
	if err := s.SetMaxNodes(10); err == nil {
		t.Error("MaxNodes 10 accepted")
	}
	if err := s.Run(ctx, Limits{Sims: 300}); err != nil {
		t.Fatal(err)
	}
	if r := s.Root(); !r.Full || r.Nodes > 100 || r.Visits != 300 {
		t.Errorf("bounded search: %+v", r)
	}
}
