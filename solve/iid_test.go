package solve

import (
	"math/rand/v2"
	"slices"
	"testing"

	"kumalak/env"
)

// withIID sets the internal iterative deepening of the search for the
// rest of the test.
func withIID(t *testing.T, stones, depth int) {
	s0, d0 := iidStones, iidDepth
	iidStones, iidDepth = stones, depth
	t.Cleanup(func() { iidStones, iidDepth = s0, d0 })
}

// TestIIDKeepsValues solves the same positions with internal iterative
// deepening from 12 stones (its shallow searches then run at most nodes)
// and without it: the values and every move's value must agree, the move
// order must differ somewhere (the node counts). It also runs on two
// threads, whose helpers share the table the shallow searches write to.
func TestIIDKeepsValues(t *testing.T) {
	small := openShared(t, 6)
	rng := rand.New(rand.NewPCG(7, 9))
	var on, off uint64
	for i := range 12 {
		p := randomPits(rng, 14+i%5)
		if _, over := p.Terminal(); over {
			continue
		}
		b := boardOf(t, p, env.Player(i%2), false)
		var want Result
		for k, iid := range []bool{false, true, true} {
			if iid {
				withIID(t, 12, 4)
			} else {
				withIID(t, 0, 0)
			}
			s := newSolver(t, small)
			if k == 2 {
				s.cfg.Threads = 2
			}
			r, err := s.Solve(b, 0)
			if err != nil || !r.Exact() {
				t.Fatalf("%s (iid %v): %+v, %v", b, iid, r, err)
			}
			switch k {
			case 0:
				want, off = r, off+r.Nodes
			case 1:
				on += r.Nodes
				fallthrough
			default:
				if r.Lo != want.Lo || !slices.Equal(r.Moves, want.Moves) {
					t.Fatalf("%s: with iid %+v, without %+v", b, r, want)
				}
			}
		}
	}
	if on == off {
		t.Errorf("the same %d nodes with and without iid: it never ran", on)
	}
	t.Logf("nodes: %d with iid from 12 stones, %d without", on, off)
}
