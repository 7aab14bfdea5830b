package mcts

import (
	"math"
	"slices"
	"testing"

	"kumalak/env"
)

// obsEval is a deterministic evaluator whose priors and value depend on
// every feature of the observation, so that two searches agree only if
// they saw the same positions in the same order.
type obsEval struct{ obsLen int }

func (e obsEval) Evaluate(obs, mask, priors, values []float32) error {
	na := len(mask) / len(values)
	for i := range values {
		var h float64
		for j, x := range obs[i*e.obsLen : (i+1)*e.obsLen] {
			h += float64(x) * float64(j+1) * 0.713
		}
		for a := range na {
			f := math.Abs(math.Sin(h * float64(a+2)))
			priors[i*na+a] = mask[i*na+a] * float32(0.05+f)
		}
		values[i] = float32(math.Sin(h))
	}
	return nil
}

// stepped runs the search lim by Begin, Gather and Finish, evaluating
// with ev, and returns the rows of each Gather.
func stepped(t *testing.T, s *Search, ev Evaluator, lim Limits, obs, mask, priors, values []float32) []int {
	t.Helper()
	if err := s.Begin(lim); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	na, nobs := s.spec.NumActions, s.spec.ObsLen
	for {
		n := s.Gather(obs, mask)
		if n == 0 {
			return sizes
		}
		sizes = append(sizes, n)
		if err := ev.Evaluate(obs[:n*nobs], mask[:n*na], priors[:n*na], values[:n]); err != nil {
			t.Fatal(err)
		}
		if err := s.Finish(priors, values); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSteppedMatchesRun: a game searched move by move with Begin, Gather
// and Finish builds the same trees, and so chooses the same moves, as the
// same game searched by Run, for each kind of search.
func TestSteppedMatchesRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
		lim  Limits
	}{
		{"puct", func(c *Config) { c.NoiseAlpha = 1 }, Limits{Sims: 120}},
		{"puct-quiet", func(c *Config) { c.NoiseAlpha = 1 }, Limits{Sims: 40, NoNoise: true}},
		{"batch4", func(c *Config) { c.Batch = 4 }, Limits{Sims: 150}},
		{"visits", func(*Config) {}, Limits{Visits: 100}},
		{"nosolver", func(c *Config) { c.Solver = false }, Limits{Sims: 100}},
		{"small-arena", func(c *Config) { c.MaxNodes = 300 }, Limits{Sims: 200}},
		{"gumbel", func(c *Config) { c.Kind = Gumbel; c.GumbelM = 4 }, Limits{Sims: 64}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			tc.edit(&cfg)
			ev := obsEval{kala6.ObsLen}
			a, b := newTest(kala6, ev, cfg, 7), newTest(kala6, nil0{}, cfg, 7)
			na := kala6.NumActions
			obs, mask := make([]float32, cfg.Batch*kala6.ObsLen), make([]float32, cfg.Batch*na)
			priors, values := make([]float32, cfg.Batch*na), make([]float32, cfg.Batch)
			st := kala6.New()
			var ca, cb []ChildStats
			for ply := 0; st.Result() == env.Ongoing && ply < 30; ply++ {
				if err := a.Run(ctx, tc.lim); err != nil {
					t.Fatal(err)
				}
				stepped(t, b, ev, tc.lim, obs, mask, priors, values)
				ca, cb = a.Children(ca[:0]), b.Children(cb[:0])
				if !slices.Equal(ca, cb) || a.Root() != b.Root() {
					t.Fatalf("ply %d: Run %+v %+v, stepped %+v %+v", ply, a.Root(), ca, b.Root(), cb)
				}
				if !b.Root().Full { // a full arena's valued leaves break the visit sums
					checkTree(t, b)
				}
				ma, mb := a.Choose(1), b.Choose(1)
				if ma != mb {
					t.Fatalf("ply %d: Run chose %d, stepped %d", ply, ma, mb)
				}
				st.Apply(ma)
				a.Advance(ma, st)
				b.Advance(mb, st)
			}
		})
	}
}

// nil0 is an evaluator that must never be called: a stepped search does
// not call its own.
type nil0 struct{}

func (nil0) Evaluate(obs, mask, priors, values []float32) error {
	panic("mcts: a stepped search called its own evaluator")
}

func TestSteppedEdges(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Batch = 2
	s := newTest(kala6, Uniform{}, cfg, 1)
	na := kala6.NumActions
	obs, mask := make([]float32, 2*kala6.ObsLen), make([]float32, 2*na)
	priors, values := make([]float32, 2*na), make([]float32, 2)
	if n := s.Gather(obs, mask); n != 0 {
		t.Fatalf("Gather with no search begun: %d rows, want 0", n)
	}
	if err := s.Begin(Limits{}); err == nil {
		t.Error("Begin accepted empty limits")
	}
	// A NaN value ends the search with an error; the tree stays usable.
	if err := s.Begin(Limits{Sims: 50}); err != nil {
		t.Fatal(err)
	}
	n := s.Gather(obs, mask)
	if n != 1 { // the root alone
		t.Fatalf("first Gather: %d rows, want 1", n)
	}
	if err := s.Run(ctx, Limits{Sims: 5}); err == nil {
		t.Error("Run accepted a search waiting for Finish")
	}
	if err := (Uniform{}).Evaluate(obs[:n*kala6.ObsLen], mask[:n*na], priors[:n*na], values[:n]); err != nil {
		t.Fatal(err)
	}
	values[0] = float32(math.NaN())
	if err := s.Finish(priors, values); err == nil {
		t.Error("Finish accepted a NaN value")
	}
	if n := s.Gather(obs, mask); n != 0 {
		t.Errorf("Gather after a failed Finish: %d rows, want 0", n)
	}
	checkTree(t, s)
	if err := s.Run(ctx, Limits{Sims: 50}); err != nil {
		t.Fatal(err)
	}
	checkTree(t, s)
	// Rows gathered and never finished are withdrawn by Reset and Advance.
	for _, move := range []bool{false, true} {
		if err := s.Begin(Limits{Sims: 50}); err != nil {
			t.Fatal(err)
		}
		if s.Gather(obs, mask) == 0 {
			t.Fatal("Gather found nothing to search")
		}
		st := kala6.New()
		if move {
			a := s.Choose(0)
			st.Apply(a)
			s.Advance(a, st)
		} else {
			s.Reset(st)
		}
		checkTree(t, s)
		if err := s.Run(ctx, Limits{Sims: 20}); err != nil {
			t.Fatal(err)
		}
	}
	// A threaded search is Run's alone.
	if err := s.SetThreads(2, func() Evaluator { return Uniform{} }); err != nil {
		t.Fatal(err)
	}
	if err := s.Begin(Limits{Sims: 10}); err == nil {
		t.Error("Begin accepted a threaded search")
	}
}

func TestSteppedAllocs(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NoiseAlpha = 1
	s := newTest(kala6, Uniform{}, cfg, 1)
	st := kala6.New()
	na := kala6.NumActions
	obs, mask := make([]float32, kala6.ObsLen), make([]float32, na)
	priors, values := make([]float32, na), make([]float32, 1)
	ev := Uniform{}
	search := func() {
		s.Reset(st)
		if err := s.Begin(Limits{Sims: 300}); err != nil {
			t.Fatal(err)
		}
		for n := s.Gather(obs, mask); n > 0; n = s.Gather(obs, mask) {
			if err := ev.Evaluate(obs[:n*kala6.ObsLen], mask[:n*na], priors[:n*na], values[:n]); err != nil {
				t.Fatal(err)
			}
			if err := s.Finish(priors, values); err != nil {
				t.Fatal(err)
			}
		}
	}
	search() // the arena grows
	if n := testing.AllocsPerRun(5, search); n != 0 {
		t.Errorf("%v allocations per stepped 300-simulation search, want 0", n)
	}
}
