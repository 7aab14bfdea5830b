package learn

import (
	"fmt"
)

// Checkpoint returns a copy of the trainer's state besides its network's
// weights (which Params returns): with both, Restore continues exactly.
func (t *Trainer) Checkpoint() *Checkpoint {
	c := &Checkpoint{Steps: int64(t.steps), Updates: t.opt.t, LastLR: t.lastLR,
		RewarmFrom: t.rewarm.from, RewarmAt: int64(t.rewarm.at)}
	for i, n := range t.gr.learn {
		s := t.opt.slots[i]
		ct := CheckpointTensor{Name: s.name, Rows: s.rows, Cols: s.cols,
			M: append([]float32(nil), s.m...), V: append([]float32(nil), s.v...)}
		if t.gr.isAux(n) {
			ct.Value = append([]float32(nil), float32s(n.Value())...)
		}
		c.Tensors = append(c.Tensors, ct)
	}
	return c
}

// Restore sets the trainer's state from c, taken from a trainer of the same
// architecture whose weights this one was built from. Every tensor of the
// network must be in c with its shape. A training-only tensor (the
// auxiliary score head) missing from c keeps its current weights and gets
// zero moments, and one in c that this trainer lacks is ignored, so the head can
// be switched on or off between runs. On error nothing changes.
func (t *Trainer) Restore(c *Checkpoint) error {
	if err := c.validate(); err != nil {
		return fmt.Errorf("learn: restore: %w", err)
	}
	byName := make(map[string]*CheckpointTensor, len(c.Tensors))
	for i := range c.Tensors {
		byName[c.Tensors[i].Name] = &c.Tensors[i]
	}
	found := make([]*CheckpointTensor, len(t.gr.learn))
	for i, n := range t.gr.learn {
		s, ct := t.opt.slots[i], byName[t.opt.slots[i].name]
		aux := t.gr.isAux(n)
		switch {
		case ct == nil && aux:
			continue
		case ct == nil:
			return fmt.Errorf("learn: restore: the checkpoint has no tensor %q", s.name)
		case ct.Rows != s.rows || ct.Cols != s.cols:
			return fmt.Errorf("learn: restore: tensor %q is %dx%d in the checkpoint, %dx%d in the trainer", s.name, ct.Rows, ct.Cols, s.rows, s.cols)
		case aux != (ct.Value != nil):
			return fmt.Errorf("learn: restore: tensor %q: training-only in one of checkpoint and trainer, not both", s.name)
		}
		found[i] = ct
		delete(byName, s.name)
	}
	for name, ct := range byName {
		if ct.Value == nil {
			return fmt.Errorf("learn: restore: the checkpoint's tensor %q is not in this network", name)
		}
	}
	t.opt.reset()
	for i, ct := range found {
		if ct == nil {
			continue
		}
		copy(t.opt.slots[i].m, ct.M)
		copy(t.opt.slots[i].v, ct.V)
		if ct.Value != nil {
			copy(float32s(t.gr.learn[i].Value()), ct.Value)
		}
	}
	t.steps, t.opt.t, t.lastLR = int(c.Steps), c.Updates, c.LastLR
	t.rewarm = rewarm{from: c.RewarmFrom, at: int(c.RewarmAt)}
	return nil
}
