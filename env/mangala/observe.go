package mangala

import "kumalak/env"

// Layout of the observation (see doc.go for the meaning and scaling of each
// feature). The 12 pits are in view order: the mover's pits 1..6, then the
// opponent's pits 1..6. Per-pit features are planes of 12, one after another.
const (
	viewPits    = 2 * PitsPerSide
	obsCount    = 0                              // stones/12
	obsEmpty    = obsCount + viewPits            // 1 when the pit is empty
	obsOdd      = obsEmpty + viewPits            // 1 when it holds an odd number
	obsExtra    = obsOdd + viewPits              // classic: its owner's move from it ends in the owner's store
	obsTarget   = obsExtra + viewPits            // kale: one more stone would make it a castle
	obsStores   = obsTarget + viewPits           // mover's store/24, opponent's store/24
	obsRows     = obsStores + 2                  // stones in the mover's row/24, in the opponent's row/24
	obsCastles  = obsRows + 2                    // mover's castle one-hot over opponent's pits 1..5, then the opponent's over the mover's
	obsMayBuild = obsCastles + 2*(PitsPerSide-1) // mover may still build a castle, opponent may
	obsVariant  = obsMayBuild + 2                // 1 in kale
	// ObsLen is the length of Observe's output.
	ObsLen = obsVariant + 1
)

// Scales of the observation.
const (
	countScale = 12   // one lap of the kale cycle; the classic cycle has 13 places
	storeScale = half // a store above 24 has won
)

// extraCount[i][n] is 1 when n stones sown from its owner's pit i (0-based)
// end in the owner's store in the classic game.
var extraCount = func() (t [PitsPerSide][Stones + 1]float32) {
	for i := range t {
		for n := 1; n <= Stones; n++ {
			// n = 1 goes to place i+1; n > 1 covers places i..i+n-1, and the store is place 6.
			if (n == 1 && i == PitsPerSide-1) || (n > 1 && (i+n-1)%classicCycle == PitsPerSide) {
				t[i][n] = 1
			}
		}
	}
	return t
}()

// Observe writes the ObsLen features of the position from the mover's view
// into dst. It allocates nothing.
func (b *Board) Observe(dst []float32) {
	dst = dst[:ObsLen]
	clear(dst)
	me, opp := b.toMove, b.toMove.Other()
	var rows [2]int
	for k := 0; k < viewPits; k++ {
		owner := me
		if k >= PitsPerSide {
			owner = opp
		}
		i := k % PitsPerSide
		n := b.pits[int(owner)*PitsPerSide+i]
		rows[k/PitsPerSide] += int(n)
		b.observePit(dst, k, owner, i, n)
	}
	dst[obsStores] = float32(b.stores[me]) / storeScale
	dst[obsStores+1] = float32(b.stores[opp]) / storeScale
	dst[obsRows] = float32(rows[0]) / storeScale
	dst[obsRows+1] = float32(rows[1]) / storeScale
	if !b.kale {
		return
	}
	for s, p := range [2]env.Player{me, opp} {
		if c := b.castle[p]; c == noCastle {
			dst[obsMayBuild+s] = 1
		} else {
			dst[obsCastles+s*(PitsPerSide-1)+int(c)] = 1
		}
	}
	dst[obsVariant] = 1
}

// observePit writes the per-pit features of view slot k, owner's pit i
// (0-based) holding n stones.
func (b *Board) observePit(dst []float32, k int, owner env.Player, i int, n uint8) {
	dst[obsCount+k] = float32(n) / countScale
	if n == 0 {
		dst[obsEmpty+k] = 1
	}
	dst[obsOdd+k] = float32(n & 1)
	if !b.kale {
		dst[obsExtra+k] = extraCount[i][n]
		return
	}
	if n == 2 && i != PitsPerSide-1 && b.castle[owner.Other()] == noCastle {
		dst[obsTarget+k] = 1
	}
}
