package mangala

import (
	"fmt"
	"strings"

	"kumalak/env"
)

// Draw returns the board as the players see it across the table, for
// people (kumalak show prints it):
//
//	mangala, white to move
//	          b6  b5  b4  b3  b2  b1
//	        +---+---+---+---+---+---+
//	        |  4|  4|  4|  4|  4|  4|
//	  b   0 +---+---+---+---+---+---+ 0   w
//	        |  4|  4|  4|  4|  4|  4|
//	        +---+---+---+---+---+---+
//	          w1  w2  w3  w4  w5  w6
//
// Black's row is on top, read from black's pit 6 on the left to pit 1 on
// the right; white's row below runs 1..6; black's store is on the left and
// white's on the right, after white's pit 6, so stones travel
// counter-clockwise. A castle shows as "Kw" (white's) or "Kb" (black's).
func (b *Board) Draw() string {
	const indent = "        "
	const rule = "+---+---+---+---+---+---+"
	var sb strings.Builder
	sb.WriteString(b.Spec().Name + ", " + b.status() + "\n")
	sb.WriteString(indent + env.RowLabels(env.Black, PitsPerSide) + "\n")
	sb.WriteString(indent + rule + "\n")
	sb.WriteString(indent + b.row(env.Black) + "\n")
	fmt.Fprintf(&sb, "  b %3d %s %-3d w\n", b.stores[env.Black], rule, b.stores[env.White])
	sb.WriteString(indent + b.row(env.White) + "\n")
	sb.WriteString(indent + rule + "\n")
	sb.WriteString(indent + env.RowLabels(env.White, PitsPerSide) + "\n")
	if b.kale && (b.castle[0] != noCastle || b.castle[1] != noCastle) {
		sb.WriteString("Kw = white's castle, Kb = black's castle\n")
	}
	return sb.String()
}

// status says whose turn it is, or how the game ended.
func (b *Board) status() string {
	r := b.Result()
	if r == env.Ongoing {
		return b.toMove.Name() + " to move"
	}
	w, bl := b.finalStores()
	return fmt.Sprintf("game over %s (white %d, black %d)", r, w, bl)
}

// row returns p's pits as drawn, castles marked.
func (b *Board) row(p env.Player) string {
	var sb strings.Builder
	sb.WriteString("|")
	for _, i := range env.RowOrder(p, PitsPerSide) {
		if int(b.castle[p.Other()]) == i {
			fmt.Fprintf(&sb, " K%c|", p.Other().String()[0])
			continue
		}
		fmt.Fprintf(&sb, "%3d|", b.pits[int(p)*PitsPerSide+i])
	}
	return sb.String()
}
