package kalah

import (
	"math/rand/v2"
	"testing"

	"kumalak/env"
)

// perftTable pins the counts from the start positions, depth 1..n
// (docs/RULES.md, "Perft"), cross-checked by TestPerftNaive.
var perftTable = map[string][]uint64{
	"kalah":                  {6, 35, 185, 942, 4690, 23233, 114430, 563055},
	"kalah:houses=4,seeds=3": {4, 15, 50, 158, 488, 1510, 4637, 14102, 41831},
	"kalah:capture=empty":    {6, 35, 185, 942, 4685, 23169, 113959, 559885},
	"kalah:seeds=6":          {6, 35, 190, 1056, 5882, 32243, 177827},
}

func TestPerftStart(t *testing.T) {
	for name, want := range perftTable {
		spec, err := env.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		b := spec.New().(*Board)
		for d, w := range want {
			if got := b.Perft(d + 1); got != w {
				t.Errorf("%s: perft %d = %d, want %d", name, d+1, got, w)
			}
		}
	}
}

// TestPerftNaive cross-checks Perft and Apply against the naive
// implementation and env.SlowPerft along random games.
func TestPerftNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, r := range []Rules{Default, {Houses: 4, Seeds: 3}, {Houses: 6, Seeds: 4, Capture: Empty}, {Houses: 3, Seeds: 9}, {Houses: 5, Seeds: 2, Capture: None}} {
		spec := NewSpec(r.Name(), r)
		for g := 0; g < 20; g++ {
			b, n := spec.New().(*Board), newNaive(r)
			for ply := 0; b.Result() == env.Ongoing; ply++ {
				if b.String() != n.String() {
					t.Fatalf("%s game %d ply %d: board %s, naive %s", spec.Name, g, ply, b, n)
				}
				if ply%7 == 0 {
					if got, want := b.Perft(3), n.perft(3); got != want {
						t.Fatalf("%s %s: perft 3 = %d, naive %d", spec.Name, b, got, want)
					}
					if got, want := b.Perft(3), env.SlowPerft(b, 3); got != want {
						t.Fatalf("%s %s: perft 3 = %d, slow %d", spec.Name, b, got, want)
					}
				}
				var buf [env.MaxActions]env.Action
				moves := b.Legal(buf[:0])
				if len(moves) != len(n.moves()) {
					t.Fatalf("%s %s: %d moves, naive %d", spec.Name, b, len(moves), len(n.moves()))
				}
				a := moves[rng.IntN(len(moves))]
				b.Apply(a)
				n.play(int(a))
			}
			if b.String() != n.String() {
				t.Fatalf("%s game %d end: board %s, naive %s", spec.Name, g, b, n)
			}
		}
	}
}
