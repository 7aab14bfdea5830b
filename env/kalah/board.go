package kalah

import (
	"fmt"

	"kumalak/env"
)

// Board is a position of a Kalah game; copying is assignment, and Board
// values compare equal exactly when they are the same position of the
// same game.
type Board struct {
	spec  *env.Spec
	rules Rules
	pits  [2][MaxHouses]uint8
	store [2]uint8
	turn  env.Player
	ply   uint16 // plies played, counted only when MaxPly > 0
	over  bool
}

// The checks below assert the interfaces *Board promises.
var (
	_ env.State   = (*Board)(nil)
	_ env.Checker = (*Board)(nil)
	_ env.Scorer  = (*Board)(nil)
	_ env.Hasher  = (*Board)(nil)
	_ env.Perfter = (*Board)(nil)
	_ env.Drawer  = (*Board)(nil)
)

// New returns the start position of spec's game, of rules r: r.Seeds
// stones in every house, empty stores, White to move.
func New(spec *env.Spec, r Rules) *Board {
	b := &Board{spec: spec, rules: r}
	for p := range b.pits {
		for i := range r.Houses {
			b.pits[p][i] = uint8(r.Seeds)
		}
	}
	return b
}

// Spec returns the game's spec.
func (b *Board) Spec() *env.Spec { return b.spec }

// Rules returns the game's rules.
func (b *Board) Rules() Rules { return b.rules }

// ToMove returns the player to move.
func (b *Board) ToMove() env.Player { return b.turn }

// Store returns the stones in p's store.
func (b *Board) Store(p env.Player) int { return int(b.store[p]) }

// House returns the stones in p's house i (0-based).
func (b *Board) House(p env.Player, i int) int { return int(b.pits[p][i]) }

// Ply returns the plies played (0 when the game has no ply limit).
func (b *Board) Ply() int { return int(b.ply) }

// CopyFrom copies src, a *Board of the same game.
func (b *Board) CopyFrom(src env.State) { *b = *src.(*Board) }

// Legal appends the mover's non-empty houses.
func (b *Board) Legal(dst []env.Action) []env.Action {
	if b.over {
		return dst
	}
	for i, n := range b.pits[b.turn][:b.rules.Houses] {
		if n > 0 {
			dst = append(dst, env.Action(i))
		}
	}
	return dst
}

// Check says why a is illegal, or returns nil for a legal action.
func (b *Board) Check(a env.Action) error {
	switch {
	case b.over:
		return env.ErrGameOver
	case int(a) >= b.rules.Houses:
		return fmt.Errorf("house %d out of range 1..%d", a.Pit(), b.rules.Houses)
	case b.pits[b.turn][a] == 0:
		return env.ErrEmptyPit
	}
	return nil
}

// Apply plays a legal action; it panics on an illegal one.
//
// The mover takes every stone of house a and sows them one a place,
// counter-clockwise from the next place: the mover's houses, the mover's
// store, the opponent's houses, never the opponent's store. A last stone
// in the mover's store gives another turn; a last stone in an empty house
// of the mover's captures by the rules' Capture rule. When a side has no
// stones left (or the plies run out) each side's stones go to its own
// store and the game is over.
func (b *Board) Apply(a env.Action) {
	n, me := b.rules.Houses, b.turn
	if b.over || int(a) >= n || b.pits[me][a] == 0 {
		panic(fmt.Sprintf("%s: illegal move %d in %s", b.spec.Name, a.Pit(), b))
	}
	stones := int(b.pits[me][a])
	b.pits[me][a] = 0
	cycle := 2*n + 1 // places 0..n-1 own houses, n own store, n+1..2n opponent houses
	if laps := stones / cycle; laps > 0 {
		for i := range n {
			b.pits[me][i] += uint8(laps)
			b.pits[me.Other()][i] += uint8(laps)
		}
		b.store[me] += uint8(laps)
		stones -= laps * cycle
	}
	pos := int(a)
	for ; stones > 0; stones-- {
		pos++
		if pos == cycle {
			pos = 0
		}
		switch {
		case pos < n:
			b.pits[me][pos]++
		case pos == n:
			b.store[me]++
		default:
			b.pits[me.Other()][pos-n-1]++
		}
	}
	if pos < n && b.pits[me][pos] == 1 && b.rules.Capture != None {
		opp := &b.pits[me.Other()][n-1-pos]
		if *opp > 0 || b.rules.Capture == Empty {
			b.store[me] += 1 + *opp
			b.pits[me][pos], *opp = 0, 0
		}
	}
	if b.rules.MaxPly > 0 {
		b.ply++
	}
	if pos != n {
		b.turn = me.Other()
	}
	b.end()
}

// end finishes the game when a side is empty or the plies run out.
func (b *Board) end() {
	limit := b.rules.MaxPly > 0 && int(b.ply) >= b.rules.MaxPly
	if !limit && b.side(env.White) > 0 && b.side(env.Black) > 0 {
		return
	}
	for p := range b.pits {
		for i := range b.pits[p] {
			b.store[p] += b.pits[p][i]
			b.pits[p][i] = 0
		}
	}
	b.over = true
}

// side returns the stones in p's houses.
func (b *Board) side(p env.Player) int {
	n := 0
	for _, v := range b.pits[p] {
		n += int(v)
	}
	return n
}

// Result returns the result once the game is over: the larger store wins.
func (b *Board) Result() env.Result {
	switch {
	case !b.over:
		return env.Ongoing
	case b.store[env.White] > b.store[env.Black]:
		return env.WhiteWins
	case b.store[env.White] < b.store[env.Black]:
		return env.BlackWins
	}
	return env.Draw
}

// Hash implements env.Hasher: equal for equal positions of one game.
func (b *Board) Hash() uint64 {
	var h uint64
	for p := range b.pits {
		for _, v := range b.pits[p][:b.rules.Houses] {
			h = env.Mix64(h ^ uint64(v))
		}
		h = env.Mix64(h ^ uint64(b.store[p])<<8)
	}
	return env.Mix64(h ^ uint64(b.turn)<<16 ^ uint64(b.ply)<<24)
}

// Perft counts the leaves of the game tree depth plies below b (a ply is
// one sowing; an extra turn is a ply of the same player).
func (b *Board) Perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if b.over {
		return 0
	}
	var n uint64
	for i, s := range b.pits[b.turn][:b.rules.Houses] {
		if s == 0 {
			continue
		}
		if depth == 1 {
			n++
			continue
		}
		c := *b
		c.Apply(env.Action(i))
		n += c.Perft(depth - 1)
	}
	return n
}
