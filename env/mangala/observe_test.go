package mangala

import (
	"math/rand/v2"
	"testing"

	"kumalak/env"
)

// obsWant lists the non-zero features expected for a position.
type obsWant map[int]float32

func checkObs(t *testing.T, b *Board, want obsWant) {
	t.Helper()
	got := make([]float32, ObsLen)
	b.Observe(got)
	for i, v := range got {
		if v != want[i] {
			t.Errorf("%s: feature %d = %v, want %v", b, i, v, want[i])
		}
	}
}

func TestObservePinned(t *testing.T) {
	if ObsLen != 77 {
		t.Fatalf("ObsLen = %d, doc.go documents 77", ObsLen)
	}
	b := mustParse(t, "4,4,4,1,5,5/4,4,4,4,4,4 1 0 - - w", false)
	w := obsWant{}
	for k, n := range []float32{4, 4, 4, 1, 5, 5, 4, 4, 4, 4, 4, 4} {
		w[obsCount+k] = n / 12
	}
	w[obsOdd+3], w[obsOdd+4], w[obsOdd+5] = 1, 1, 1
	w[obsExtra+9] = 1 // opponent's pit 4 with 4 stones ends in the opponent's store
	w[obsStores] = 1.0 / 24
	w[obsRows], w[obsRows+1] = 23.0/24, 1
	checkObs(t, b, w)

	// Kale, black to move: black's row comes first.
	b = mustParse(t, "3,0,5,5,5,2/0,3,0,3,3,3 10 6 3 2 b", true)
	w = obsWant{}
	for k, n := range []float32{0, 3, 0, 3, 3, 3, 3, 0, 5, 5, 5, 2} {
		w[obsCount+k] = n / 12
		if n == 0 {
			w[obsEmpty+k] = 1
		}
		if int(n)%2 == 1 {
			w[obsOdd+k] = 1
		}
	}
	w[obsStores], w[obsStores+1] = 6.0/24, 10.0/24
	w[obsRows], w[obsRows+1] = 12.0/24, 20.0/24
	w[obsCastles+1] = 1   // black's castle: white's pit 2
	w[obsCastles+5+2] = 1 // white's castle: black's pit 3
	w[obsVariant] = 1
	checkObs(t, b, w)

	// Kale start: castle targets need a 2; both may still build.
	b = mustParse(t, "4,2,4,4,4,2/4,4,4,2,4,4 3 3 - - w", true)
	w = obsWant{obsStores: 3.0 / 24, obsStores + 1: 3.0 / 24, obsRows: 20.0 / 24, obsRows + 1: 22.0 / 24, obsMayBuild: 1, obsMayBuild + 1: 1, obsVariant: 1}
	for k, n := range []float32{4, 2, 4, 4, 4, 2, 4, 4, 4, 2, 4, 4} {
		w[obsCount+k] = n / 12
	}
	w[obsTarget+1], w[obsTarget+9] = 1, 1 // pit 6 with 2 is not a target
	checkObs(t, b, w)
}

// mirror returns b with the colours swapped.
func mirror(b Board) Board {
	m := b
	copy(m.pits[:PitsPerSide], b.pits[PitsPerSide:])
	copy(m.pits[PitsPerSide:], b.pits[:PitsPerSide])
	m.stores[0], m.stores[1] = b.stores[1], b.stores[0]
	m.castle[0], m.castle[1] = b.castle[1], b.castle[0]
	m.toMove = b.toMove.Other()
	return m
}

// TestObserveSemantics walks random games and checks that the observation
// is colour-blind and that the extra-turn and castle-target features agree
// with what sowing actually does.
func TestObserveSemantics(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	obs, mobs := make([]float32, ObsLen), make([]float32, ObsLen)
	var buf [8]env.Action
	for g := 0; g < 200; g++ {
		b := New(g%2 == 1)
		for {
			b.Observe(obs)
			m := mirror(*b)
			m.Observe(mobs)
			for i := range obs {
				if obs[i] != mobs[i] {
					t.Fatalf("%s and its mirror %s differ at feature %d", b, &m, i)
				}
			}
			checkSowFeatures(t, b, obs)
			legal := b.Legal(buf[:0])
			if len(legal) == 0 {
				break
			}
			b.Apply(legal[rng.IntN(len(legal))])
		}
	}
}

// checkSowFeatures sows every non-empty pit of both rows on a copy (each by
// its owner) and compares the outcome with the pit's features.
func checkSowFeatures(t *testing.T, b *Board, obs []float32) {
	t.Helper()
	for k := 0; k < 2*PitsPerSide; k++ {
		if b.kale {
			if reach := castleReachable(b, k); (obs[obsTarget+k] == 1) != reach {
				t.Fatalf("%s slot %d: castle-target feature %v, sowing says %v", b, k, obs[obsTarget+k], reach)
			}
			continue
		}
		c := *b
		if k >= PitsPerSide {
			c.toMove = c.toMove.Other()
		}
		i := k % PitsPerSide
		if c.pits[int(c.toMove)*PitsPerSide+i] == 0 {
			continue
		}
		if extra := c.sowClassic(i); (obs[obsExtra+k] == 1) != extra {
			t.Fatalf("%s slot %d: extra-turn feature %v, sowing says %v", b, k, obs[obsExtra+k], extra)
		}
	}
}

// castleReachable reports whether some pit across, given the right count,
// would make the pit in view slot k a castle with its last stone.
func castleReachable(b *Board, k int) bool {
	owner := b.toMove
	if k >= PitsPerSide {
		owner = owner.Other()
	}
	if b.castle[owner.Other()] != noCastle {
		return false // the player across has built theirs
	}
	target := int(owner)*PitsPerSide + k%PitsPerSide
	for i := 0; i < PitsPerSide; i++ {
		c := *b
		c.toMove = owner.Other()
		src := int(c.toMove)*PitsPerSide + i
		if int(c.castle[owner]) == i {
			continue
		}
		dist := (target - src + kaleCycle) % kaleCycle
		c.pits[src] = uint8(dist + 1) // n > 1 lands dist places on; the board need not hold 48 here
		if dist == 0 {
			continue
		}
		c.sowKale(i)
		if int(c.castle[owner.Other()]) == k%PitsPerSide {
			return true
		}
	}
	return false
}

func mustParse(t *testing.T, s string, kale bool) *Board {
	t.Helper()
	b, err := Parse(s, kale)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return b
}
