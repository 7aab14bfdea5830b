package net

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/gonum"
)

// gblas is gonum's pure-Go BLAS; its float32 level-1 kernels (Saxpy, Sdot)
// are SSE assembly on amd64. Calling the concrete type avoids the interface
// dispatch of the blas32 package functions.
var gblas gonum.Implementation

// dotMaxOut is the widest layer evaluated as one dot product per output
// (transposed weights). Wider layers use one axpy per non-zero input, which
// skips the zeros left by ReLU and by sparse observations.
const dotMaxOut = 16

// Infer evaluates a network in plain Go, float32, on the calling goroutine.
// It holds a private copy of the parameters (taken by NewInfer) and scratch
// buffers for up to maxBatch rows, so Run allocates nothing. An Infer is not
// safe for concurrent use: give each goroutine its own, or share one through
// a Batcher.
type Infer struct {
	cfg      Config
	maxBatch int
	in       infLayer
	blocks   []infBlock
	policy   infLayer
	value1   infLayer
	value2   infLayer

	h, t, u []float32   // inferChunk × Width activations
	vh      []float32   // inferChunk × ValueHidden
	logits  []float32   // inferChunk × Actions
	idx     []int32     // non-zero input indices of one row
	rows    [][]float32 // maxBatch output rows, Run's and Logits' views of their slice

	simd *simdNet // when non-nil, the SIMD kernels run the layers
}

type infBlock struct{ fc1, fc2 infLayer }

// infLayer is one dense layer y = x·w + b with w stored [in][out] (axpy
// form) or [out][in] (dot form).
type infLayer struct {
	in, out int
	w       []float32
	b       []float32
	dot     bool
}

// NewInfer returns an evaluator for a snapshot of p that accepts batches of
// up to maxBatch rows, using the kernel chosen at start-up (see Kernel).
// Later changes to p are not seen; weights below FlushThreshold in magnitude
// are flushed to zero in the snapshot. It panics if p's Config is invalid or
// maxBatch < 1.
func NewInfer(p *Params, maxBatch int) *Infer { return newInfer(p, maxBatch, activeKernel) }

// newInfer is NewInfer with the kernel level k, which must be supported.
func newInfer(p *Params, maxBatch int, k kernelLevel) *Infer {
	c := p.Config
	if err := c.Validate(); err != nil {
		panic(err)
	}
	if maxBatch < 1 {
		panic(fmt.Sprintf("net: NewInfer: maxBatch %d < 1", maxBatch))
	}
	if k != kernelPortable {
		return &Infer{cfg: c, maxBatch: maxBatch, simd: newSimdNet(p, k), rows: make([][]float32, maxBatch)}
	}
	f := &Infer{
		cfg:      c,
		maxBatch: maxBatch,
		in:       newInfLayer(p, "in"),
		policy:   newInfLayer(p, "policy"),
		value1:   newInfLayerWB(p, "value.w1", "value.b1"),
		value2:   newInfLayerWB(p, "value.w2", "value.b2"),
		h:        make([]float32, min(maxBatch, inferChunk)*c.Width),
		t:        make([]float32, min(maxBatch, inferChunk)*c.Width),
		u:        make([]float32, min(maxBatch, inferChunk)*c.Width),
		vh:       make([]float32, min(maxBatch, inferChunk)*c.ValueHidden),
		logits:   make([]float32, min(maxBatch, inferChunk)*c.Actions),
		rows:     make([][]float32, maxBatch),
		idx:      make([]int32, max(c.InputLen, c.Width, c.ValueHidden)),
	}
	for k := 0; k < c.Blocks; k++ {
		f.blocks = append(f.blocks, infBlock{
			fc1: newInfLayer(p, fmt.Sprintf("b%d.fc1", k)),
			fc2: newInfLayer(p, fmt.Sprintf("b%d.fc2", k)),
		})
	}
	return f
}

func newInfLayer(p *Params, prefix string) infLayer {
	return newInfLayerWB(p, prefix+".w", prefix+".b")
}

func newInfLayerWB(p *Params, wName, bName string) infLayer {
	w, b := p.Get(wName), p.Get(bName)
	in, out := w.Shape[0], w.Shape[1]
	l := infLayer{in: in, out: out, b: append([]float32(nil), b.Data...), dot: out <= dotMaxOut}
	if l.dot {
		l.w = make([]float32, in*out)
		for i := 0; i < in; i++ {
			for j := 0; j < out; j++ {
				l.w[j*in+i] = w.Data[i*out+j]
			}
		}
	} else {
		l.w = append([]float32(nil), w.Data...)
	}
	FlushSubnormals(l.b)
	FlushSubnormals(l.w)
	return l
}

// Config returns the architecture of the network.
func (f *Infer) Config() Config { return f.cfg }

// MaxBatch returns the largest batch Run accepts.
func (f *Infer) MaxBatch() int { return f.maxBatch }

// Run evaluates n = len(values) rows. obs holds n×InputLen features, mask
// n×Actions entries (1 legal, 0 illegal). It writes into priors (n×Actions)
// the softmax of the policy logits over the legal actions only — exactly 0
// for illegal actions, and all zero for a row without a legal action — and
// into values the value head's output in [-1, 1]. It panics if n > MaxBatch
// or a slice has the wrong length.
func (f *Infer) Run(obs, mask, priors, values []float32) {
	n := len(values)
	a := f.cfg.Actions
	if len(mask) != n*a || len(priors) != n*a {
		panic(fmt.Sprintf("net: Infer.Run: %d rows need mask and priors of %d, got %d and %d",
			n, n*a, len(mask), len(priors)))
	}
	f.forward(obs, mask, f.splitRows(priors, n), values)
}

// runRows is Run with each row's priors written to its own slice, rows[r]
// (Actions long): the batcher hands its callers' slices straight in.
func (f *Infer) runRows(obs, mask []float32, rows [][]float32, values []float32) {
	f.forward(obs, mask, rows, values)
}

// Logits evaluates n = len(values) rows like Run but writes the raw policy
// logits (no mask, no softmax) into logits (n×Actions).
func (f *Infer) Logits(obs, logits, values []float32) {
	n := len(values)
	if len(logits) != n*f.cfg.Actions {
		panic(fmt.Sprintf("net: Infer.Logits: %d rows need logits of %d, got %d",
			n, n*f.cfg.Actions, len(logits)))
	}
	f.forward(obs, nil, f.splitRows(logits, n), values)
}

// splitRows returns f.rows[:n] pointing at the n rows of Actions in out.
// It panics if n > MaxBatch.
func (f *Infer) splitRows(out []float32, n int) [][]float32 {
	if n > f.maxBatch {
		panic(fmt.Sprintf("net: Infer: %d rows exceed the max batch %d", n, f.maxBatch))
	}
	a := f.cfg.Actions
	rows := f.rows[:n]
	for r := range rows {
		rows[r] = out[r*a : (r+1)*a : (r+1)*a]
	}
	return rows
}

// inferChunk is the most rows taken through the whole network at once, so
// that activations stay in the first cache levels on large batches.
const inferChunk = 32

// forward evaluates len(values) rows of obs. With a mask it writes each
// row's masked softmax into out[r], without one its raw logits.
func (f *Infer) forward(obs, mask []float32, out [][]float32, values []float32) {
	c := f.cfg
	n := len(values)
	if n > f.maxBatch {
		panic(fmt.Sprintf("net: Infer: %d rows exceed the max batch %d", n, f.maxBatch))
	}
	if len(obs) != n*c.InputLen {
		panic(fmt.Sprintf("net: Infer: %d rows need obs of %d, got %d", n, n*c.InputLen, len(obs)))
	}
	if len(out) != n || (mask != nil && len(mask) != n*c.Actions) {
		panic(fmt.Sprintf("net: Infer: %d rows need %d output rows and a mask of %d, got %d and %d",
			n, n, n*c.Actions, len(out), len(mask)))
	}
	step := inferChunk
	if f.simd != nil {
		step = simdChunk
	}
	for r := 0; r < n; r += step {
		m := min(step, n-r)
		var mk []float32
		if mask != nil {
			mk = mask[r*c.Actions : (r+m)*c.Actions]
		}
		if f.simd != nil {
			f.simd.forwardChunk(c, obs[r*c.InputLen:(r+m)*c.InputLen], mk, out[r:r+m], values[r:r+m])
		} else {
			f.forwardChunk(obs[r*c.InputLen:(r+m)*c.InputLen], mk, out[r:r+m], values[r:r+m])
		}
	}
}

// forwardChunk runs len(values) rows, at most inferChunk, and writes their
// policy rows as forward does.
func (f *Infer) forwardChunk(obs, mask []float32, out [][]float32, values []float32) {
	c, n := f.cfg, len(values)
	w := n * c.Width
	h, t, u := f.h[:w], f.t[:w], f.u[:w]
	f.in.apply(n, obs, nil, h, f.idx)
	reluFlush(h)
	for i := range f.blocks {
		bl := &f.blocks[i]
		bl.fc1.apply(n, h, nil, t, f.idx)
		reluFlush(t)
		bl.fc2.apply(n, t, h, u, f.idx)
		reluFlush(u)
		h, u = u, h
	}
	a := c.Actions
	logits := f.logits[:n*a]
	f.policy.apply(n, h, nil, logits, f.idx)
	writePolicy(logits, a, mask, out)
	vh := f.vh[:n*c.ValueHidden]
	f.value1.apply(n, h, nil, vh, f.idx)
	reluFlush(vh)
	f.value2.apply(n, vh, nil, values, f.idx)
	for r, v := range values {
		values[r] = float32(math.Tanh(float64(v)))
	}
}

// writePolicy writes row r of logits (rows of stride floats, the first
// Actions = len(out[r]) used) into out[r]: its masked softmax with a mask
// (rows of Actions), the logits themselves without.
func writePolicy(logits []float32, stride int, mask []float32, out [][]float32) {
	for r, o := range out {
		lr := logits[r*stride : r*stride+len(o)]
		if mask == nil {
			copy(o, lr)
			continue
		}
		maskedSoftmax(lr, mask[r*len(o):(r+1)*len(o)], o)
	}
}

// apply computes y = x·w + b (+ res when res is non-nil) for n rows.
func (l *infLayer) apply(n int, x, res, y []float32, idx []int32) {
	for r := 0; r < n; r++ {
		xr := x[r*l.in : (r+1)*l.in]
		yr := y[r*l.out : (r+1)*l.out]
		copy(yr, l.b)
		if res != nil {
			addInPlace(yr, res[r*l.out:(r+1)*l.out])
		}
		if l.dot {
			l.applyDot(xr, yr)
		} else {
			l.applyAxpy(xr, yr, idx)
		}
	}
}

// applyAxpy adds x·w to y, one axpy per non-zero x[i]. The non-zero indices
// are gathered first by a branch-free loop, so the sparsity pattern costs no
// branch mispredictions in the axpy loop.
func (l *infLayer) applyAxpy(x, y []float32, idx []int32) {
	idx = idx[:len(x)]
	k := 0
	for i, v := range x {
		idx[k] = int32(i)
		if v != 0 {
			k++
		}
	}
	out := l.out
	for _, i := range idx[:k] {
		o := int(i) * out
		gblas.Saxpy(out, x[i], l.w[o:o+out], 1, y, 1)
	}
}

// applyDot adds x·w to y, one dot product per output.
func (l *infLayer) applyDot(x, y []float32) {
	in := l.in
	for j := range y {
		y[j] += gblas.Sdot(in, x, 1, l.w[j*in:(j+1)*in], 1)
	}
}

func addInPlace(y, x []float32) {
	x = x[:len(y)]
	for i := range y {
		y[i] += x[i]
	}
}

// maskedSoftmax writes into p the softmax of logits over the entries where
// mask is non-zero; masked entries get exactly 0. A row with no legal entry
// (or whose legal logits are all -Inf) is all zero. p may be logits itself.
// It works in float32 with expNeg: each prior is within a few float32
// units in the last place of the float64 softmax of the same float32
// differences z - max.
func maskedSoftmax(logits, mask, p []float32) {
	mask, p = mask[:len(logits)], p[:len(logits)]
	top := float32(math.Inf(-1))
	for i, z := range logits {
		if mask[i] != 0 && z > top {
			top = z
		}
	}
	if math.IsInf(float64(top), -1) {
		clear(p)
		return
	}
	var sum float32
	for i, z := range logits {
		e := float32(0)
		if d := z - top; mask[i] != 0 && !(d < expNegMin) {
			e = expNeg(d)
		}
		p[i] = e
		sum += e
	}
	// sum >= 1: the top entry's term is exactly 1 (or NaN, from a NaN or
	// +Inf logit, which then spreads to the row as it did in float64).
	inv := 1 / sum
	for i := range p {
		p[i] *= inv
	}
}

// expNegMin is the least argument of expNeg: e**x is subnormal or zero
// below it, and maskedSoftmax makes such terms 0.
const expNegMin = -87.3

// expNeg returns e**x for expNegMin <= x <= 0 in float32, within 1.5e-7 of
// math.Exp relative to the result, and NaN for NaN. It is Cephes' expf:
// x = k·ln2 + r with |r| <= ln2/2, e**r by a polynomial, and 2**k from the
// bits. It has no branch, so that it inlines.
func expNeg(x float32) float32 {
	const (
		log2e = 1.44269504088896341
		ln2hi = 0.693359375
		ln2lo = -2.12194440e-4
	)
	k := int32(x*log2e - 0.5) // round to nearest for x <= 0
	fk := float32(k)
	r := x - fk*ln2hi - fk*ln2lo
	y := ((((1.9875691500e-4*r+1.3981999507e-3)*r+8.3334519073e-3)*r+4.1665795894e-2)*r+1.6666665459e-1)*r + 5.0000001201e-1
	y = y*r*r + r + 1
	return y * math.Float32frombits(uint32(k+127)<<23)
}
