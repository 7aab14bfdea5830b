package kalah

import (
	"fmt"
	"strings"

	"kumalak/env"
)

// Draw returns the board as the players see it across the table, for
// people (kumalak show prints it):
//
//	kalah, white to move
//	          b6  b5  b4  b3  b2  b1
//	        +---+---+---+---+---+---+
//	        |  4|  4|  4|  4|  4|  4|
//	  b   0 +---+---+---+---+---+---+ 0   w
//	        |  4|  4|  4|  4|  4|  4|
//	        +---+---+---+---+---+---+
//	          w1  w2  w3  w4  w5  w6
//
// Black's row is on top, read from black's house 6 on the left to house 1
// on the right; white's row below runs 1..6; black's store is on the left
// and white's on the right, after white's house 6, so stones travel
// counter-clockwise.
func (b *Board) Draw() string {
	const indent = "        "
	rule := "+" + strings.Repeat("---+", b.rules.Houses)
	var sb strings.Builder
	sb.WriteString(b.spec.Name + ", " + b.status() + "\n")
	sb.WriteString(indent + env.RowLabels(env.Black, b.rules.Houses) + "\n")
	sb.WriteString(indent + rule + "\n")
	sb.WriteString(indent + b.row(env.Black) + "\n")
	fmt.Fprintf(&sb, "  b %3d %s %-3d w\n", b.store[env.Black], rule, b.store[env.White])
	sb.WriteString(indent + b.row(env.White) + "\n")
	sb.WriteString(indent + rule + "\n")
	sb.WriteString(indent + env.RowLabels(env.White, b.rules.Houses) + "\n")
	return sb.String()
}

// status says whose turn it is, or how the game ended.
func (b *Board) status() string {
	r := b.Result()
	if r == env.Ongoing {
		return b.turn.Name() + " to move"
	}
	return fmt.Sprintf("game over %s (white %d, black %d)", r, b.store[0], b.store[1])
}

// row returns p's houses as drawn.
func (b *Board) row(p env.Player) string {
	var sb strings.Builder
	sb.WriteString("|")
	for _, i := range env.RowOrder(p, b.rules.Houses) {
		fmt.Fprintf(&sb, "%3d|", b.pits[p][i])
	}
	return sb.String()
}
