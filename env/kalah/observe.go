package kalah

// Layout of the observation, from the mover's view, for a game of n houses:
//
//	[0, n)       stones in the mover's houses 1..n / seeds·n
//	[n, 2n)      stones in the opponent's houses 1..n / seeds·n
//	[2n, 3n)     1 when the mover's house holds exactly the stones that end
//	             its sowing in the mover's store (an extra turn)
//	[3n, 4n)     1 when the mover's house is empty
//	4n, 4n+1     the mover's store, the opponent's store / half the stones
//	4n+2, 4n+3   stones in the mover's row, in the opponent's / half the stones
//	4n+4         plies left / MaxPly when the rules limit the plies, else 0
//	4n+5         1 when White is to move, else 0 (the first player's edge)
func obsLen(n int) int { return 4*n + 6 }

// Observe writes the features above into dst.
func (b *Board) Observe(dst []float32) {
	n, me := b.rules.Houses, b.turn
	you := me.Other()
	house := 1 / float32(b.rules.Seeds*n)
	half := 2 / float32(b.spec.Stones)
	var rows [2]int
	for i := range n {
		m, o := b.pits[me][i], b.pits[you][i]
		rows[0] += int(m)
		rows[1] += int(o)
		dst[i] = float32(m) * house
		dst[n+i] = float32(o) * house
		dst[2*n+i] = 0
		if m > 0 && (i+int(m))%(2*n+1) == n {
			dst[2*n+i] = 1
		}
		dst[3*n+i] = 0
		if m == 0 {
			dst[3*n+i] = 1
		}
	}
	dst[4*n] = float32(b.store[me]) * half
	dst[4*n+1] = float32(b.store[you]) * half
	dst[4*n+2] = float32(rows[0]) * half
	dst[4*n+3] = float32(rows[1]) * half
	dst[4*n+4] = 0
	if b.rules.MaxPly > 0 {
		dst[4*n+4] = float32(b.rules.MaxPly-int(b.ply)) / float32(b.rules.MaxPly)
	}
	dst[4*n+5] = float32(1 - me)
}
