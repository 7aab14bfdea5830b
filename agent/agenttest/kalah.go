// Package agenttest holds a tiny game for testing searches and matches: a
// three-pit Kalah with extra turns, captures, stores (env.Scorer) and hashes
// (env.Hasher). Its positions carry the ply number, so a position is never
// met at two different depths of a search, and a game ends at MaxPly.
package agenttest

import (
	"fmt"
	"strconv"
	"strings"

	"kumalak/env"
)

// Sizes of the game.
const (
	Pits   = 3 // pits per side
	Seeds  = 3 // stones per pit at the start
	Stones = 2 * Pits * Seeds
	MaxPly = 40 // the game ends after this many plies
)

// Spec describes the game. It is not registered with env.
var Spec = &env.Spec{
	Name: "kalah3", Title: "Three-pit Kalah (test game)",
	Pits: Pits, NumActions: Pits, Stones: Stones,
	ObsLen: 2*Pits + 3, ObsVersion: "kalah3/1",
	New:   func() env.State { b := Start(); return &b },
	Parse: func(s string) (env.State, error) { return Parse(s) },
}

// Board is a position. The mover sows from a pit counter-clockwise, one
// stone per place starting with the next one, through their own store
// (never the opponent's). A last stone in the own store gives another turn;
// a last stone in an own empty pit whose opposite pit holds stones captures
// both. When a side is empty, or MaxPly plies are played, each side's pit
// stones go to its own store and the larger store wins.
type Board struct {
	pits  [2][Pits]int8
	store [2]int8
	turn  env.Player
	ply   uint8
	over  bool
}

// Start returns the start position.
func Start() Board {
	var b Board
	for p := range b.pits {
		for i := range b.pits[p] {
			b.pits[p][i] = Seeds
		}
	}
	return b
}

// Spec returns the game's spec.
func (b *Board) Spec() *env.Spec { return Spec }

// ToMove returns the player to move.
func (b *Board) ToMove() env.Player { return b.turn }

// Store returns the stones in p's store.
func (b *Board) Store(p env.Player) int { return int(b.store[p]) }

// Ply returns the number of plies played.
func (b *Board) Ply() int { return int(b.ply) }

// Legal appends the mover's non-empty pits.
func (b *Board) Legal(dst []env.Action) []env.Action {
	if b.over {
		return dst
	}
	for i, n := range b.pits[b.turn] {
		if n > 0 {
			dst = append(dst, env.Action(i))
		}
	}
	return dst
}

// Apply plays a legal action; it panics on an illegal one.
func (b *Board) Apply(a env.Action) {
	me := b.turn
	if b.over || int(a) >= Pits || b.pits[me][a] == 0 {
		panic(fmt.Sprintf("kalah3: illegal move %d in %s", a.Pit(), b))
	}
	n := b.pits[me][a]
	b.pits[me][a] = 0
	pos := int(a) // 0..2 own pits, 3 own store, 4..6 opponent pits
	for ; n > 0; n-- {
		pos = (pos + 1) % (2*Pits + 1)
		switch {
		case pos < Pits:
			b.pits[me][pos]++
		case pos == Pits:
			b.store[me]++
		default:
			b.pits[me.Other()][pos-Pits-1]++
		}
	}
	b.ply++
	extra := pos == Pits
	if pos < Pits && b.pits[me][pos] == 1 && b.pits[me.Other()][Pits-1-pos] > 0 {
		b.store[me] += 1 + b.pits[me.Other()][Pits-1-pos]
		b.pits[me][pos], b.pits[me.Other()][Pits-1-pos] = 0, 0
	}
	if !extra {
		b.turn = me.Other()
	}
	b.end()
}

// end finishes the game when a side is empty or the plies run out.
func (b *Board) end() {
	if b.ply < MaxPly && b.side(env.White) > 0 && b.side(env.Black) > 0 {
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

func (b *Board) side(p env.Player) int {
	n := 0
	for _, v := range b.pits[p] {
		n += int(v)
	}
	return n
}

// Result returns the result once the game is over.
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

// Observe writes the pits and stores from the mover's view, then the ply.
func (b *Board) Observe(dst []float32) {
	me := b.turn
	for i := 0; i < Pits; i++ {
		dst[i] = float32(b.pits[me][i]) / Stones
		dst[Pits+i] = float32(b.pits[me.Other()][i]) / Stones
	}
	dst[2*Pits] = float32(b.store[me]) / Stones
	dst[2*Pits+1] = float32(b.store[me.Other()]) / Stones
	dst[2*Pits+2] = float32(b.ply) / MaxPly
}

// CopyFrom copies src, a *Board.
func (b *Board) CopyFrom(src env.State) { *b = *src.(*Board) }

// Hash mixes every field.
func (b *Board) Hash() uint64 {
	h := uint64(14695981039346656037)
	add := func(v uint64) { h = (h ^ v) * 1099511628211 }
	for p := range b.pits {
		for _, v := range b.pits[p] {
			add(uint64(v))
		}
		add(uint64(b.store[p]))
	}
	add(uint64(b.turn))
	add(uint64(b.ply))
	return h ^ h>>29
}

// String returns "3,3,3/3,3,3 0 0 w 0": pits, stores, mover, ply.
func (b *Board) String() string {
	row := func(p env.Player) string {
		s := make([]string, Pits)
		for i, v := range b.pits[p] {
			s[i] = strconv.Itoa(int(v))
		}
		return strings.Join(s, ",")
	}
	return fmt.Sprintf("%s/%s %d %d %s %d", row(env.White), row(env.Black), b.store[0], b.store[1], b.turn, b.ply)
}

// Parse reads String's form; the stones must add up to Stones.
func Parse(s string) (*Board, error) {
	f := strings.Fields(s)
	if len(f) != 5 {
		return nil, fmt.Errorf("kalah3: %q: want 5 fields", s)
	}
	var b Board
	rows := strings.Split(f[0], "/")
	if len(rows) != 2 {
		return nil, fmt.Errorf("kalah3: %q: want two rows", s)
	}
	nums := append(strings.Split(rows[0], ","), strings.Split(rows[1], ",")...)
	if len(nums) != 2*Pits {
		return nil, fmt.Errorf("kalah3: %q: want %d pits", s, 2*Pits)
	}
	nums = append(nums, f[1], f[2], f[4])
	vals := make([]int, len(nums))
	for i, n := range nums {
		v, err := strconv.Atoi(n)
		if err != nil || v < 0 || v > 120 {
			return nil, fmt.Errorf("kalah3: %q: bad number %q", s, n)
		}
		vals[i] = v
	}
	total := 0
	for i := 0; i < 2*Pits; i++ {
		b.pits[i/Pits][i%Pits] = int8(vals[i])
		total += vals[i]
	}
	b.store = [2]int8{int8(vals[2*Pits]), int8(vals[2*Pits+1])}
	b.ply = uint8(vals[2*Pits+2])
	if total+vals[2*Pits]+vals[2*Pits+1] != Stones || b.ply > MaxPly {
		return nil, fmt.Errorf("kalah3: %q: stones must add up to %d and ply be at most %d", s, Stones, MaxPly)
	}
	switch f[3] {
	case "w":
	case "b":
		b.turn = env.Black
	default:
		return nil, fmt.Errorf("kalah3: %q: mover %q is not w or b", s, f[3])
	}
	b.end()
	return &b, nil
}
