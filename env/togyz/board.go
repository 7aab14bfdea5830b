package togyz

import (
	"encoding/binary"
	"errors"
	"fmt"

	"kumalak/env"
)

// Sizes and thresholds of the game.
const (
	PitsPerSide = 9   // pits in each player's row
	Cycle       = 18  // pits in the sowing cycle
	Stones      = 162 // stones in play
	WinAt       = 82  // a kazan holding this many wins at once
	half        = Stones / 2
)

// Board is one togyz position: a 23-byte value, copied by assignment.
//
// Pits are in cycle order: pits[0..8] are white's pits 1..9 and pits[9..17]
// black's pits 1..9. tuz[p] is the cycle index of the pit that is player p's
// tuzdyk (always on the other player's row), or -1. A tuzdyk pit always
// holds 0.
type Board struct {
	pits  [Cycle]uint8
	kazan [2]uint8
	tuz   [2]int8
	turn  env.Player
}

// The checks below assert the interfaces *Board promises.
var (
	_ env.State   = (*Board)(nil)
	_ env.Checker = (*Board)(nil)
	_ env.Scorer  = (*Board)(nil)
	_ env.Hasher  = (*Board)(nil)
	_ env.Perfter = (*Board)(nil)
)

// Start returns the start position: 9 stones in every pit, white to move.
func Start() Board {
	b := Board{tuz: [2]int8{-1, -1}}
	for i := range b.pits {
		b.pits[i] = 9
	}
	return b
}

// New returns a pointer to a fresh start position.
func New() *Board {
	b := Start()
	return &b
}

// Spec returns the togyz Spec.
func (b *Board) Spec() *env.Spec { return Spec }

// ToMove returns the player to move.
func (b *Board) ToMove() env.Player { return b.turn }

// Pit returns the stones in player p's pit i (1..9).
func (b *Board) Pit(p env.Player, i int) int { return int(b.pits[int(p)*PitsPerSide+i-1]) }

// Store returns the stones in p's kazan.
func (b *Board) Store(p env.Player) int { return int(b.kazan[p]) }

// FinalStore returns p's kazan after the end rule: at atsyrau (a terminal
// position without a kazan of 82) the stones left on the other player's row
// count for that player. Elsewhere it is Store.
func (b *Board) FinalStore(p env.Player) int {
	k := int(b.kazan[p])
	if p != b.turn && b.kazan[0] < WinAt && b.kazan[1] < WinAt && b.empty(b.turn) {
		k += b.rowSum(p)
	}
	return k
}

// Tuzdyk returns the number (1..9) of the opponent's pit that is p's
// tuzdyk, or 0 when p has none.
func (b *Board) Tuzdyk(p env.Player) int {
	if b.tuz[p] < 0 {
		return 0
	}
	return int(b.tuz[p])%PitsPerSide + 1
}

// CopyFrom makes b a copy of src, which must be a *Board.
func (b *Board) CopyFrom(src env.State) { *b = *src.(*Board) }

// side returns the pits of p's row.
func (b *Board) side(p env.Player) *[PitsPerSide]uint8 {
	return (*[PitsPerSide]uint8)(b.pits[int(p)*PitsPerSide:])
}

// empty reports whether p's row holds no stone.
func (b *Board) empty(p env.Player) bool {
	s := b.side(p)
	return binary.LittleEndian.Uint64(s[:8])|uint64(s[8]) == 0
}

// rowSum returns the stones in p's row.
func (b *Board) rowSum(p env.Player) int {
	n := 0
	for _, v := range b.side(p) {
		n += int(v)
	}
	return n
}

// terminal reports whether the game is over in b.
func (b *Board) terminal() bool {
	return b.kazan[0] >= WinAt || b.kazan[1] >= WinAt || b.empty(b.turn)
}

// Result returns Ongoing, or the result of a terminal position. Stones left
// on the non-moving side of an atsyrau position count for their owner.
func (b *Board) Result() env.Result {
	switch {
	case b.kazan[env.White] >= WinAt:
		return env.WhiteWins
	case b.kazan[env.Black] >= WinAt:
		return env.BlackWins
	case !b.empty(b.turn):
		return env.Ongoing
	}
	// Atsyrau: the other player collects, so the kazans add up to 162 and
	// the mover's kazan alone decides.
	k := int(b.kazan[b.turn])
	switch {
	case k == half:
		return env.Draw
	case (k > half) == (b.turn == env.White):
		return env.WhiteWins
	}
	return env.BlackWins
}

// Legal appends the mover's non-empty pits to dst, or nothing when the game
// is over.
func (b *Board) Legal(dst []env.Action) []env.Action {
	if b.terminal() {
		return dst
	}
	for i, v := range b.side(b.turn) {
		if v != 0 {
			dst = append(dst, env.Action(i))
		}
	}
	return dst
}

// Errors returned by Check, wrapped by env.CheckMove, besides env.ErrGameOver
// and env.ErrEmptyPit.
var (
	ErrNoPit  = errors.New("no such pit")
	ErrTuzdyk = errors.New("pit is a tuzdyk")
)

// Check says why action a can't be played, or returns nil.
func (b *Board) Check(a env.Action) error {
	switch {
	case int(a) >= PitsPerSide:
		return ErrNoPit
	case b.terminal():
		return env.ErrGameOver
	case int(b.tuz[b.turn.Other()]) == int(b.turn)*PitsPerSide+int(a):
		return ErrTuzdyk
	case b.side(b.turn)[a] == 0:
		return env.ErrEmptyPit
	}
	return nil
}

// Apply plays the mover's pit a (0-based). It panics when a is not legal.
func (b *Board) Apply(a env.Action) {
	if err := b.Check(a); err != nil {
		panic(fmt.Sprintf("togyz: Apply(pit %d) in %s: %v", a.Pit(), b.String(), err))
	}
	b.sow(int(b.turn)*PitsPerSide + int(a))
	b.finish()
}

// finish passes the turn and applies the end-of-game rules.
func (b *Board) finish() {
	b.turn ^= 1
	if b.kazan[0] >= WinAt || b.kazan[1] >= WinAt || !b.empty(b.turn) {
		return
	}
	o := b.turn.Other()
	b.kazan[o] += uint8(b.rowSum(o))
	*b.side(o) = [PitsPerSide]uint8{}
}

// next[c] is the cycle index after c.
var next = [Cycle]uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 0}

// sow lifts the stones of the mover's pit at cycle index c (not empty),
// sows them and settles the capture or tuzdyk, without passing the turn. It
// returns the cycle index of the pit that received the last stone and
// whether the move made a tuzdyk.
func (b *Board) sow(c int) (last int, made bool) {
	n := int(b.pits[c])
	b.pits[c] = 0
	if n == 1 {
		last = int(next[c%Cycle])
		b.pits[last]++
	} else {
		last = b.spread(c, n)
	}
	for p, t := range b.tuz {
		if t >= 0 {
			b.kazan[p] += b.pits[t]
			b.pits[t] = 0
		}
	}
	return last, b.settle(last)
}

// spread sows n >= 2 stones from cycle index s onwards, s included, and
// returns the cycle index of the last one. Whole laps are added at once.
func (b *Board) spread(s, n int) int {
	if n >= Cycle {
		q := uint8(n / Cycle)
		for i := range b.pits {
			b.pits[i] += q
		}
		n %= Cycle
		if n == 0 {
			if s == 0 {
				return Cycle - 1
			}
			return s - 1
		}
	}
	e := s + n
	if e <= Cycle {
		seg := b.pits[s:e]
		for i := range seg {
			seg[i]++
		}
		return e - 1
	}
	seg := b.pits[s:]
	for i := range seg {
		seg[i]++
	}
	seg = b.pits[:e-Cycle]
	for i := range seg {
		seg[i]++
	}
	return e - Cycle - 1
}

// settle applies the even capture or the tuzdyk rule for a last stone at
// cycle index l, and reports whether a tuzdyk was made.
func (b *Board) settle(l int) bool {
	mover := b.turn
	oppBase := int(mover.Other()) * PitsPerSide
	i := l - oppBase // L's number - 1 on the opponent's row
	if uint(i) >= PitsPerSide || int(b.tuz[mover]) == l {
		return false
	}
	v := b.pits[l]
	if v&1 == 0 {
		b.kazan[mover] += v
		b.pits[l] = 0
		return false
	}
	if v != 3 || b.tuz[mover] >= 0 || i == PitsPerSide-1 {
		return false
	}
	if t := b.tuz[mover.Other()]; t >= 0 && int(t)-int(mover)*PitsPerSide == i {
		return false
	}
	b.kazan[mover] += 3
	b.pits[l] = 0
	b.tuz[mover] = int8(l)
	return true
}
