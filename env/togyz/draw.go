package togyz

import (
	"fmt"
	"strings"

	"kumalak/env"
)

// Draw returns the board as the players see it, white sitting at the
// bottom: black's row on top from black's pit 9 at the left to pit 1 at the
// right, white's row below from pit 1 to 9, pit numbers above and below,
// each kazan beside its row, a tuzdyk shown as X, and whose turn it is (or
// the result). For example:
//
//	         9    8    7    6    5    4    3    2    1
//	      +----+----+----+----+----+----+----+----+----+
//	black |  1 |  3 |  0 |  7 |  4 |  X |  0 |  2 | 20 |  kazan  55
//	      +----+----+----+----+----+----+----+----+----+
//	white |  0 | 12 |  X |  0 |  5 |  9 | 10 |  0 |  1 |  kazan  33
//	      +----+----+----+----+----+----+----+----+----+
//	         1    2    3    4    5    6    7    8    9
//	black to move
//	X: white's tuzdyk on black's 4, black's tuzdyk on white's 3
func (b *Board) Draw() string {
	const rule = "      +----+----+----+----+----+----+----+----+----+\n"
	var sb strings.Builder
	sb.WriteString("         9    8    7    6    5    4    3    2    1\n")
	sb.WriteString(rule)
	b.drawRow(&sb, env.Black)
	sb.WriteString(rule)
	b.drawRow(&sb, env.White)
	sb.WriteString(rule)
	sb.WriteString("         1    2    3    4    5    6    7    8    9\n")
	b.caption(&sb)
	return sb.String()
}

// drawRow writes p's row as seen from white's seat.
func (b *Board) drawRow(sb *strings.Builder, p env.Player) {
	sb.WriteString(p.Name() + " ")
	for k := 0; k < PitsPerSide; k++ {
		i := k
		if p == env.Black {
			i = PitsPerSide - 1 - k
		}
		c := int(p)*PitsPerSide + i
		if int(b.tuz[p.Other()]) == c {
			sb.WriteString("|  X ")
			continue
		}
		fmt.Fprintf(sb, "|%3d ", b.pits[c])
	}
	fmt.Fprintf(sb, "|  kazan %3d\n", b.kazan[p])
}

// caption says whose turn it is or how the game ended, and who owns the
// tuzdyks.
func (b *Board) caption(sb *strings.Builder) {
	switch r := b.Result(); r {
	case env.Ongoing:
		sb.WriteString(b.turn.Name() + " to move\n")
	case env.Draw:
		sb.WriteString("game over: draw 1/2-1/2\n")
	default:
		w, _ := r.Winner()
		fmt.Fprintf(sb, "game over: %s wins %s\n", w.Name(), r)
	}
	var tuz []string
	for _, p := range [2]env.Player{env.White, env.Black} {
		if t := b.Tuzdyk(p); t != 0 {
			tuz = append(tuz, fmt.Sprintf("%s's tuzdyk on %s's %d", p.Name(), p.Other().Name(), t))
		}
	}
	if len(tuz) > 0 {
		sb.WriteString("X: " + strings.Join(tuz, ", ") + "\n")
	}
}
