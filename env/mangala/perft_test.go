package mangala

import (
	"math/rand/v2"
	"testing"

	"kumalak/env"
)

// perftTable holds docs/RULES.md's counts from the start position, depth 1..9
// (1..8 for kale); depths above 7 run only without -short.
var perftTable = map[bool][]uint64{
	false: {6, 36, 213, 1233, 6956, 38116, 204921, 1087622, 5715603},
	true:  {6, 36, 210, 1197, 6468, 34751, 181332, 953582},
}

func TestPerftStart(t *testing.T) {
	for _, kale := range []bool{false, true} {
		b := New(kale)
		if got := b.Perft(0); got != 1 {
			t.Errorf("kale %v: perft 0 = %d, want 1", kale, got)
		}
		for d, want := range perftTable[kale] {
			depth := d + 1
			if depth > 7 && testing.Short() {
				break
			}
			if got := b.Perft(depth); got != want {
				t.Errorf("%s: perft %d = %d, want %d", b.Spec().Name, depth, got, want)
			}
		}
	}
}

// perftPositions are positions with castles, extra turns and near-end play.
var perftPositions = []struct {
	pos  string
	kale bool
}{
	{"3,0,5,5,5,2/0,3,0,3,3,3 10 6 3 2 b", true},
	{"5,5,0,4,4,4/4,4,4,4,4,1 2 3 - 3 w", true},
	{"4,4,4,4,4,4/4,2,4,4,0,4 6 0 5 - w", true},
	{"2,0,4,4,4,14/2,2,0,2,2,2 5 5 3 2 w", true},
	{"1,0,2,0,1,2/0,1,0,0,1,2 20 18 4 2 b", true},
	{"4,4,4,1,5,5/4,4,4,4,4,4 1 0 - - w", false},
	{"15,2,2,2,2,1/4,4,4,4,4,0 2 2 - - w", false},
	{"1,2,3,4,5,6/6,5,4,3,2,1 3 3 - - b", false},
	{"0,0,1,0,2,1/1,0,0,3,0,1 20 19 - - w", false},
}

// TestPerftNaive cross-checks perft against the naive implementation and
// against env.SlowPerft, from the start and from perftPositions.
func TestPerftNaive(t *testing.T) {
	for _, kale := range []bool{false, true} {
		b := New(kale)
		n := naiveParse(b.String(), kale)
		if got, want := b.Perft(7), n.perft(7); got != want {
			t.Errorf("%s start: perft 7 = %d, naive %d", b.Spec().Name, got, want)
		}
	}
	for _, c := range perftPositions {
		b, err := Parse(c.pos, c.kale)
		if err != nil {
			t.Fatalf("%s: %v", c.pos, err)
		}
		n := naiveParse(c.pos, c.kale)
		for depth := 1; depth <= 5; depth++ {
			got, want := b.Perft(depth), n.perft(depth)
			if got != want {
				t.Fatalf("%s (kale %v): perft %d = %d, naive %d\n%s", c.pos, c.kale, depth, got, want, b.Draw())
			}
			if slow := env.SlowPerft(b, depth); slow != got {
				t.Fatalf("%s: perft %d = %d, SlowPerft %d", c.pos, depth, got, slow)
			}
		}
	}
}

// TestRandomGamesNaive plays random games with both implementations side by
// side, comparing position strings, legal moves and results at every ply.
func TestRandomGamesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	castles := 0
	for g := 0; g < 600; g++ {
		kale := g%2 == 1
		b := New(kale)
		n := naiveParse(b.String(), kale)
		var buf [8]env.Action
		for ply := 0; ; ply++ {
			legal := b.Legal(buf[:0])
			want := n.moves()
			if b.String() != n.format() || b.Result().String() != n.result() || len(legal) != len(want) {
				t.Fatalf("game %d ply %d: engine %s %s %v, naive %s %s %v\n%s",
					g, ply, b, b.Result(), legal, n.format(), n.result(), want, b.Draw())
			}
			for i := range legal {
				if legal[i].Pit() != want[i] {
					t.Fatalf("game %d ply %d: legal %v, naive %v\n%s", g, ply, legal, want, b.Draw())
				}
			}
			if len(legal) == 0 {
				break
			}
			if b.castle[0] != noCastle && b.castle[1] != noCastle {
				castles++
			}
			a := legal[rng.IntN(len(legal))]
			b.Apply(a)
			n.play(a.Pit())
		}
	}
	if castles == 0 {
		t.Error("no position with both castles was visited")
	}
}
