package learn

import (
	"fmt"
	"kumalak/net"
	"math"
	"math/rand/v2"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// maskPenalty is added to the logit of every illegal action. It is finite so
// that 0*logp stays 0 (no -Inf*0 = NaN) and exp underflows to exactly 0.
const maskPenalty = 1e9

// graph is the training expression graph for one batch size: the forward
// pass of net/arch.go and the loss, built once. Every node is a matrix so that
// bias rows broadcast with BroadcastAdd.
type graph struct {
	g     *G.ExprGraph
	dt    tensor.Dtype
	batch int

	// inputs, fed by copying into their backing arrays
	obs, negMask, policy, value, score feed

	params  G.Nodes // arch parameters in net.Config.Names order
	aux     G.Nodes // auxiliary score head (training only), may be empty
	learn   G.Nodes // params then aux: what the optimizer updates
	weights G.Nodes // matrices of learn: the weight decay's set (biases are not decayed)

	logp, v                          *G.Node // outputs [B,A], [B,1]
	policyLoss, valueLoss, scoreLoss *G.Node // scalars (scoreLoss may be nil)
	total                            *G.Node

	// Copies of the outputs taken by G.Read during a run: the tape machine
	// reuses the memory of intermediate nodes, so their Value() is not
	// meaningful after the run.
	read struct{ logp, v, policy, value, score, total G.Value }
}

// feed is an input node and its backing array in the graph's dtype.
type feed struct {
	node *G.Node
	f32  []float32
	f64  []float64
}

// set copies src into the node's value; len(src) must equal its size.
func (f *feed) set(src []float32) {
	if f.f32 != nil {
		copy(f.f32, src)
		return
	}
	for i, x := range src {
		f.f64[i] = float64(x)
	}
}

// scalar returns a scalar value read from the graph, 0 for nil.
func scalar(v G.Value) float64 {
	if v == nil {
		return 0
	}
	switch d := v.Data().(type) {
	case float32:
		return float64(d)
	case float64:
		return d
	}
	panic(fmt.Sprintf("learn: value %v is not a scalar", v))
}

// builder records the first graph-construction error; once it failed every
// method returns nil without touching its arguments.
type builder struct {
	g   *G.ExprGraph
	dt  tensor.Dtype
	err error
}

func (b *builder) ok(n *G.Node, err error) *G.Node {
	if err != nil {
		b.err = err
		return nil
	}
	return n
}

// matrix makes a named node of shape [r,c] backed by a new array filled
// from init (may be nil for zeros).
func (b *builder) matrix(name string, r, c int, init []float32) feed {
	return b.matrixOn(name, r, c, init, nil)
}

// matrixOn is matrix on the given float32 backing array (of r*c values,
// kept as it is) when share is not nil: a node of another graph whose
// weights this one uses.
func (b *builder) matrixOn(name string, r, c int, init, share []float32) feed {
	f := feed{}
	var back any
	switch {
	case share != nil:
		f.f32 = share
		back = share
	case b.dt == tensor.Float32:
		f.f32 = make([]float32, r*c)
		copy(f.f32, init)
		back = f.f32
	default:
		f.f64 = make([]float64, r*c)
		for i, x := range init {
			f.f64[i] = float64(x)
		}
		back = f.f64
	}
	t := tensor.New(tensor.WithShape(r, c), tensor.WithBacking(back))
	f.node = G.NewMatrix(b.g, b.dt, G.WithShape(r, c), G.WithName(name), G.WithValue(t))
	return f
}

func (b *builder) constant(x float64) *G.Node {
	if b.dt == tensor.Float32 {
		return G.NewConstant(float32(x))
	}
	return G.NewConstant(x)
}

// dense returns x·w + b for w [in,out] and a bias row b [1,out].
func (b *builder) dense(x, w, bias *G.Node) *G.Node {
	if b.err != nil {
		return nil
	}
	xw := b.ok(G.Mul(x, w))
	if b.err != nil {
		return nil
	}
	return b.ok(G.BroadcastAdd(xw, bias, nil, []byte{0}))
}

func (b *builder) op1(f func(*G.Node) (*G.Node, error), x *G.Node) *G.Node {
	if b.err != nil {
		return nil
	}
	return b.ok(f(x))
}

func (b *builder) op2(f func(x, y *G.Node) (*G.Node, error), x, y *G.Node) *G.Node {
	if b.err != nil {
		return nil
	}
	return b.ok(f(x, y))
}

// rowSub returns x[i,j] - r[i] for x [B,A] and r [B].
func (b *builder) rowSub(x, r *G.Node) *G.Node {
	if b.err != nil {
		return nil
	}
	return b.ok(G.BroadcastSub(x, r, nil, []byte{1}))
}

func (b *builder) along(f func(*G.Node, ...int) (*G.Node, error), x *G.Node, axes ...int) *G.Node {
	if b.err != nil {
		return nil
	}
	return b.ok(f(x, axes...))
}

// newGraph builds the graph for p's architecture at batch rows. The
// auxiliary score head is present when scoreWeight > 0; its weights are
// drawn from rng. With share (a float32 graph of the same architecture and
// config) the new graph computes on share's weight arrays instead of its
// own copy of p's: a data-parallel replica, whose gradients are its own.
func newGraph(p *net.Params, cfg Config, dt tensor.Dtype, rng *rand.Rand, rows int, share *graph) (*graph, error) {
	c := p.Config
	gr := &graph{g: G.NewGraph(), dt: dt, batch: rows}
	b := &builder{g: gr.g, dt: dt}
	B := rows
	gr.obs = b.matrix("obs", B, c.InputLen, nil)
	gr.negMask = b.matrix("neg_mask", B, c.Actions, nil)
	gr.policy = b.matrix("policy_target", B, c.Actions, nil)
	gr.value = b.matrix("value_target", B, 1, nil)
	for i, t := range p.Tensors {
		r, cols := 1, t.Shape[0]
		if len(t.Shape) == 2 {
			r, cols = t.Shape[0], t.Shape[1]
		}
		n := b.matrixOn(t.Name, r, cols, t.Data, share.weights32(i)).node
		gr.params = append(gr.params, n)
		if len(t.Shape) == 2 {
			gr.weights = append(gr.weights, n)
		}
	}
	vh := gr.forward(b, c)
	gr.loss(b, cfg, vh, rng, share)
	if b.err != nil {
		return nil, fmt.Errorf("learn: build training graph: %w", b.err)
	}
	if _, err := G.Grad(gr.total, gr.learn...); err != nil {
		return nil, fmt.Errorf("learn: differentiate training graph: %w", err)
	}
	gr.readOutputs()
	return gr, nil
}

// forward builds the network of net/arch.go on gr.obs; it sets gr.logp and gr.v
// and returns the value head's hidden layer.
//
// The masked log-softmax is built from primitives, z - max(z) - log Σ exp,
// because gorgonia's LogSoftMax (tensor v0.9.24) shifts every row by the
// first element of the whole batch instead of the row's maximum, which
// overflows once a masked logit comes first, and starts a goroutine per row.
func (gr *graph) forward(b *builder, c net.Config) *G.Node {
	w := func(i int) *G.Node { return gr.params[i] }
	h := b.op1(G.Rectify, b.dense(gr.obs.node, w(0), w(1)))
	i := 2
	for k := 0; k < c.Blocks; k, i = k+1, i+4 {
		r := b.op1(G.Rectify, b.dense(h, w(i), w(i+1)))
		r = b.dense(r, w(i+2), w(i+3))
		h = b.op1(G.Rectify, b.op2(G.Add, h, r))
	}
	logits := b.dense(h, w(i), w(i+1))
	z := b.op2(G.Add, logits, gr.negMask.node)
	zs := b.rowSub(z, b.along(G.Max, z, 1))
	lse := b.op1(G.Log, b.along(G.Sum, b.op1(G.Exp, zs), 1))
	gr.logp = b.rowSub(zs, lse)
	vh := b.op1(G.Rectify, b.dense(h, w(i+2), w(i+3)))
	gr.v = b.op1(G.Tanh, b.dense(vh, w(i+4), w(i+5)))
	return vh
}

// loss builds the scalar losses and gr.total; it adds the auxiliary score
// head when cfg.ScoreWeight > 0.
func (gr *graph) loss(b *builder, cfg Config, vh *G.Node, rng *rand.Rand, share *graph) {
	gr.learn = append(gr.learn, gr.params...)
	ce := b.along(G.Sum, b.op2(G.HadamardProd, gr.policy.node, gr.logp))
	gr.policyLoss = b.op2(G.Mul, ce, b.constant(-1/float64(gr.batch)))
	gr.valueLoss = b.meanSquare(gr.v, gr.value.node)
	total := b.op2(G.Add, gr.policyLoss, b.op2(G.Mul, gr.valueLoss, b.constant(cfg.ValueWeight)))
	if cfg.ScoreWeight > 0 {
		gr.score = b.matrix("score_target", gr.batch, 1, nil)
		vhn := vh.Shape()[1]
		init := make([]float32, vhn)
		for i := range init {
			init[i] = float32(rng.NormFloat64() * 0.1 * math.Sqrt(2/float64(vhn)))
		}
		np := len(gr.params)
		sw := b.matrixOn("score.w", vhn, 1, init, share.weights32(np)).node
		sb := b.matrixOn("score.b", 1, 1, nil, share.weights32(np+1)).node
		gr.aux = G.Nodes{sw, sb}
		gr.learn = append(gr.learn, gr.aux...)
		gr.weights = append(gr.weights, sw)
		gr.scoreLoss = b.meanSquare(b.dense(vh, sw, sb), gr.score.node)
		total = b.op2(G.Add, total, b.op2(G.Mul, gr.scoreLoss, b.constant(cfg.ScoreWeight)))
	}
	gr.total = total
}

// weights32 returns the float32 array of learnable i (params then aux) of
// gr; nil for a nil graph.
func (gr *graph) weights32(i int) []float32 {
	if gr == nil {
		return nil
	}
	return float32s(gr.learn[i].Value())
}

// isWeight reports whether n is one of the weight matrices (decayed), not
// a bias row.
func (gr *graph) isWeight(n *G.Node) bool {
	for _, w := range gr.weights {
		if w == n {
			return true
		}
	}
	return false
}

// isAux reports whether n belongs to the training-only auxiliary head.
func (gr *graph) isAux(n *G.Node) bool {
	for _, a := range gr.aux {
		if a == n {
			return true
		}
	}
	return false
}

// readOutputs adds the read instructions that copy the outputs after a run.
func (gr *graph) readOutputs() {
	r := &gr.read
	G.Read(gr.logp, &r.logp)
	G.Read(gr.v, &r.v)
	G.Read(gr.policyLoss, &r.policy)
	G.Read(gr.valueLoss, &r.value)
	G.Read(gr.total, &r.total)
	if gr.scoreLoss != nil {
		G.Read(gr.scoreLoss, &r.score)
	}
}

// meanSquare returns mean((x-y)^2) over all elements.
func (b *builder) meanSquare(x, y *G.Node) *G.Node {
	return b.along(G.Mean, b.op1(G.Square, b.op2(G.Sub, x, y)))
}
