package envtest

import (
	"testing"

	"kumalak/env"
)

// TestSolveIsConsistent: at every position of Kala3 reached from the
// start, the value is the best of the children's values one ply deeper,
// and a finished game is its result in 0 plies.
func TestSolveIsConsistent(t *testing.T) {
	memo := map[Kalah]Solved{}
	root := Kala3.New().(*Kalah)
	if v := Solve(root, memo); v.Result == env.Ongoing || v.Depth <= 0 {
		t.Fatalf("start: %+v", v)
	}
	checked := 0
	for k := range memo {
		m := k.ToMove()
		best := -1
		for _, a := range k.Legal(nil) {
			c := k
			c.Apply(a)
			v := Solve(&c, memo)
			v.Depth++
			best = max(best, v.Rank(m))
		}
		if got := memo[k].Rank(m); got != best {
			t.Fatalf("%s: rank %d, best child %d", &k, got, best)
		}
		checked++
	}
	if checked < 50 {
		t.Errorf("only %d positions solved", checked)
	}
	end := *root
	for end.Result() == env.Ongoing {
		end.Apply(end.Legal(nil)[0])
	}
	if v := Solve(&end, memo); v.Result != end.Result() || v.Depth != 0 {
		t.Errorf("finished %s: %+v", &end, v)
	}
}
