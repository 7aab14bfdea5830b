package learn

import (
	"kumalak/net"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"kumalak/data"
)

// trTinyConfig is the smallest architecture that exercises every layer.
var trTinyConfig = net.Config{InputLen: 5, Actions: 3, Width: 4, Blocks: 1, ValueHidden: 3}

// trParams returns He-initialised parameters for c.
func trParams(c net.Config, seed uint64) *net.Params {
	p := net.NewParams(c)
	p.Init(rand.New(rand.NewPCG(seed, 1)))
	return p
}

// trBatch returns n rows of normal observations, random legal masks
// (action 0 always legal, so no row is empty), target distributions over the
// legal actions, and values and scores in [-1, 1].
func trBatch(c net.Config, n int, rng *rand.Rand) *data.Batch {
	b := data.NewBatch(data.Layout{ObsLen: c.InputLen, NumActions: c.Actions}, n)
	for i := range b.Obs {
		b.Obs[i] = float32(rng.NormFloat64())
	}
	for r := 0; r < n; r++ {
		mask, pol := b.Mask[r*c.Actions:(r+1)*c.Actions], b.Policy[r*c.Actions:(r+1)*c.Actions]
		sum := float32(0)
		for a := range mask {
			if a == 0 || rng.IntN(3) > 0 {
				mask[a], pol[a] = 1, rng.Float32()+0.01
				sum += pol[a]
			}
		}
		for a := range pol {
			pol[a] /= sum
		}
		b.Value[r] = float32(rng.Float64()*2 - 1)
		b.Score[r] = float32(rng.Float64()*2 - 1)
	}
	return b
}

func trMust(t testing.TB, p *net.Params, cfg Config) *Trainer {
	t.Helper()
	tr, err := NewTrainer(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

func TestTrainerParamsRoundTrip(t *testing.T) {
	p := trParams(trTinyConfig, 3)
	cfg := DefaultConfig()
	cfg.Batch = 2
	got := trMust(t, p, cfg).Params()
	for i, tn := range p.Tensors {
		for j, x := range tn.Data {
			if got.Tensors[i].Data[j] != x {
				t.Fatalf("%s[%d] = %v, want %v", tn.Name, j, got.Tensors[i].Data[j], x)
			}
		}
	}
}

// trTeacherBatch returns n rows whose targets are a fixed function of the
// observation: a one-hot policy on the best legal action of a random linear
// scorer, and value tanh of a random projection.
func trTeacherBatch(c net.Config, n int, rng *rand.Rand) *data.Batch {
	b := trBatch(c, n, rng)
	m := make([]float64, c.InputLen*c.Actions)
	u := make([]float64, c.InputLen)
	for i := range m {
		m[i] = rng.NormFloat64()
	}
	for i := range u {
		u[i] = rng.NormFloat64() / math.Sqrt(float64(c.InputLen))
	}
	for r := 0; r < n; r++ {
		obs, pol := b.Obs[r*c.InputLen:(r+1)*c.InputLen], b.Policy[r*c.Actions:(r+1)*c.Actions]
		best, bestScore, v := 0, math.Inf(-1), 0.0
		for a := range pol {
			s := 0.0
			for i, x := range obs {
				s += float64(x) * m[i*c.Actions+a]
			}
			if b.Mask[r*c.Actions+a] == 1 && s > bestScore {
				best, bestScore = a, s
			}
			pol[a] = 0
		}
		pol[best] = 1
		for i, x := range obs {
			v += float64(x) * u[i]
		}
		b.Value[r] = float32(math.Tanh(v))
	}
	return b
}

func TestTrainingReducesLoss(t *testing.T) {
	for name, wd := range map[string]float64{"adam": 0, "adamw": 0.01} {
		t.Run(name, func(t *testing.T) {
			c := net.Config{InputLen: 16, Actions: 6, Width: 64, Blocks: 1, ValueHidden: 16}
			cfg := DefaultConfig()
			cfg.LR, cfg.WeightDecay, cfg.WarmupSteps = 3e-3, wd, 10
			tr := trMust(t, trParams(c, 7), cfg)
			b := trTeacherBatch(c, cfg.Batch, rand.New(rand.NewPCG(7, 7)))
			var first, last Losses
			for i := 0; i < 150; i++ {
				l, err := tr.Step(b)
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					first = l
				}
				last = l
			}
			t.Logf("%s: loss %.4f -> %.4f (policy %.4f -> %.4f, value %.4f -> %.4f)",
				name, first.Total, last.Total, first.Policy, last.Policy, first.Value, last.Value)
			if last.Total > 0.2*first.Total {
				t.Errorf("loss fell from %.4f to %.4f, want below 20%%", first.Total, last.Total)
			}
			if tr.Steps() != 150 {
				t.Errorf("Steps() = %d, want 150", tr.Steps())
			}
		})
	}
}

func TestMaskedActionsGetNoProbability(t *testing.T) {
	c := trTinyConfig
	cfg := DefaultConfig()
	cfg.Batch = 8
	rng := rand.New(rand.NewPCG(5, 5))
	tr := trMust(t, trParams(c, 5), cfg)
	b := trBatch(c, cfg.Batch, rng)
	// Target mass on an illegal action must be ignored, not make the loss
	// explode, and a row with no legal action must not produce NaN.
	b.Mask[1*c.Actions+2], b.Policy[1*c.Actions+2] = 0, 0.5
	clear(b.Mask[2*c.Actions : 3*c.Actions])
	for i := 0; i < 20; i++ {
		l, err := tr.Step(b)
		if err != nil {
			t.Fatal(err)
		}
		if l.Total > 10 || l.PolicyEntropy < 0 || math.IsNaN(l.PolicyEntropy) {
			t.Fatalf("step %d: losses %+v", i, l)
		}
	}
	priors, values := make([]float32, cfg.Batch*c.Actions), make([]float32, cfg.Batch)
	if err := tr.Forward(b.Obs, b.Mask, priors, values); err != nil {
		t.Fatal(err)
	}
	for r := 0; r < cfg.Batch; r++ {
		sum := float32(0)
		for a := 0; a < c.Actions; a++ {
			p := priors[r*c.Actions+a]
			if b.Mask[r*c.Actions+a] == 0 && p != 0 && r != 2 {
				t.Errorf("row %d: illegal action %d has probability %g", r, a, p)
			}
			sum += p
		}
		want := float32(1)
		if r == 2 {
			want = 0 // no legal action
		}
		if math.Abs(float64(sum-want)) > 1e-5 || math.IsNaN(float64(values[r])) {
			t.Errorf("row %d: priors sum to %g (want %g), value %g", r, sum, want, values[r])
		}
	}
}

func TestTrainingIsReproducible(t *testing.T) {
	c := net.Config{InputLen: 12, Actions: 5, Width: 96, Blocks: 2, ValueHidden: 8}
	cfg := DefaultConfig()
	cfg.Batch, cfg.ScoreWeight = 128, 0.5
	rng := rand.New(rand.NewPCG(9, 9))
	batches := []*data.Batch{trBatch(c, cfg.Batch, rng), trBatch(c, cfg.Batch, rng), trBatch(c, cfg.Batch, rng)}
	// The first run is single-threaded, the second uses every core: gonum
	// splits matrix products into fixed blocks, so the results must agree.
	run := func(procs int) (*net.Params, []Losses) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		tr := trMust(t, trParams(c, 9), cfg)
		var ls []Losses
		for i := 0; i < 6; i++ {
			l, err := tr.Step(batches[i%len(batches)])
			if err != nil {
				t.Fatal(err)
			}
			ls = append(ls, l)
		}
		return tr.Params(), ls
	}
	p1, l1 := run(1)
	p2, l2 := run(runtime.NumCPU())
	for i := range l1 {
		if l1[i] != l2[i] {
			t.Errorf("step %d: losses %+v vs %+v", i, l1[i], l2[i])
		}
	}
	if !trSameBits(p1, p2) {
		t.Fatal("weights differ between GOMAXPROCS=1 and all cores")
	}
	if trSameBits(p1, trParams(c, 9)) {
		t.Error("training left every weight unchanged")
	}
}

// trSameBits reports whether a and b hold bit-identical weights.
func trSameBits(a, b *net.Params) bool {
	for i, tn := range a.Tensors {
		for j, x := range tn.Data {
			if math.Float32bits(x) != math.Float32bits(b.Tensors[i].Data[j]) {
				return false
			}
		}
	}
	return true
}

func TestStepRejectsBadBatches(t *testing.T) {
	c := trTinyConfig
	cfg := DefaultConfig()
	cfg.Batch, cfg.ScoreWeight = 4, 1
	tr := trMust(t, trParams(c, 2), cfg)
	rng := rand.New(rand.NewPCG(2, 2))
	cases := map[string]func(b *data.Batch){
		"rows":   func(b *data.Batch) { b.N = 3 },
		"obs":    func(b *data.Batch) { b.Obs = b.Obs[:len(b.Obs)-1] },
		"policy": func(b *data.Batch) { b.Policy = b.Policy[:1] },
		"value":  func(b *data.Batch) { b.Value = nil },
		"score":  func(b *data.Batch) { b.Score = b.Score[:3] },
	}
	for name, edit := range cases {
		b := trBatch(c, cfg.Batch, rng)
		edit(b)
		if _, err := tr.Step(b); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: Step error = %v, want one naming %s", name, err, name)
		}
	}
	before := tr.Params()
	b := trBatch(c, cfg.Batch, rng)
	b.Obs[3] = float32(math.NaN())
	if _, err := tr.Step(b); err == nil {
		t.Fatal("Step accepted a batch with a NaN loss")
	}
	after := tr.Params()
	for i, tn := range before.Tensors {
		for j, x := range tn.Data {
			if after.Tensors[i].Data[j] != x {
				t.Fatalf("rejected step changed %s[%d]", tn.Name, j)
			}
		}
	}
	if tr.Steps() != 0 {
		t.Errorf("Steps() = %d after only rejected batches", tr.Steps())
	}
	if _, err := tr.Step(trBatch(c, cfg.Batch, rng)); err != nil {
		t.Errorf("good batch after a rejected one: %v", err)
	}
}

func TestNewTrainerValidates(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Schedule = "lbfgs"
	if _, err := NewTrainer(trParams(trTinyConfig, 1), cfg); err == nil {
		t.Error("NewTrainer accepted a bad Config")
	}
	bad := trTinyConfig
	bad.Width = 0
	if _, err := NewTrainer(net.NewParams(bad), DefaultConfig()); err == nil {
		t.Error("NewTrainer accepted a bad net.Config")
	}
}

// Replicas compute the gradient of the whole batch: a trainer of 2 or 3
// graph copies (3 splits 7 rows unevenly) takes the steps one graph takes,
// to float32 rounding, and reports the same losses.
func TestParallelMatchesOneGraph(t *testing.T) {
	c := net.Config{InputLen: 16, Actions: 6, Width: 32, Blocks: 1, ValueHidden: 8}
	train := func(parallel int) (*net.Params, []Losses) {
		cfg := DefaultConfig()
		cfg.Batch, cfg.Parallel, cfg.ScoreWeight, cfg.WarmupSteps = 7, parallel, 0.5, 0
		tr := trMust(t, trParams(c, 9), cfg)
		rng := rand.New(rand.NewPCG(9, 9))
		var ls []Losses
		for range 20 {
			l, err := tr.Step(trTeacherBatch(c, cfg.Batch, rng))
			if err != nil {
				t.Fatal(err)
			}
			ls = append(ls, l)
		}
		return tr.Params(), ls
	}
	one, oneLosses := train(1)
	for _, parallel := range []int{2, 3} {
		got, losses := train(parallel)
		for i, l := range losses {
			w := oneLosses[i]
			for _, d := range [][2]float64{{l.Total, w.Total}, {l.Policy, w.Policy}, {l.Value, w.Value}, {l.Score, w.Score}, {l.PolicyEntropy, w.PolicyEntropy}} {
				if math.Abs(d[0]-d[1]) > 1e-4*(1+math.Abs(d[1])) {
					t.Fatalf("parallel %d, step %d: losses %+v, one graph %+v", parallel, i, l, w)
				}
			}
		}
		for i, tn := range one.Tensors {
			for j, x := range tn.Data {
				// Adam's normalised steps of lr 1e-3 amplify rounding
				// differences in near-zero gradients up to a step each.
				if d := math.Abs(float64(got.Tensors[i].Data[j] - x)); d > 5e-3 {
					t.Fatalf("parallel %d: %s[%d] = %v, one graph %v", parallel, tn.Name, j, got.Tensors[i].Data[j], x)
				}
			}
		}
	}
}
