package data

import (
	"fmt"
	"math/rand/v2"
)

// Batch is a training batch of N rows, each array flattened row-major: row
// i of Obs is Obs[i*ObsLen:(i+1)*ObsLen], of Mask and Policy
// [i*NumActions:(i+1)*NumActions]. Every value is from the view of the row's
// mover, as in Sample.
type Batch struct {
	Obs    []float32 // N × ObsLen observations
	Mask   []float32 // N × NumActions: 1 legal, 0 illegal
	Policy []float32 // N × NumActions search visit distributions
	Value  []float32 // N value targets (see WindowConfig.ValueMix)
	Score  []float32 // N score targets
	N      int       // rows
}

// NewBatch returns a batch of n rows sized for layout lay.
func NewBatch(lay Layout, n int) *Batch {
	return &Batch{
		Obs:    make([]float32, n*lay.ObsLen),
		Mask:   make([]float32, n*lay.NumActions),
		Policy: make([]float32, n*lay.NumActions),
		Value:  make([]float32, n),
		Score:  make([]float32, n),
		N:      n,
	}
}

// FillBatch fills b with b.N samples drawn uniformly from the window without
// replacement, in random order. It allocates nothing once the window has
// stopped growing, and panics if b.N > Len() or b's arrays are too short
// for b.N rows of the window's layout.
func (w *Window) FillBatch(rng *rand.Rand, b *Batch) {
	o, a := w.lay.ObsLen, w.lay.NumActions
	if len(b.Obs) < b.N*o || len(b.Mask) < b.N*a || len(b.Policy) < b.N*a || len(b.Value) < b.N || len(b.Score) < b.N {
		panic(fmt.Sprintf("data: FillBatch: batch arrays too short for %d rows of obs_len %d, num_actions %d", b.N, o, a))
	}
	w.choose(rng, b.N)
	mix := float32(w.cfg.ValueMix)
	for i, j := range w.perm[:b.N] {
		c, off := w.slot(int(j))
		copy(b.Obs[i*o:(i+1)*o], c.obs[off*o:(off+1)*o])
		copy(b.Policy[i*a:(i+1)*a], c.policy[off*a:(off+1)*a])
		legal, mask := c.legal[off], b.Mask[i*a:(i+1)*a]
		for k := range mask {
			mask[k] = float32(legal >> uint(k) & 1)
		}
		out := c.outcome[off]
		b.Value[i] = out + mix*(c.rootValue[off]-out)
		b.Score[i] = c.score[off]
	}
}
