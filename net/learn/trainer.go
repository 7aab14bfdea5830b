package learn

import (
	"fmt"
	"kumalak/net"
	"math"
	"math/rand/v2"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"kumalak/data"
)

// Losses reports one training step. Total = Policy + ValueWeight*Value +
// ScoreWeight*Score + L2; it is the quantity the step minimised.
type Losses struct {
	Policy        float64 // mean cross-entropy of the policy against its target
	Value         float64 // mean squared value error
	Score         float64 // mean squared auxiliary score error (0 when off)
	L2            float64 // L2 coefficient times the sum of squared weights
	Total         float64 // the weighted sum above
	PolicyEntropy float64 // mean entropy of the predicted policy, in nats
	LR            float64 // learning rate applied in this step
}

// Trainer trains a network with gorgonia. It builds the expression graph and
// a tape machine once, for exactly Config.Batch rows, and reuses both:
// each Step copies the batch into the input tensors, runs forward and
// backward, and lets a gorgonia solver (Adam or momentum SGD) update the
// weights in place.
//
// The learning rate is set on the solver before every step with
// gorgonia.WithLearnRate, which assigns the solver's rate field in place, so
// no solver or graph is rebuilt. gorgonia's solvers keep their moments
// private: they cannot be saved, so a Trainer built from saved net.Params starts
// its optimizer afresh; the warm-up of Config counts from every
// (re)start to keep Adam's first steps small.
//
// Training is deterministic: the graph holds no randomness, its ops run one
// after another, and gonum's parallel matrix products split the output into
// fixed 64×64 blocks, each summed in a fixed order whatever GOMAXPROCS is, so
// equal net.Params, config and batches give bit-identical weights.
//
// Step allocates (about 10 MB per step at batch 256, width 256): gorgonia's
// tape machine drops its intermediate values on Reset and its solvers clone
// tensors. A Trainer is not safe for concurrent use.
type Trainer struct {
	cfg    Config
	arch   net.Config
	gr     *graph
	vm     G.VM
	solver G.Solver
	model  []G.ValueGrad
	steps  int // global steps, drives the decay
	local  int // steps since NewTrainer, drives the warm-up
}

// NewTrainer returns a trainer that starts from a copy of p's weights.
func NewTrainer(p *net.Params, cfg Config) (*Trainer, error) {
	return newTrainer(p, cfg, tensor.Float32)
}

// newTrainer builds a trainer whose graph computes in dt (Float32, or
// Float64 for gradient checks).
func newTrainer(p *net.Params, cfg Config, dt tensor.Dtype) (*Trainer, error) {
	if err := p.Config.Validate(); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5c07e))
	gr, err := newGraph(p, cfg, dt, rng)
	if err != nil {
		return nil, err
	}
	t := &Trainer{cfg: cfg, arch: p.Config, gr: gr}
	t.vm = G.NewTapeMachine(gr.g, G.BindDualValues(gr.learn...))
	t.model = G.NodesToValueGrads(gr.learn)
	if cfg.Optimizer == OptimizerMomentum {
		t.solver = G.NewMomentum(G.WithMomentum(cfg.Momentum))
	} else {
		t.solver = G.NewAdamSolver()
	}
	return t, nil
}

// Close releases the tape machine.
func (t *Trainer) Close() error { return t.vm.Close() }

// Config returns the training configuration.
func (t *Trainer) Config() Config { return t.cfg }

// Steps returns the global step count.
func (t *Trainer) Steps() int { return t.steps }

// SetSteps sets the global step count, for resuming a run: the decay
// continues from n while the warm-up starts again.
func (t *Trainer) SetSteps(n int) { t.steps = n }

// LearningRate returns the rate the next Step will use.
func (t *Trainer) LearningRate() float64 { return t.cfg.LearningRate(t.steps, t.local) }

// Step trains on one batch of b.N == Batch rows (its arrays may be longer,
// as data.Window.FillBatch allows) and returns its losses, computed before
// the update. Policy target mass on illegal actions is ignored. A batch
// whose loss is not finite is rejected with an error and leaves the weights
// and the optimizer unchanged.
func (t *Trainer) Step(b *data.Batch) (Losses, error) {
	r := rows{obs: b.Obs, mask: b.Mask, policy: b.Policy, value: b.Value, score: b.Score, n: b.N}
	if err := t.load(r); err != nil {
		return Losses{}, err
	}
	defer t.vm.Reset()
	if err := t.vm.RunAll(); err != nil {
		t.zeroGrads()
		return Losses{}, fmt.Errorf("learn: train step %d: %w", t.steps, err)
	}
	l := t.losses()
	if math.IsNaN(l.Total) || math.IsInf(l.Total, 0) {
		t.zeroGrads()
		return l, fmt.Errorf("learn: train step %d: loss is %v", t.steps, l.Total)
	}
	G.WithLearnRate(l.LR)(t.solver)
	if err := t.solver.Step(t.model); err != nil {
		return l, fmt.Errorf("learn: train step %d: solver: %w", t.steps, err)
	}
	t.steps++
	t.local++
	return l, nil
}

// rows is a batch in the layout of data.Batch.
type rows struct {
	obs, mask, policy, value, score []float32
	n                               int
}

// load checks r's sizes and copies its first Batch rows into the graph
// inputs (arrays may be longer, as data.FillBatch allows). Illegal actions
// get a logit penalty and their policy target mass is dropped.
func (t *Trainer) load(r rows) error {
	c, B := t.arch, t.cfg.Batch
	nObs, nAct := B*c.InputLen, B*c.Actions
	switch {
	case r.n != B:
		return fmt.Errorf("learn: batch has %d rows, trainer is built for %d", r.n, B)
	case len(r.obs) < nObs:
		return fmt.Errorf("learn: batch obs has %d values, want %d", len(r.obs), nObs)
	case len(r.mask) < nAct || len(r.policy) < nAct:
		return fmt.Errorf("learn: batch mask/policy have %d/%d values, want %d", len(r.mask), len(r.policy), nAct)
	case len(r.value) < B:
		return fmt.Errorf("learn: batch value has %d values, want %d", len(r.value), B)
	case t.gr.score.node != nil && len(r.score) < B:
		return fmt.Errorf("learn: batch score has %d values, want %d (score_weight > 0)", len(r.score), B)
	}
	t.gr.obs.set(r.obs[:nObs])
	t.gr.negMask.apply(r.mask, r.mask, negMask)
	t.gr.policy.apply(r.policy, r.mask, maskedTarget)
	t.gr.value.set(r.value[:B])
	if t.gr.score.node != nil {
		t.gr.score.set(r.score[:B])
	}
	return nil
}

func negMask(_, m float32) float32      { return (m - 1) * maskPenalty }
func maskedTarget(p, m float32) float32 { return p * m }

// apply sets the node's value to fn(a[i], b[i]).
func (f *feed) apply(a, b []float32, fn func(x, y float32) float32) {
	if f.f32 != nil {
		for i := range f.f32 {
			f.f32[i] = fn(a[i], b[i])
		}
		return
	}
	for i := range f.f64 {
		f.f64[i] = float64(fn(a[i], b[i]))
	}
}

// losses reads the loss nodes after a run.
func (t *Trainer) losses() Losses {
	r := &t.gr.read
	return Losses{
		Policy:        scalar(r.policy),
		Value:         scalar(r.value),
		Score:         scalar(r.score),
		L2:            t.cfg.L2 * scalar(r.l2),
		Total:         scalar(r.total),
		PolicyEntropy: entropy(r.logp.Data()) / float64(t.cfg.Batch),
		LR:            t.LearningRate(),
	}
}

// entropy returns -sum exp(lp)*lp over a float32 or float64 slice.
func entropy(logp any) float64 {
	h := 0.0
	switch d := logp.(type) {
	case []float32:
		for _, lp := range d {
			h -= math.Exp(float64(lp)) * float64(lp)
		}
	case []float64:
		for _, lp := range d {
			h -= math.Exp(lp) * lp
		}
	}
	return h
}

// zeroGrads clears the accumulated gradients (the tape machine adds into
// them; the solver clears them after an update).
func (t *Trainer) zeroGrads() {
	for _, n := range t.gr.learn {
		if g, err := n.Grad(); err == nil {
			if z, ok := g.(interface{ Zero() }); ok {
				z.Zero()
			}
		}
	}
}

// Params returns a copy of the current weights (the auxiliary score head,
// a training-only part, is not included).
func (t *Trainer) Params() *net.Params {
	p := net.NewParams(t.arch)
	for i, n := range t.gr.params {
		copyOut(p.Tensors[i].Data, n.Value().Data())
	}
	return p
}

// copyOut copies a float32 or float64 slice into dst.
func copyOut(dst []float32, src any) {
	switch s := src.(type) {
	case []float32:
		copy(dst, s)
	case []float64:
		for i := range min(len(dst), len(s)) {
			dst[i] = float32(s[i])
		}
	}
}
