package solve

import "fmt"

// MaxStones is the most stones a pit configuration may hold: all of them.
const MaxStones = 48

// Sizes of the index arithmetic.
const (
	nPits     = 12                        // pits on the board
	rowPits   = 6                         // pits in one row
	maxWeight = (rowPits - 1) * MaxStones // the largest weight of a configuration
)

// counts[j][t][w] is the number of ways to put t stones into pits j..11 so
// that their weight (pit k weighs k mod 6) is w; offsets[s][w] is the number
// of configurations of s stones whose weight is below w. Both are filled once
// at init and never change.
var (
	counts  [nPits + 1][MaxStones + 1][maxWeight + 1]uint64
	offsets [MaxStones + 1][maxWeight + 2]uint64
)

func init() {
	counts[nPits][0][0] = 1
	for j := nPits - 1; j >= 0; j-- {
		c := j % rowPits
		for t := 0; t <= MaxStones; t++ {
			for w := 0; w <= maxWeight; w++ {
				var n uint64
				for v := 0; v <= t && v*c <= w; v++ {
					n += counts[j+1][t-v][w-v*c]
				}
				counts[j][t][w] = n
			}
		}
	}
	for s := 0; s <= MaxStones; s++ {
		for w := 0; w <= maxWeight; w++ {
			offsets[s][w+1] = offsets[s][w] + counts[0][s][w]
		}
	}
}

// LevelSize returns the number of pit configurations with exactly s stones
// on the board, C(s+11, 11): the entries of level s of a tablebase.
func LevelSize(s int) uint64 {
	if s < 0 || s > MaxStones {
		panic(fmt.Sprintf("solve: LevelSize(%d) out of range 0..%d", s, MaxStones))
	}
	return offsets[s][maxWeight+1]
}

// Pits is a pit configuration in the view of the player to move: Pits[0..5]
// are the mover's pits 1..6, Pits[6..11] the opponent's pits 1..6, which is
// the order in which the mover sows (the mover's store sits between 5 and 6).
type Pits [nPits]uint8

// Stones returns the stones on the board.
func (p *Pits) Stones() int {
	n := 0
	for _, v := range p {
		n += int(v)
	}
	return n
}

// Weight returns the sum over the stones of their pit's place in its row
// (0..5): every move that keeps all stones on the board raises it, which is
// why a level of the tablebase is computed from the heaviest weight down.
func (p *Pits) Weight() int {
	w := 0
	for k, v := range p {
		w += int(v) * (k % rowPits)
	}
	return w
}

// Rank returns the index of p within its level (its stone count): the
// configurations of a level are ordered by weight, then lexicographically
// by pits 0..11. Rank and Unrank are inverse bijections between the
// configurations of s stones and [0, LevelSize(s)). It allocates nothing;
// p must hold at most MaxStones stones.
func (p *Pits) Rank() uint64 { return p.rank(p.Stones()) }

// rank is Rank for p of t stones, for callers that counted them already.
func (p *Pits) rank(t int) uint64 {
	w := p.Weight()
	r := offsets[t][w]
	for j := 0; j < nPits-1; j++ {
		a := int(p[j])
		r += counts[j][t][w]
		t -= a
		w -= a * (j % rowPits)
		r -= counts[j][t][w]
	}
	return r
}

// Unrank returns the configuration of s stones whose Rank is r; it panics
// when s or r is out of range.
func Unrank(s int, r uint64) Pits {
	if r >= LevelSize(s) {
		panic(fmt.Sprintf("solve: Unrank(%d, %d) beyond the level's %d entries", s, r, LevelSize(s)))
	}
	w := 0
	for r >= offsets[s][w+1] {
		w++
	}
	return unrankIn(s, w, r-offsets[s][w])
}

// unrankIn returns the configuration of s stones and weight w that is r-th
// in lexicographic order among those of that weight.
func unrankIn(t, w int, r uint64) Pits {
	var p Pits
	for j := 0; j < nPits-1; j++ {
		c := j % rowPits
		v := 0
		for n := counts[j+1][t][w]; r >= n; n = counts[j+1][t-v][w-v*c] {
			r -= n
			v++
		}
		p[j] = uint8(v)
		t -= v
		w -= v * c
	}
	p[nPits-1] = uint8(t)
	return p
}
