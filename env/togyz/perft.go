package togyz

import (
	"encoding/binary"
	"math/bits"

	"kumalak/env"
)

// Perft counts the leaves of the game tree depth plies below b, as docs/RULES.md
// defines perft. The last ply is counted in bulk, without playing it.
func (b *Board) Perft(depth int) uint64 {
	switch {
	case depth == 0:
		return 1
	case b.terminal():
		return 0
	case depth == 1:
		return uint64(b.movable())
	}
	return perft(*b, depth)
}

// perft is Perft for a position that is not terminal and depth >= 2. It
// takes the board by value so that the children stay on the stack. A
// terminal child has no leaves below it; the others have as many leaves one
// ply down as they have non-empty pits.
func perft(b Board, depth int) uint64 {
	base := int(b.turn) * PitsPerSide
	var n uint64
	for i := base; i < base+PitsPerSide; i++ {
		if b.pits[i%Cycle] == 0 {
			continue
		}
		c := b
		c.sow(i)
		c.turn ^= 1
		if c.kazan[0] >= WinAt || c.kazan[1] >= WinAt {
			continue
		}
		switch m := c.movable(); {
		case m == 0:
		case depth == 2:
			n += uint64(m)
		default:
			n += perft(c, depth-1)
		}
	}
	return n
}

const (
	lows  = 0x7f7f7f7f7f7f7f7f
	highs = 0x8080808080808080
)

// movable returns the number of non-empty pits in the mover's row.
func (b *Board) movable() int {
	s := b.side(b.turn)
	v := binary.LittleEndian.Uint64(s[:8])
	nz := ((v & lows) + lows | v) & highs // the high bit of each non-zero byte
	n := bits.OnesCount64(nz)
	if s[8] != 0 {
		n++
	}
	return n
}

// Hash returns a 64-bit hash of the position, equal for equal positions.
// It mixes the board's 23 bytes; no state is kept.
func (b *Board) Hash() uint64 {
	w0 := binary.LittleEndian.Uint64(b.pits[0:8])
	w1 := binary.LittleEndian.Uint64(b.pits[8:16])
	w2 := uint64(b.pits[16]) | uint64(b.pits[17])<<8 |
		uint64(b.kazan[0])<<16 | uint64(b.kazan[1])<<24 |
		uint64(uint8(b.tuz[0]))<<32 | uint64(uint8(b.tuz[1]))<<40 |
		uint64(b.turn)<<48
	h := env.Mix64(w0 ^ 0x9e3779b97f4a7c15)
	h = env.Mix64(h ^ w1)
	return env.Mix64(h ^ w2)
}
