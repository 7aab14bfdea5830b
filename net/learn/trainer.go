package learn

import (
	"errors"
	"fmt"
	"kumalak/net"
	"math"
	"math/rand/v2"
	"sync"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"kumalak/data"
)

// Losses reports one training step. Total = Policy + ValueWeight*Value +
// ScoreWeight*Score; it is the quantity the step minimised (the decoupled
// weight decay is no part of the loss).
type Losses struct {
	Policy        float64 // mean cross-entropy of the policy against its target
	Value         float64 // mean squared value error
	Score         float64 // mean squared auxiliary score error (0 when off)
	Total         float64 // the weighted sum above
	PolicyEntropy float64 // mean entropy of the predicted policy, in nats
	LR            float64 // learning rate applied in this step
}

// Trainer trains a network with gorgonia. It builds the expression graph and
// a tape machine once, for exactly Config.Batch rows, and reuses both:
// each Step copies the batch into the input tensors, runs forward and
// backward, and lets the package's own AdamW update the weights in place.
// gorgonia's solvers keep their moments private; this one exposes them, so
// that Checkpoint and Restore carry a Trainer across a restart exactly.
//
// The learning rate of each step comes from the schedule (Config.Rate) at
// the progress last given to SetProgress, with a linear warm-up over the
// first WarmupSteps steps, and a re-warm: when the schedule asks for a
// higher rate than the last step's (the run's horizon was extended, or the
// moments were lost), the rate climbs linearly from the last step's to the
// scheduled one over WarmupSteps steps instead of jumping.
//
// With Config.Parallel > 1 the batch is split among as many copies of the
// graph, run at once on the same weights, and their gradients are averaged
// by rows before the update.
//
// Training is deterministic: the graph holds no randomness, its ops run one
// after another, each element of a matrix product (gemmBLAS, or gonum's)
// is summed in a fixed order whatever GOMAXPROCS is, and the replicas'
// gradients are added in replica order, so equal net.Params, config and
// batches give bit-identical weights.
//
// After every update, weights and moments below 1e-30 in magnitude are set
// to zero, so no subnormal number reaches inference or slows the optimizer.
//
// Step allocates (about 5 MB per step at batch 256 for the default network): gorgonia's
// tape machine drops its intermediate values on Reset; the optimizer's
// update allocates nothing. A Trainer is not safe for concurrent use.
type Trainer struct {
	cfg      Config
	arch     net.Config
	gr       *graph // the first replica's graph: its weights are the trainer's
	vm       G.VM
	reps     []replica // all graph copies (reps[0] is gr and vm), Config.Parallel of them
	opt      *adamW
	steps    int     // global steps: the warm-up's clock
	progress float64 // the run's progress in [0, 1]: the schedule's clock
	lastLR   float64 // the rate of the last step; 0 before the first
	rewarm   rewarm
}

// replica is one copy of the graph and its tape machine, for rows
// [lo, lo+gr.batch) of a batch; every replica computes on the first one's
// weight arrays.
type replica struct {
	gr *graph
	vm G.VM
	lo int
}

// rewarm is a linear climb of the rate from one begun at step at (-1: none).
type rewarm struct {
	from float64
	at   int
}

// NewTrainer returns a trainer that starts from a copy of p's weights, with
// fresh moments at step 0.
func NewTrainer(p *net.Params, cfg Config) (*Trainer, error) {
	return newTrainer(p, cfg, tensor.Float32)
}

// newTrainer builds a trainer whose graph computes in dt (Float32, or
// Float64 for gradient checks: such a trainer cannot Step).
func newTrainer(p *net.Params, cfg Config, dt tensor.Dtype) (*Trainer, error) {
	useGemm()
	if err := p.Config.Validate(); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	parts := max(cfg.Parallel, 1)
	if dt != tensor.Float32 {
		parts = 1 // replicas share float32 weights; a float64 graph is for checks
	}
	t := &Trainer{cfg: cfg, arch: p.Config, rewarm: rewarm{at: -1}}
	for i := range parts {
		lo, hi := cfg.Batch*i/parts, cfg.Batch*(i+1)/parts
		var share *graph
		if i > 0 {
			share = t.gr
		}
		rng := rand.New(rand.NewPCG(cfg.Seed, 0x5c07e))
		gr, err := newGraph(p, cfg, dt, rng, hi-lo, share)
		if err != nil {
			t.Close()
			return nil, err
		}
		vm := G.NewTapeMachine(gr.g, G.BindDualValues(gr.learn...))
		t.reps = append(t.reps, replica{gr: gr, vm: vm, lo: lo})
		if i == 0 {
			t.gr, t.vm = gr, vm
		}
	}
	t.opt = newAdamW(t.gr.learn, t.gr.isWeight)
	return t, nil
}

// Close releases the tape machines.
func (t *Trainer) Close() error {
	var first error
	for _, r := range t.reps {
		if err := r.vm.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Config returns the training configuration.
func (t *Trainer) Config() Config { return t.cfg }

// Steps returns the global step count.
func (t *Trainer) Steps() int { return t.steps }

// SetSteps continues the step count from n with zero moments, for a run
// whose optimizer state is lost: the rate re-warms from 0 over WarmupSteps.
func (t *Trainer) SetSteps(n int) {
	t.steps, t.lastLR, t.rewarm = n, 0, rewarm{at: -1}
	t.opt.reset()
}

// SetProgress sets the run's progress p in [0, 1] (clamped), the share of
// its horizon done, which the schedule follows; it starts at 0.
func (t *Trainer) SetProgress(p float64) { t.progress = math.Min(math.Max(p, 0), 1) }

// LearningRate returns the rate the next Step will use.
func (t *Trainer) LearningRate() float64 {
	lr, _ := t.nextRate()
	return lr
}

// nextRate returns the next step's rate and the re-warm it belongs to.
func (t *Trainer) nextRate() (float64, rewarm) {
	target, w, s := t.cfg.Rate(t.progress), t.cfg.WarmupSteps, t.steps
	if s < w {
		return target * float64(s+1) / float64(w), t.rewarm
	}
	rw := t.rewarm
	if rw.at < 0 || s-rw.at >= w {
		if w == 0 || target <= t.lastLR*(1+1e-9) {
			return target, rewarm{at: -1}
		}
		rw = rewarm{from: t.lastLR, at: s}
	}
	return rw.from + (target-rw.from)*float64(s-rw.at+1)/float64(w), rw
}

// Step trains on one batch of b.N == Batch rows (its arrays may be longer,
// as data.Window.FillBatch allows) and returns its losses, computed before
// the update. Policy target mass on illegal actions is ignored. A batch
// whose loss is not finite is rejected with an error and leaves the weights
// and the optimizer unchanged.
func (t *Trainer) Step(b *data.Batch) (Losses, error) {
	if t.gr.dt != tensor.Float32 {
		return Losses{}, fmt.Errorf("learn: train step: a %v graph is for gradient checks only", t.gr.dt)
	}
	r := rows{obs: b.Obs, mask: b.Mask, policy: b.Policy, value: b.Value, score: b.Score, n: b.N}
	if err := t.load(r); err != nil {
		return Losses{}, err
	}
	defer t.reset()
	if err := t.run(); err != nil {
		t.zeroGrads()
		return Losses{}, fmt.Errorf("learn: train step %d: %w", t.steps, err)
	}
	l := t.losses()
	if math.IsNaN(l.Total) || math.IsInf(l.Total, 0) {
		t.zeroGrads()
		return l, fmt.Errorf("learn: train step %d: loss is %v", t.steps, l.Total)
	}
	if err := t.reduceGrads(); err != nil {
		t.zeroGrads()
		return l, fmt.Errorf("learn: train step %d: %w", t.steps, err)
	}
	lr, rw := t.nextRate()
	l.LR = lr
	if err := t.opt.step(lr, t.cfg.WeightDecay); err != nil {
		return l, fmt.Errorf("learn: train step %d: optimizer: %w", t.steps, err)
	}
	t.steps++
	t.lastLR, t.rewarm = lr, rw
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
	for _, p := range t.reps {
		gr, lo, hi := p.gr, p.lo, p.lo+p.gr.batch
		gr.obs.set(r.obs[lo*c.InputLen : hi*c.InputLen])
		m := r.mask[lo*c.Actions : hi*c.Actions]
		gr.negMask.apply(m, m, negMask)
		gr.policy.apply(r.policy[lo*c.Actions:hi*c.Actions], m, maskedTarget)
		gr.value.set(r.value[lo:hi])
		if gr.score.node != nil {
			gr.score.set(r.score[lo:hi])
		}
	}
	return nil
}

// run runs every replica's forward and backward pass, the first on this
// goroutine and the others each on its own, and returns the first error.
func (t *Trainer) run() error {
	if len(t.reps) == 1 {
		return t.vm.RunAll()
	}
	errs := make([]error, len(t.reps))
	var wg sync.WaitGroup
	for i := 1; i < len(t.reps); i++ {
		wg.Go(func() { errs[i] = t.reps[i].vm.RunAll() })
	}
	errs[0] = t.vm.RunAll()
	wg.Wait()
	return errors.Join(errs...)
}

// reset resets every replica's tape machine after a run.
func (t *Trainer) reset() {
	for _, r := range t.reps {
		r.vm.Reset()
	}
}

// reduceGrads makes the first replica's gradients those of the whole
// batch: the replicas' gradients of their row means, weighted by their
// share of the rows and summed in replica order (the same bits whatever
// the scheduling), and clears the others'.
func (t *Trainer) reduceGrads() error {
	if len(t.reps) == 1 {
		return nil
	}
	B := float32(t.cfg.Batch)
	for j, n := range t.gr.learn {
		g0, err := n.Grad()
		if err != nil {
			return err
		}
		dst := float32s(g0)
		w0 := float32(t.gr.batch) / B
		for k := range dst {
			dst[k] *= w0
		}
		for _, p := range t.reps[1:] {
			g, err := p.gr.learn[j].Grad()
			if err != nil {
				return err
			}
			src, w := float32s(g)[:len(dst)], float32(p.gr.batch)/B
			for k, x := range src {
				dst[k] += w * x
			}
			clear(src)
		}
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

// losses reads the loss nodes after a run: the replicas' row means,
// weighted by their rows.
func (t *Trainer) losses() Losses {
	var l Losses
	B := float64(t.cfg.Batch)
	for _, p := range t.reps {
		r, w := &p.gr.read, float64(p.gr.batch)/B
		l.Policy += w * scalar(r.policy)
		l.Value += w * scalar(r.value)
		l.Score += w * scalar(r.score)
		l.Total += w * scalar(r.total)
		l.PolicyEntropy += entropy(r.logp.Data()) / B
	}
	return l
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
// them; the optimizer clears them after an update).
func (t *Trainer) zeroGrads() {
	for _, p := range t.reps {
		for _, n := range p.gr.learn {
			if g, err := n.Grad(); err == nil {
				if z, ok := g.(interface{ Zero() }); ok {
					z.Zero()
				}
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
