package mangala

import (
	"encoding/binary"
	"errors"

	"kumalak/env"
)

// Sizes of the game.
const (
	PitsPerSide = 6  // pits in each player's row
	Stones      = 48 // stones in play
	half        = Stones / 2
	noCastle    = -1
)

// Board is one mangala position, classic or kale: an 18-byte value, copied
// by assignment.
//
// pits[0..5] are white's pits 1..6 and pits[6..11] black's pits 1..6, so
// player p's pit i (1-based) is pits[6p+i-1]. castle[p] is the index 0..4 of
// the opponent's pit that is player p's castle, or -1; a castle pit always
// holds 0. In the classic game both castles are always -1.
//
// The zero Board is not a position: use Start, New or Parse.
type Board struct {
	pits   [2 * PitsPerSide]uint8
	stores [2]uint8
	castle [2]int8
	toMove env.Player
	kale   bool
}

// The checks below assert the interfaces *Board promises.
var (
	_ env.State   = (*Board)(nil)
	_ env.Checker = (*Board)(nil)
	_ env.Scorer  = (*Board)(nil)
	_ env.Hasher  = (*Board)(nil)
	_ env.Perfter = (*Board)(nil)
)

// Reasons Check gives for an illegal action, besides env.ErrGameOver and
// env.ErrEmptyPit.
var (
	ErrOutOfRange = errors.New("pit out of range")
	ErrCastle     = errors.New("pit is a castle")
)

// Start returns the start position, 4 stones in every pit and white to move,
// of the castle variant when kale is true and of the classic game otherwise.
func Start(kale bool) Board {
	b := Board{castle: [2]int8{noCastle, noCastle}, kale: kale}
	for i := range b.pits {
		b.pits[i] = 4
	}
	return b
}

// New returns a pointer to a fresh start position (see Start).
func New(kale bool) *Board {
	b := Start(kale)
	return &b
}

// Spec returns Spec or KaleSpec.
func (b *Board) Spec() *env.Spec {
	if b.kale {
		return KaleSpec
	}
	return Spec
}

// Kale reports whether b follows the castle rule.
func (b *Board) Kale() bool { return b.kale }

// ToMove returns the player to move. After a move ending in the mover's
// store (classic only) it is the mover again, unless that move ended the
// game; at a terminal position it is the last mover's opponent.
func (b *Board) ToMove() env.Player { return b.toMove }

// Pit returns the stones in player p's pit i (1..6).
func (b *Board) Pit(p env.Player, i int) int { return int(b.pits[int(p)*PitsPerSide+i-1]) }

// Store returns the stones in p's store.
func (b *Board) Store(p env.Player) int { return int(b.stores[p]) }

// Castle returns the number (1..5) of the opponent's pit that is p's
// castle, or 0 when p has none.
func (b *Board) Castle(p env.Player) int { return int(b.castle[p]) + 1 }

// CopyFrom makes b a copy of src, which must be a *Board.
func (b *Board) CopyFrom(src env.State) { *b = *src.(*Board) }

// side returns the six pits of player p as one number, zero exactly when
// all of them are empty.
func (b *Board) side(p env.Player) uint64 {
	s := b.pits[int(p)*PitsPerSide:]
	return uint64(binary.LittleEndian.Uint32(s)) | uint64(binary.LittleEndian.Uint16(s[4:]))<<32
}

// over reports whether either row is empty, which makes b terminal.
func (b *Board) over() bool { return b.side(env.White) == 0 || b.side(env.Black) == 0 }

// moveMask returns bit i set for each pit i (0-based) the mover may pick,
// 0 at a terminal position. A castle holds 0, so it is never set.
func (b *Board) moveMask() uint {
	if b.side(b.toMove.Other()) == 0 {
		return 0
	}
	m := int(b.toMove) * PitsPerSide
	var mask uint
	for i := 0; i < PitsPerSide; i++ {
		if b.pits[m+i] != 0 {
			mask |= 1 << i
		}
	}
	return mask
}

// Legal appends the pits the mover may pick, in increasing order.
func (b *Board) Legal(dst []env.Action) []env.Action {
	for mask := b.moveMask(); mask != 0; mask &= mask - 1 {
		dst = append(dst, env.Action(lowBit(mask)))
	}
	return dst
}

// Check says why action a is illegal, or returns nil for a legal one.
func (b *Board) Check(a env.Action) error {
	switch {
	case int(a) >= PitsPerSide:
		return ErrOutOfRange
	case b.over():
		return env.ErrGameOver
	case int(b.castle[b.toMove.Other()]) == int(a):
		return ErrCastle
	case b.pits[int(b.toMove)*PitsPerSide+int(a)] == 0:
		return env.ErrEmptyPit
	}
	return nil
}

// Result returns Ongoing, or the result of a terminal position. Stones still
// in the pits of a terminal position count as the end rule of the variant
// would collect them.
func (b *Board) Result() env.Result {
	if !b.over() {
		return env.Ongoing
	}
	w, bl := b.finalStores()
	switch {
	case w > bl:
		return env.WhiteWins
	case bl > w:
		return env.BlackWins
	}
	return env.Draw
}

// finalStores returns the stores after the end rule collects the stones
// left in the pits of a terminal position.
func (b *Board) finalStores() (white, black int) {
	c := *b
	c.collect()
	return int(c.stores[env.White]), int(c.stores[env.Black])
}

// collect applies the end rule: in kale each player stores the stones left
// in their own pits; in the classic game a player whose pits are empty takes
// the stones left in the other player's pits.
func (b *Board) collect() {
	for p := env.White; p <= env.Black; p++ {
		owner := p
		if !b.kale {
			if b.side(p.Other()) != 0 {
				continue
			}
			owner = p.Other()
		}
		m := int(p) * PitsPerSide
		for i := m; i < m+PitsPerSide; i++ {
			b.stores[owner] += b.pits[i]
			b.pits[i] = 0
		}
	}
}

// Hash returns a 64-bit hash of the position, the variant included, equal
// for equal positions. It packs the board into 128 bits and mixes them.
func (b *Board) Hash() uint64 {
	lo := binary.LittleEndian.Uint64(b.pits[:8])
	hi := uint64(binary.LittleEndian.Uint32(b.pits[8:])) |
		uint64(b.stores[0])<<32 | uint64(b.stores[1])<<40 |
		uint64(b.castle[0]+1)<<48 | uint64(b.castle[1]+1)<<52 |
		uint64(b.toMove)<<56
	if b.kale {
		hi |= 1 << 57
	}
	return env.Mix64(env.Mix64(lo^0x9e3779b97f4a7c15) ^ hi)
}
