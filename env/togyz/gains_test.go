package togyz

import (
	"math/rand/v2"
	"testing"

	"kumalak/env"
)

// gainsBySowing is gains as the rules define it: sow each pit on a copy of
// the board and read the kazan. gain must agree with it everywhere.
func gainsBySowing(b *Board, p env.Player, dst []float32) {
	base := int(p) * PitsPerSide
	for i := range dst {
		dst[i] = 0
		c := base + i
		if b.pits[c] == 0 {
			continue
		}
		child := *b
		child.turn = p
		child.sow(c)
		dst[i] = float32(child.kazan[p]-b.kazan[p]) / lap
	}
}

// TestGainsAgainstSowing compares gains with trial sowings for both players
// on every position of random games (with tuzdyks and captures) and on
// random boards with large pits (whole laps) and every kind of tuzdyk.
func TestGainsAgainstSowing(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	check := func(b *Board) {
		t.Helper()
		var got, want [PitsPerSide]float32
		for _, p := range [2]env.Player{env.White, env.Black} {
			b.gains(p, got[:])
			gainsBySowing(b, p, want[:])
			if got != want {
				t.Fatalf("%s: gains for player %d %v, sowing gives %v\n%s", b, p, got, want, b.Draw())
			}
		}
	}
	for _, s := range perftPositions {
		b, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		check(b)
	}
	for g := 0; g < 300; g++ {
		b := New()
		for moves := b.Legal(nil); len(moves) > 0; moves = b.Legal(moves[:0]) {
			check(b)
			b.Apply(moves[rng.IntN(len(moves))])
		}
	}
	for range 20000 {
		b := randomBoard(rng)
		check(&b)
	}
}

// randomBoard spreads the 162 stones at random over the pits and kazans,
// with large pits common, and gives each player a tuzdyk (or none) where
// the rules allow one; tuzdyk pits are empty.
func randomBoard(rng *rand.Rand) Board {
	var b Board
	b.turn = env.Player(rng.IntN(2))
	b.tuz = [2]int8{-1, -1}
	for p := range 2 {
		if rng.IntN(2) == 0 {
			continue
		}
		i := rng.IntN(PitsPerSide - 1) // not the ninth pit
		if o := b.tuz[1-p]; o >= 0 && int(o)%PitsPerSide == i {
			continue // not opposite the other's
		}
		b.tuz[p] = int8((1-p)*PitsPerSide + i) // on the opponent's row
	}
	left := Stones
	for left > 0 {
		k := min(left, 1+rng.IntN(30))
		switch j := rng.IntN(Cycle + 2); {
		case j >= Cycle:
			b.kazan[j-Cycle] += uint8(k)
		case int(b.tuz[0]) == j || int(b.tuz[1]) == j:
			continue
		default:
			b.pits[j] += uint8(k)
		}
		left -= k
	}
	return b
}
