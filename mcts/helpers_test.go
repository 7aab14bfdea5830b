package mcts

import (
	"math/rand/v2"
	"testing"

	"kumalak/env"
)

// newTest returns a search over spec seeded with seed.
func newTest(spec *env.Spec, ev Evaluator, cfg Config, seed uint64) *Search {
	return New(spec, ev, cfg, rand.New(rand.NewPCG(seed, 99)))
}

// checkTree verifies the arena's invariants after a Run: no visit in
// flight, no leaf left pending, children inside the arena, and for every
// opened node that is not proven, visits = 1 (its own evaluation) + its
// children's visits (more for a proven node, whose later visits stop at
// it, and for one valued in a full arena before Advance made room for its
// children).
func checkTree(t *testing.T, s *Search) {
	t.Helper()
	if int(s.used) > s.cfg.MaxNodes {
		t.Fatalf("arena uses %d nodes, MaxNodes %d", s.used, s.cfg.MaxNodes)
	}
	walk(s, 0, func(i int32) {
		nd := s.nd(i)
		if nd.vl != 0 || nd.flags()&pending != 0 {
			t.Fatalf("node %d: vl %d flags %b after Run", i, nd.vl, nd.flags())
		}
		if nd.kids == 0 {
			return
		}
		lo, hi := nd.children()
		if lo <= i || hi > s.used || lo>>chunkBits != (hi-1)>>chunkBits {
			t.Fatalf("node %d: children %d..%d outside arena of %d or across chunks", i, lo, hi, s.used)
		}
		for c := lo; c < hi; c++ {
			if ch := s.nd(c); ch.vl != 0 || ch.flags()&pending != 0 {
				t.Fatalf("node %d: vl %d flags %b after Run", c, ch.vl, ch.flags())
			}
		}
		sum := int32(0)
		for c := lo; c < hi; c++ {
			sum += s.nd(c).n
		}
		if nd.flags()&expanded != 0 && (nd.n < 1+sum || (nd.proven() == env.Ongoing && nd.flags()&valued == 0 && nd.n != 1+sum)) {
			t.Fatalf("node %d: %d visits, children %d, proven %v", i, nd.n, sum, nd.proven())
		}
	})
}

// walk calls f on every reached node of the tree below idx, with its depth
// in plies from idx.
func walk(s *Search, idx int32, f func(idx int32)) {
	f(idx)
	lo, hi := s.nd(idx).children()
	for c := lo; c < hi; c++ {
		if s.nd(c).flags()&reached != 0 {
			walk(s, c, f)
		}
	}
}

// whiteEval values every position 0.6 for White (read from kala's last
// observation feature), with uniform priors: all values agree when seen
// from one fixed player, so any mistake in converting views shows.
type whiteEval struct{ obsLen int }

func (e whiteEval) Evaluate(obs, mask, priors, values []float32) error {
	if err := (Uniform{}).Evaluate(obs, mask, priors, values); err != nil {
		return err
	}
	for i := range values {
		values[i] = -0.6
		if obs[(i+1)*e.obsLen-1] == 1 {
			values[i] = 0.6
		}
	}
	return nil
}

// recorder is Uniform that records its batch sizes and can fail.
type recorder struct {
	sizes  []int
	failAt int // call number (1-based) that fails; 0 never
	err    error
}

func (r *recorder) Evaluate(obs, mask, priors, values []float32) error {
	r.sizes = append(r.sizes, len(values))
	if len(r.sizes) == r.failAt {
		return r.err
	}
	return Uniform{}.Evaluate(obs, mask, priors, values)
}

// endgames returns kala3 positions (with their exact values) reached by
// random play where the mover has a forced win and also a losing move.
func endgames(n int, seed uint64) ([]*kala, []solved) {
	rng := rand.New(rand.NewPCG(seed, 5))
	memo := map[kala]solved{}
	var pos []*kala
	var val []solved
	var buf [6]env.Action
	for len(pos) < n {
		k := kala3.New().(*kala)
		for k.Result() == env.Ongoing {
			moves := k.Legal(buf[:0])
			k.Apply(moves[rng.IntN(len(moves))])
			v := minimax(k, memo)
			if k.Result() != env.Ongoing || v.Result != env.WinFor(k.ToMove()) || !hasLosingMove(k, memo) {
				continue
			}
			c := *k
			pos, val = append(pos, &c), append(val, v)
			break
		}
	}
	return pos, val
}

// hasLosingMove reports whether some move of k loses for its mover.
func hasLosingMove(k *kala, memo map[kala]solved) bool {
	var buf [6]env.Action
	for _, a := range k.Legal(buf[:0]) {
		c := *k
		c.Apply(a)
		if minimax(&c, memo).Result == env.WinFor(k.ToMove().Other()) {
			return true
		}
	}
	return false
}

// force sets nd's proof to r at depth d (Ongoing clears it), keeping its
// flags and mover.
func (nd *node) force(r env.Result, d uint16) {
	nd.meta = packMeta(nd.flags(), nd.mover(), r, d)
}
