package mcts

import (
	"errors"
	"math"
	"testing"

	"kumalak/env"
)

func TestBatchVirtualLoss(t *testing.T) {
	rec := &recorder{}
	cfg := DefaultConfig()
	cfg.Batch = 8
	s := newTest(kala6, rec, cfg, 1)
	s.Reset(kala6.New())
	if err := s.Run(ctx, Limits{Sims: 400}); err != nil {
		t.Fatal(err)
	}
	checkTree(t, s)
	sum, full := 0, 0
	for _, n := range rec.sizes {
		if n < 1 || n > 8 {
			t.Fatalf("batch of %d, want 1..8", n)
		}
		sum += n
		if n == 8 {
			full++
		}
	}
	// The root alone, then its 6 children spread by virtual loss (without
	// it every descent would collide on one child).
	if len(rec.sizes) < 2 || rec.sizes[0] != 1 || rec.sizes[1] != 6 {
		t.Errorf("first batches %v, want 1 then 6", rec.sizes[:min(len(rec.sizes), 5)])
	}
	if sum != 400 || s.Root().Visits != 400 || full < len(rec.sizes)/2 {
		t.Errorf("%d evaluations in %d batches (%d full), root visits %d; want 400 and mostly full batches", sum, len(rec.sizes), full, s.Root().Visits)
	}
}

// TestBatchNearEnd: big batches in a tiny tree full of terminal positions
// (collisions, terminal leaves backed up at once) keep the counts exact.
func TestBatchNearEnd(t *testing.T) {
	for _, solver := range []bool{false, true} {
		rec := &recorder{}
		cfg := DefaultConfig()
		cfg.Batch, cfg.Solver = 16, solver
		s := newTest(kala3, rec, cfg, 1)
		s.Reset(mustKala(kala3, "0,1,1/2,0,1 6 7 - - w"))
		err := s.Run(ctx, Limits{Sims: 500})
		if err != nil {
			t.Fatal(err)
		}
		checkTree(t, s)
		r := s.Root()
		if !solver && r.Visits != 500 {
			t.Errorf("solver off: %d root visits, want 500", r.Visits)
		}
		if solver && r.Proof == Unproven {
			t.Errorf("solver on: root %+v not proven", r)
		}
		for _, n := range rec.sizes {
			if n > 16 {
				t.Errorf("batch of %d", n)
			}
		}
	}
}

func TestEvaluatorError(t *testing.T) {
	boom := errors.New("boom")
	rec := &recorder{failAt: 5, err: boom}
	cfg := DefaultConfig()
	cfg.Batch = 4
	s := newTest(kala6, rec, cfg, 1)
	s.Reset(kala6.New())
	err := s.Run(ctx, Limits{Sims: 100})
	if !errors.Is(err, boom) {
		t.Fatalf("Run = %v, want the evaluator's error wrapped", err)
	}
	checkTree(t, s)
	before := s.Root().Visits
	if err := s.Run(ctx, Limits{Sims: 100}); err != nil {
		t.Fatal(err)
	}
	checkTree(t, s)
	if got := s.Root().Visits; got != before+100 {
		t.Errorf("%d visits after a failed and a good run, want %d", got, before+100)
	}
}

// badEval returns unnormalised, partly negative priors and out-of-range
// values, or a NaN value.
type badEval struct{ nan bool }

func (e badEval) Evaluate(obs, mask, priors, values []float32) error {
	for i := range priors {
		priors[i] = float32(i%3) - 0.5 // -0.5, 0.5, 1.5, ...
	}
	for i := range values {
		values[i] = 7
		if e.nan {
			values[i] = float32(math.NaN())
		}
	}
	return nil
}

func TestEvaluatorOutputChecked(t *testing.T) {
	s := newTest(kala3, badEval{}, DefaultConfig(), 1)
	s.Reset(kala3.New())
	if err := s.Run(ctx, Limits{Sims: 20}); err != nil {
		t.Fatal(err)
	}
	var sum float32
	for _, c := range s.Children(nil) {
		sum += c.Prior
		if c.Prior < 0 || c.Q < -1 || c.Q > 1 {
			t.Errorf("child %+v: prior or Q out of range", c)
		}
	}
	if math.Abs(float64(sum-1)) > 1e-6 {
		t.Errorf("priors sum to %v", sum)
	}
	s = newTest(kala3, badEval{nan: true}, DefaultConfig(), 1)
	s.Reset(kala3.New())
	if err := s.Run(ctx, Limits{Sims: 20}); err == nil {
		t.Error("a NaN value was accepted")
	}
}

func TestTreeReuse(t *testing.T) {
	s := newTest(kala6, Uniform{}, DefaultConfig(), 1)
	st := kala6.New()
	s.Reset(st)
	if err := s.Run(ctx, Limits{Sims: 500}); err != nil {
		t.Fatal(err)
	}
	a := s.Choose(0)
	c := s.childOf(0, a)
	want := s.nd(c).n
	var grand []ChildStats
	lo, hi := s.nd(c).children()
	for g := lo; g < hi; g++ {
		grand = append(grand, ChildStats{Action: s.nd(g).action, Visits: int(s.nd(g).n)})
	}
	st.Apply(a)
	s.Advance(a, st)
	checkTree(t, s)
	if got := s.Root(); got.Visits != int(want) || got.Mover != st.ToMove() {
		t.Fatalf("after Advance root %+v, want %d visits, mover %v", got, want, st.ToMove())
	}
	for i, ch := range s.Children(nil) {
		if ch.Action != grand[i].Action || ch.Visits != grand[i].Visits {
			t.Fatalf("child %d: %+v, want %+v", i, ch, grand[i])
		}
	}
	if err := s.Run(ctx, Limits{Sims: 100}); err != nil {
		t.Fatal(err)
	}
	checkTree(t, s)
	if got := s.Root().Visits; got != int(want)+100 {
		t.Errorf("%d visits after 100 more, want %d", got, want+100)
	}
	// A position that a does not lead to resets the tree.
	b := s.Choose(0)
	wrong := kala6.New()
	s.Advance(b, wrong)
	if r := s.Root(); r.Visits != 0 || r.Nodes != 1 || r.Mover != env.White {
		t.Errorf("Advance to a wrong position kept the tree: %+v", r)
	}
}

// TestArenaFull: a full arena stops the tree growing, not the search: the
// budget is spent, leaves without room valued alone, for the evaluator,
// rollouts, and threads alike.
func TestArenaFull(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ev      Evaluator
		threads int
	}{{"uniform", Uniform{}, 1}, {"rollouts", nil, 1}, {"uniform-threads", Uniform{}, 2}, {"rollouts-threads", nil, 2}} {
		cfg := DefaultConfig()
		cfg.MaxNodes, cfg.Rollouts, cfg.Batch = 64, 1, 4
		s := newTest(kala6, tc.ev, cfg, 1)
		if err := s.SetThreads(tc.threads, func() Evaluator { return tc.ev }); err != nil {
			t.Fatal(err)
		}
		s.Reset(kala6.New())
		if err := s.Run(ctx, Limits{Sims: 1000}); err != nil {
			t.Fatal(err)
		}
		checkTree(t, s)
		r := s.Root()
		if !r.Full || r.Nodes > 64 || r.Visits != 1000 || r.Sims != 1000 || r.Used > 1 {
			t.Errorf("%s: root %+v, want a full arena of at most 64 nodes and all 1000 sims", tc.name, r)
		}
		s.Reset(kala6.New())
		if s.Root().Full {
			t.Errorf("%s: Reset kept Full", tc.name)
		}
	}
}

func TestAllocs(t *testing.T) {
	for _, tc := range []struct {
		name string
		ev   Evaluator
		edit func(*Config)
	}{
		{"uniform", Uniform{}, func(*Config) {}},
		{"batch8", Uniform{}, func(c *Config) { c.Batch = 8 }},
		{"noise", Uniform{}, func(c *Config) { c.NoiseAlpha = 0.3 }},
		{"rollouts", nil, func(c *Config) { c.Rollouts = 2 }},
	} {
		cfg := DefaultConfig()
		tc.edit(&cfg)
		s := newTest(kala6, tc.ev, cfg, 1)
		st := kala6.New()
		pol := make([]float32, 6)
		n := testing.AllocsPerRun(5, func() {
			s.Reset(st)
			if err := s.Run(ctx, Limits{Sims: 300}); err != nil {
				t.Fatal(err)
			}
			s.Policy(pol)
			_ = s.Choose(1)
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per 300-simulation search, want 0", tc.name, n)
		}
	}
}

// TestAllocsReuse: once the arena has grown, moving down the game with
// Advance allocates nothing (kala has hashes, so Advance compares no
// strings).
func TestAllocsReuse(t *testing.T) {
	s := newTest(kala6, Uniform{}, DefaultConfig(), 1)
	st, next := kala6.New(), kala6.New()
	s.Reset(st)
	for range 3 { // grow both arenas
		if err := s.Run(ctx, Limits{Sims: 400}); err != nil {
			t.Fatal(err)
		}
		s.Reset(st)
	}
	n := testing.AllocsPerRun(5, func() {
		s.Reset(st)
		if err := s.Run(ctx, Limits{Sims: 200}); err != nil {
			t.Fatal(err)
		}
		a := s.Choose(0)
		next.CopyFrom(st)
		next.Apply(a)
		s.Advance(a, next)
		if err := s.Run(ctx, Limits{Sims: 200}); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per search, Advance and search, want 0", n)
	}
}
