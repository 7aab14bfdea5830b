package mcts

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"kumalak/env"
)

func TestValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default config: %v", err)
	}
	nan := float32(math.NaN())
	cases := []struct {
		field string
		edit  func(*Config)
	}{
		{"CPuct", func(c *Config) { c.CPuct = 0 }},
		{"CPuct", func(c *Config) { c.CPuct = nan }},
		{"FPUReduction", func(c *Config) { c.FPUReduction = 3 }},
		{"NoiseAlpha", func(c *Config) { c.NoiseAlpha = -0.1 }},
		{"NoiseWeight", func(c *Config) { c.NoiseWeight = 1.5 }},
		{"Batch", func(c *Config) { c.Batch = 0 }},
		{"VirtualLoss", func(c *Config) { c.VirtualLoss = -1 }},
		{"Rollouts", func(c *Config) { c.Rollouts = -1 }},
		{"MaxNodes", func(c *Config) { c.MaxNodes = 10 }},
	}
	for _, tc := range cases {
		c := DefaultConfig()
		tc.edit(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("bad %s: error %v, want one naming the field", tc.field, err)
		}
	}
	c := DefaultConfig()
	c.Batch, c.MaxNodes = -1, 1
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "Batch") || !strings.Contains(err.Error(), "MaxNodes") {
		t.Errorf("two bad fields: %v, want both named", err)
	}
}

// handTree makes s's arena a root with the given mover and stats and one
// child per (prior, visits, White-view value sum, visits in flight).
func handTree(s *Search, mover env.Player, n int32, w float32, kids [][4]float32) {
	s.used = 0
	r, _ := s.alloc(1 + len(kids))
	*s.nd(r) = node{n: n, w: w, first: 1, kids: uint16(len(kids)), meta: packMeta(reached|expanded, mover, env.Ongoing, 0)}
	for i, k := range kids {
		*s.nd(r + 1 + int32(i)) = node{action: env.Action(i), prior: k[0], n: int32(k[1]), w: k[2], vl: int32(k[3])}
	}
}

func TestPickByHand(t *testing.T) {
	cfg := DefaultConfig()
	cfg.CPuct = 1.5
	s := newTest(kala3, Uniform{}, cfg, 1)
	// Root Q = 0.2 for White. Scores with sqrt(10) = 3.1623:
	// A: 0.2 + 1.5*0.5*3.1623/6 = 0.595; B: -0.5 + 1.5*0.3*3.1623/5 = -0.215;
	// C (unvisited): 0.2 - FPU + 1.5*0.2*3.1623 = 1.149 - FPU.
	kids := [][4]float32{{0.5, 5, 1, 0}, {0.3, 4, -2, 0}, {0.2, 0, 0, 0}}
	for _, tc := range []struct {
		fpu  float32
		want int32
	}{{0.25, 3}, {1.0, 1}, {0.5, 3}, {0.6, 1}} {
		for _, mover := range []env.Player{env.White, env.Black} {
			sg := sign(mover)
			flipped := make([][4]float32, len(kids))
			for i, k := range kids {
				flipped[i] = [4]float32{k[0], k[1], sg * k[2], k[3]}
			}
			s.cfg.FPUReduction = tc.fpu
			handTree(s, mover, 10, sg*2, flipped)
			if got := s.pick(0); got != tc.want {
				t.Errorf("FPU %v, mover %v: picked node %d, want %d", tc.fpu, mover, got, tc.want)
			}
		}
	}
}

func TestPickVirtualLoss(t *testing.T) {
	s := newTest(kala3, Uniform{}, DefaultConfig(), 1)
	// Two equal children; one has two visits in flight and is avoided.
	handTree(s, env.White, 21, 0, [][4]float32{{0.5, 10, 5, 2}, {0.5, 10, 5, 0}})
	s.nd(0).vl = 2
	if got := s.pick(0); got != 2 {
		t.Errorf("picked %d, want 2 (the child without virtual loss)", got)
	}
}

// refPick is PUCT written out independently, in float64.
func refPick(cfg Config, mover env.Player, n, vl int32, w float64, kids [][4]float32) int {
	sg := 1.0
	if mover == env.Black {
		sg = -1
	}
	fpu := sg*w/float64(n) - float64(cfg.FPUReduction)
	best, bestScore := 0, math.Inf(-1)
	for i, k := range kids {
		visits := float64(k[1] + k[3])
		q := fpu
		if visits > 0 {
			q = (sg*float64(k[2]) - float64(cfg.VirtualLoss)*float64(k[3])) / visits
		}
		u := float64(cfg.CPuct) * float64(k[0]) * math.Sqrt(float64(n+vl)) / (1 + visits)
		if q+u > bestScore+1e-5 {
			best, bestScore = i, q+u
		}
	}
	return best
}

func TestPickMatchesFormula(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	s := newTest(kala6, Uniform{}, DefaultConfig(), 1)
	for trial := range 2000 {
		s.cfg.CPuct = 0.5 + 3*rng.Float32()
		s.cfg.FPUReduction = rng.Float32()
		s.cfg.VirtualLoss = rng.Float32() * 2
		k := 1 + rng.IntN(6)
		kids := make([][4]float32, k)
		var sum, total float32
		for i := range kids {
			n := float32(rng.IntN(4) * rng.IntN(10))
			kids[i] = [4]float32{rng.Float32(), n, n * (2*rng.Float32() - 1), float32(rng.IntN(2))}
			sum += kids[i][0]
			total += n
		}
		for i := range kids {
			kids[i][0] /= sum
		}
		mover := env.Player(rng.IntN(2))
		w := (total + 1) * (2*rng.Float32() - 1)
		handTree(s, mover, int32(total)+1, w, kids)
		s.nd(0).vl = int32(rng.IntN(3))
		want := refPick(s.cfg, mover, int32(total)+1, s.nd(0).vl, float64(w), kids)
		got := int(s.pick(0)) - 1
		if got == want {
			continue
		}
		t.Errorf("trial %d: picked %d, formula %d (kids %v, mover %v)", trial, got, want, kids, mover)
		if trial > 20 {
			t.FailNow()
		}
	}
}

func TestPickSkipsProvenLoss(t *testing.T) {
	s := newTest(kala3, Uniform{}, DefaultConfig(), 1)
	handTree(s, env.White, 3, 0, [][4]float32{{0.9, 1, -1, 0}, {0.1, 1, -1, 0}})
	s.nd(1).force(env.BlackWins, 0)
	if got := s.pick(0); got != 2 {
		t.Errorf("picked %d, want 2: node 1 is a proven loss", got)
	}
	s.cfg.Solver = false
	if got := s.pick(0); got != 1 {
		t.Errorf("without the solver picked %d, want 1 (high prior)", got)
	}
}

func TestChooseTemperature(t *testing.T) {
	s := newTest(kala3, Uniform{}, DefaultConfig(), 7)
	handTree(s, env.White, 101, 0, [][4]float32{{0.3, 10, 0, 0}, {0.3, 20, 0, 0}, {0.4, 70, 0, 0}})
	if a := s.Choose(0); a != 2 {
		t.Fatalf("Choose(0) = %d, want 2", a)
	}
	const draws = 20000
	for _, tc := range []struct {
		temp float32
		want [3]float64
	}{
		{1, [3]float64{0.1, 0.2, 0.7}},
		{0.5, [3]float64{100.0 / 5400, 400.0 / 5400, 4900.0 / 5400}},
		{2, [3]float64{math.Sqrt(10), math.Sqrt(20), math.Sqrt(70)}},
	} {
		norm := tc.want[0] + tc.want[1] + tc.want[2]
		var got [3]int
		for range draws {
			got[s.Choose(tc.temp)]++
		}
		for a := range 3 {
			p := tc.want[a] / norm
			sd := math.Sqrt(p * (1 - p) / draws)
			if f := float64(got[a]) / draws; math.Abs(f-p) > 5*sd+1e-4 {
				t.Errorf("temp %v: action %d chosen %.4f, want %.4f", tc.temp, a, f, p)
			}
		}
	}
}

func TestChooseTiesAndProofs(t *testing.T) {
	s := newTest(kala3, Uniform{}, DefaultConfig(), 7)
	// Equal visits: higher Q (White's view) wins; equal Q: higher prior.
	handTree(s, env.White, 21, 0, [][4]float32{{0.2, 10, 1, 0}, {0.5, 10, 3, 0}, {0.3, 0, 0, 0}})
	if a := s.Choose(0); a != 1 {
		t.Errorf("tie on visits: chose %d, want 1 (higher Q)", a)
	}
	handTree(s, env.Black, 21, 0, [][4]float32{{0.2, 10, -3, 0}, {0.5, 10, -3, 0}, {0.3, 0, 0, 0}})
	if a := s.Choose(0); a != 1 {
		t.Errorf("tie on visits and Q: chose %d, want 1 (higher prior)", a)
	}
	// Proven wins beat visits (shortest first); proven losses are avoided.
	handTree(s, env.White, 61, 0, [][4]float32{{0.2, 50, 0, 0}, {0.2, 3, 3, 0}, {0.2, 5, 5, 0}, {0.4, 2, 0, 0}})
	s.nd(2).force(env.WhiteWins, 7)
	s.nd(3).force(env.WhiteWins, 3)
	for _, temp := range []float32{0, 1} {
		if a := s.Choose(temp); a != 2 {
			t.Errorf("temp %v: chose %d, want 2 (shortest proven win)", temp, a)
		}
	}
	s.nd(2).force(env.Ongoing, 0)
	s.nd(3).force(env.Ongoing, 0)
	s.nd(1).force(env.BlackWins, 0)
	for range 50 {
		if a := s.Choose(1); a == 0 {
			t.Fatal("temp 1 sampled a proven loss")
		}
	}
	for c := int32(1); c <= 4; c++ {
		s.nd(c).force(env.BlackWins, uint16(c))
	}
	if a := s.Choose(1); a != 3 {
		t.Errorf("all lost: chose %d, want 3 (longest loss)", a)
	}
}

// TestScoreKey checks that scoreKey orders scores as > does, the first
// child winning ties, over negative, positive, tiny, huge and infinite
// scores (never NaN nor -0, as pick's scores).
func TestScoreKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	scores := []float32{0, 1, -1, 0.5, -0.5, 1e-30, -1e-30, 1e30, -1e30, float32(math.Inf(1)), float32(math.Inf(-1)), math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32}
	for range 2000 {
		scores = append(scores, float32(rng.NormFloat64()*math.Pow(10, float64(rng.IntN(9)-4))))
	}
	for i, a := range scores {
		for _, b := range scores[i:] {
			for _, c := range [][2]int{{0, 1}, {1, 0}, {3, 8}} {
				ka, kb := scoreKey(a, c[0]), scoreKey(b, c[1])
				if ka == 0 || kb == 0 {
					t.Fatalf("a zero key for %v or %v", a, b)
				}
				want := a > b || (a == b && c[0] < c[1])
				if got := ka > kb; got != want {
					t.Fatalf("scores %v (child %d) and %v (child %d): key says first larger %v, want %v", a, c[0], b, c[1], got, want)
				}
			}
		}
	}
}

// TestSetPriors renormalises the evaluator's priors over the children's
// actions, ignores what is not a finite positive number, and falls back
// to uniform priors when nothing usable is left (or the sum is too small
// to invert).
func TestSetPriors(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	tiny := float32(math.SmallestNonzeroFloat32)
	for _, tc := range []struct {
		name string
		row  []float32 // priors by action; the children hold actions 0..len(want)-1
		want []float32
	}{
		{"sums to one", []float32{0.5, 0.25, 0.25}, []float32{0.5, 0.25, 0.25}},
		{"rescaled", []float32{2, 1, 1}, []float32{0.5, 0.25, 0.25}},
		{"a move not a child ignored", []float32{1, 1, 0, 6}, []float32{0.5, 0.5, 0}},
		{"negative, NaN and +Inf dropped", []float32{-1, nan, inf, 3}, []float32{0, 0, 0, 1}},
		{"all zero", []float32{0, 0, 0, 0}, []float32{0.25, 0.25, 0.25, 0.25}},
		{"subnormal sum", []float32{tiny, 0}, []float32{0.5, 0.5}},
		{"sum overflows", []float32{3e38, 3e38}, []float32{0.5, 0.5}},
	} {
		s := newTest(kala6, Uniform{}, DefaultConfig(), 1)
		kids := make([][4]float32, len(tc.want))
		handTree(s, env.White, 0, 0, kids)
		s.setPriors(0, tc.row)
		for i, w := range tc.want {
			if got := s.nd(1 + int32(i)).prior; math.Abs(float64(got-w)) > 1e-6 {
				t.Errorf("%s: child %d prior %v, want %v", tc.name, i, got, w)
			}
		}
	}
}
