package learn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"

	"kumalak/data"
	"kumalak/net"
)

// The teacher's policy logits and value pre-activation are scaled up, so
// that its targets look like self-play's: policies of about 0.7 nats of
// entropy, values spread over (-1, 1) (variance about 0.34).
const lcPolicyScale, lcValueScale = 40, 20

// lcSet is a fixed dataset: rows of a teacher network's making.
type lcSet struct {
	obs, mask, policy, value []float32
	n                        int
}

// lcTeacherSet draws n positions of c's sizes (sparse 0/1 features, as the
// games' encodings are; random legal sets, never empty) and labels them
// with a fixed random teacher network: the policy target is its masked
// softmax, the value target its value.
func lcTeacherSet(c net.Config, n int, seed uint64) lcSet {
	rng := rand.New(rand.NewPCG(seed, 77))
	tc := net.Config{InputLen: c.InputLen, Actions: c.Actions, Width: 64, Blocks: 1, ValueHidden: 32}
	tp := net.NewParams(tc)
	tp.Init(rand.New(rand.NewPCG(1234, 1))) // the same teacher for every set
	for k, scale := range map[int]float32{6: lcPolicyScale, 5: lcPolicyScale, 2: lcValueScale} {
		for i := range tp.Tensors[len(tp.Tensors)-k].Data {
			tp.Tensors[len(tp.Tensors)-k].Data[i] *= scale // sharper policies, values further from 0
		}
	}
	s := lcSet{obs: make([]float32, n*c.InputLen), mask: make([]float32, n*c.Actions),
		policy: make([]float32, n*c.Actions), value: make([]float32, n), n: n}
	for i := range s.obs {
		if rng.IntN(10) < 3 {
			s.obs[i] = 1
		}
	}
	for r := range n {
		m := s.mask[r*c.Actions : (r+1)*c.Actions]
		m[rng.IntN(c.Actions)] = 1
		for a := range m {
			if rng.IntN(3) > 0 {
				m[a] = 1
			}
		}
	}
	inf := net.NewInfer(tp, 256)
	for lo := 0; lo < n; lo += 256 {
		hi := min(lo+256, n)
		inf.Run(s.obs[lo*c.InputLen:hi*c.InputLen], s.mask[lo*c.Actions:hi*c.Actions], s.policy[lo*c.Actions:hi*c.Actions], s.value[lo:hi])
	}
	return s
}

// fill copies rows idx of the set into b.
func (s lcSet) fill(b *data.Batch, idx []int, c net.Config) {
	for i, j := range idx {
		copy(b.Obs[i*c.InputLen:(i+1)*c.InputLen], s.obs[j*c.InputLen:(j+1)*c.InputLen])
		copy(b.Mask[i*c.Actions:(i+1)*c.Actions], s.mask[j*c.Actions:(j+1)*c.Actions])
		copy(b.Policy[i*c.Actions:(i+1)*c.Actions], s.policy[j*c.Actions:(j+1)*c.Actions])
		b.Value[i] = s.value[j]
	}
}

// lcEntropy is the mean entropy of the set's policy targets.
func lcEntropy(s lcSet, c net.Config) float64 {
	h := 0.0
	for _, p := range s.policy {
		if p > 0 {
			h -= float64(p) * math.Log(float64(p))
		}
	}
	return h / float64(s.n)
}

// lcVariance is the variance of xs.
func lcVariance(xs []float32) float64 {
	m, v := 0.0, 0.0
	for _, x := range xs {
		m += float64(x)
	}
	m /= float64(len(xs))
	for _, x := range xs {
		v += (float64(x) - m) * (float64(x) - m)
	}
	return v / float64(len(xs))
}

// heldOutLoss is the policy cross-entropy plus the value's squared error
// of tr's network on s.
func heldOutLoss(t *testing.T, tr *Trainer, s lcSet, c net.Config) (policy, value float64) {
	t.Helper()
	priors, values := make([]float32, s.n*c.Actions), make([]float32, s.n)
	if err := tr.Forward(s.obs, s.mask, priors, values); err != nil {
		t.Fatal(err)
	}
	for r := range s.n {
		for a := range c.Actions {
			if p := s.policy[r*c.Actions+a]; p > 0 {
				policy -= float64(p) * math.Log(max(float64(priors[r*c.Actions+a]), 1e-12))
			}
		}
		d := float64(values[r] - s.value[r])
		value += d * d
	}
	return policy / float64(s.n), value / float64(s.n)
}

// TestLossAtEqualSamples trains the default network (togyz's sizes) on a
// fixed dataset of 65,536 teacher-labelled rows under the trainer before
// this change (gonum's products, one graph), after it (gemm, two graph
// copies) and at batch 1024, and logs the held-out loss at equal samples
// trained. The after curve must match the before one (the same gradients,
// to rounding). It takes about a minute of CPU, so it runs only when asked:
//
//	KUMALAK_LOSS_CURVE=1 go test ./net/learn -run TestLossAtEqualSamples -v
func TestLossAtEqualSamples(t *testing.T) {
	if os.Getenv("KUMALAK_LOSS_CURVE") == "" {
		t.Skip("set KUMALAK_LOSS_CURVE=1 to train the loss curves (about a minute of CPU)")
	}
	c := net.DefaultConfig(116, 9)
	c.Width, c.Blocks, c.ValueHidden = 128, 2, 64 // configs/togyz.yaml
	train, held := lcTeacherSet(c, 1<<16, 1), lcTeacherSet(c, 4096, 2)
	const total, every = 256 * 1000, 256 * 100 // samples trained, between two measures
	runs := []struct {
		name            string
		batch, parallel int
		lr              float64
		blas            G.BLAS
	}{
		{"before: batch 256, 1 graph, gonum", 256, 1, 2e-3, gonum.Implementation{}},
		{"after: batch 256, parallel 2, gemm", 256, 2, 2e-3, gemmBLAS{}},
		{"batch 1024, lr 2e-3", 1024, 2, 2e-3, gemmBLAS{}},
		{"batch 1024, lr 4e-3", 1024, 2, 4e-3, gemmBLAS{}},
	}
	curves := make([][]float64, len(runs))
	prev := G.WhichBLAS()
	defer G.Use(prev)
	for k, run := range runs {
		cfg := DefaultConfig()
		cfg.Batch, cfg.Parallel, cfg.LR, cfg.MinLR, cfg.Schedule, cfg.WarmupSteps = run.batch, run.parallel, run.lr, 1e-4, ScheduleConstant, 50*256/run.batch
		tr := trMust(t, trParams(c, 5), cfg)
		G.Use(run.blas)
		rng := rand.New(rand.NewPCG(11, 12))
		b := data.NewBatch(data.Layout{ObsLen: c.InputLen, NumActions: c.Actions}, run.batch)
		perm := rng.Perm(train.n)
		next := 0
		for done := 0; done < total; done += run.batch {
			if done%every == 0 {
				p, v := heldOutLoss(t, tr, held, c)
				curves[k] = append(curves[k], p+v)
			}
			if next+run.batch > len(perm) {
				perm, next = rng.Perm(train.n), 0
			}
			train.fill(b, perm[next:next+run.batch], c)
			next += run.batch
			if _, err := tr.Step(b); err != nil {
				t.Fatal(err)
			}
		}
		p, v := heldOutLoss(t, tr, held, c)
		curves[k] = append(curves[k], p+v)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\ntargets: policy entropy %.3f nats, value variance %.3f", lcEntropy(held, c), lcVariance(held.value))
	fmt.Fprintf(&sb, "\nheld-out loss (policy CE + value MSE) by samples trained, k\n| run |")
	for i := range curves[0] {
		fmt.Fprintf(&sb, " %d |", i*every/1000)
	}
	sb.WriteString("\n")
	for k, run := range runs {
		fmt.Fprintf(&sb, "| %s |", run.name)
		for _, l := range curves[k] {
			fmt.Fprintf(&sb, " %.4f |", l)
		}
		sb.WriteString("\n")
	}
	t.Log(sb.String())
	before, after := curves[0], curves[1]
	for i := range before {
		if math.Abs(after[i]-before[i]) > 0.01*before[i] {
			t.Errorf("after %d k samples: loss %.4f, before the change %.4f", i*every/1000, after[i], before[i])
		}
	}
}
