package learn

import (
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"kumalak/net"
)

// Adam's constants (Kingma & Ba's defaults, as gorgonia's AdamSolver).
const (
	adamBeta1 = 0.9
	adamBeta2 = 0.999
	adamEps   = 1e-8
)

// adamW is Adam with bias correction and decoupled weight decay (Loshchilov
// & Hutter, "Decoupled Weight Decay Regularization", ICLR 2019), written
// over gorgonia's gradients because gorgonia's solvers keep their moments
// private. It updates the graph's values in place and clears the gradients;
// a step allocates nothing.
type adamW struct {
	t     int64   // updates since the moments were zero (Adam's bias correction)
	slots []*slot // one per learnable tensor, in graph order
	nodes G.Nodes // the learnable nodes, for their value and gradient
}

// slot is the optimizer's state of one tensor.
type slot struct {
	name  string
	rows  int
	cols  int
	decay bool      // a weight matrix: decayed; a bias row is not
	m, v  []float32 // first and second moments
}

// newAdamW returns a fresh optimizer over nodes; decay reports which of them
// are decayed.
func newAdamW(nodes G.Nodes, decay func(*G.Node) bool) *adamW {
	o := &adamW{nodes: nodes}
	for _, n := range nodes {
		s := n.Shape()
		size := s.TotalSize()
		o.slots = append(o.slots, &slot{name: n.Name(), rows: s[0], cols: s[1], decay: decay(n),
			m: make([]float32, size), v: make([]float32, size)})
	}
	return o
}

// float32s returns the float32 backing array of a graph value without
// allocating (tensor.Dense.Data goes through reflection).
func float32s(v G.Value) []float32 { return v.(*tensor.Dense).Float32s() }

// step applies one update at rate lr with decoupled decay wd, then zeroes
// the gradients.
func (o *adamW) step(lr, wd float64) error {
	o.t++
	c1 := 1 - math.Pow(adamBeta1, float64(o.t))
	c2 := 1 - math.Pow(adamBeta2, float64(o.t))
	a := float32(lr / c1)              // rate times the first moment's correction
	isc2 := float32(1 / math.Sqrt(c2)) // sqrt of the second moment's correction
	keep := float32(1 - lr*wd)         // the decoupled decay's factor
	for i, n := range o.nodes {
		g, err := n.Grad()
		if err != nil {
			return err
		}
		s, f := o.slots[i], float32(1)
		if s.decay {
			f = keep
		}
		s.update(float32s(n.Value()), float32s(g), f, a, isc2)
	}
	return nil
}

// update is the AdamW rule on one tensor:
//
//	m = β1 m + (1-β1) g,  v = β2 v + (1-β2) g²
//	w = keep*w - a * m / (sqrt(v)*isc2 + ε)
//
// and every w, m and v below net.FlushThreshold in magnitude becomes 0
// (net.FlushSubnormals: subnormal floats make every later multiplication by
// them one to two orders of magnitude slower on x86). It clears g.
func (s *slot) update(w, g []float32, keep, a, isc2 float32) {
	m, v := s.m[:len(w)], s.v[:len(w)]
	g = g[:len(w)]
	for i, gi := range g {
		mi := adamBeta1*m[i] + (1-adamBeta1)*gi
		vi := adamBeta2*v[i] + (1-adamBeta2)*gi*gi
		wi := keep*w[i] - a*mi/(float32(math.Sqrt(float64(vi)))*isc2+adamEps)
		m[i], v[i], w[i] = flush(mi), flush(vi), flush(wi)
	}
	clear(g)
}

// flush is net.FlushSubnormals on one value, so that update flushes in the
// same pass that writes w, m and v instead of three more passes over them.
func flush(x float32) float32 {
	if x > -net.FlushThreshold && x < net.FlushThreshold {
		return 0
	}
	return x
}

// reset zeroes the moments and the update count.
func (o *adamW) reset() {
	o.t = 0
	for _, s := range o.slots {
		clear(s.m)
		clear(s.v)
	}
}
