package learn

import (
	"fmt"
	"math"
)

// Forward evaluates the training graph on n = len(values) positions: obs
// holds n*InputLen features, mask n*Actions 1/0 legality flags; priors
// (n*Actions) receives the masked softmax policy (all zero for a row with
// no legal action) and values (n) the value head. It runs in chunks of Batch rows (padding the last one), leaves the
// weights and optimizer untouched, and is meant for checks and evaluation,
// not for speed: it also runs the backward pass the graph contains.
func (t *Trainer) Forward(obs, mask, priors, values []float32) error {
	c, B, n := t.arch, t.cfg.Batch, len(values)
	if len(obs) != n*c.InputLen || len(mask) != n*c.Actions || len(priors) != n*c.Actions {
		return fmt.Errorf("learn: forward: obs/mask/priors have %d/%d/%d values for %d rows, want %d/%d/%d",
			len(obs), len(mask), len(priors), n, n*c.InputLen, n*c.Actions, n*c.Actions)
	}
	r := rows{
		obs:    make([]float32, B*c.InputLen),
		mask:   make([]float32, B*c.Actions),
		policy: make([]float32, B*c.Actions),
		value:  make([]float32, B),
		score:  make([]float32, B),
		n:      B,
	}
	for lo := 0; lo < n; lo += B {
		k := min(B, n-lo)
		clear(r.obs[copy(r.obs, obs[lo*c.InputLen:(lo+k)*c.InputLen]):])
		for i := range r.mask {
			r.mask[i] = 1
		}
		copy(r.mask, mask[lo*c.Actions:(lo+k)*c.Actions])
		if err := t.forwardChunk(r, priors[lo*c.Actions:(lo+k)*c.Actions], values[lo:lo+k]); err != nil {
			return err
		}
	}
	return nil
}

// forwardChunk runs one full batch and copies out the first len(values)
// rows' results.
func (t *Trainer) forwardChunk(r rows, priors, values []float32) error {
	if err := t.load(r); err != nil {
		return err
	}
	defer t.reset()
	defer t.zeroGrads()
	if err := t.run(); err != nil {
		return fmt.Errorf("learn: forward: %w", err)
	}
	A := t.arch.Actions
	for _, p := range t.reps {
		lo, hi := min(p.lo, len(values)), min(p.lo+p.gr.batch, len(values))
		pr := priors[lo*A : hi*A]
		switch lp := p.gr.read.logp.Data().(type) {
		case []float32:
			for i := range pr {
				pr[i] = float32(math.Exp(float64(lp[i])))
			}
		case []float64:
			for i := range pr {
				pr[i] = float32(math.Exp(lp[i]))
			}
		}
		copyOut(values[lo:hi], p.gr.read.v.Data())
	}
	zeroEmptyRows(priors, r.mask, t.arch.Actions)
	return nil
}

// zeroEmptyRows clears the priors of rows without a legal action (their
// softmax would otherwise spread over the illegal actions), as net.Infer does.
func zeroEmptyRows(priors, mask []float32, actions int) {
	for lo := 0; lo < len(priors); lo += actions {
		legal := false
		for _, m := range mask[lo : lo+actions] {
			legal = legal || m != 0
		}
		if !legal {
			clear(priors[lo : lo+actions])
		}
	}
}
