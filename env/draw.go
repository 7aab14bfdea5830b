package env

import (
	"fmt"
	"io"
	"strings"
)

// Drawer is implemented by games that draw their board for people, as the
// players see it across the table (every kumalak game does).
type Drawer interface {
	Draw() string
}

// Drawing returns st's board drawn for people, ending in a newline: its
// Draw, or its position string for a game without one. Commands, the
// terminal game and the web page all show boards through it.
func Drawing(st State) string {
	if d, ok := st.(Drawer); ok {
		return d.Draw()
	}
	return st.String() + "\n"
}

// WritePosition writes st for a person: the board drawn (Drawing), the
// position string, and the result of a finished game, else the side to
// move and its legal moves as pit numbers ("1 2 5 9").
func WritePosition(w io.Writer, st State) {
	fmt.Fprint(w, Drawing(st))
	fmt.Fprintf(w, "position %s\n", st)
	if r := st.Result(); r.String() != "*" {
		fmt.Fprintf(w, "game over: %s\n", r)
		return
	}
	fmt.Fprintf(w, "%s to move; legal moves: %s\n", st.ToMove().Name(), strings.Trim(fmt.Sprint(LegalPits(st)), "[]"))
}

// LegalPits returns the legal moves of st as pit numbers, in increasing
// order (none when the game is over).
func LegalPits(st State) []int {
	var buf [MaxActions]Action
	return Pits(st.Legal(buf[:0]))
}

// RowOrder returns the indices (0-based) of p's n pits from left to right
// as drawn across the table: White's in order, Black's reversed.
func RowOrder(p Player, n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
		if p == Black {
			o[i] = n - 1 - i
		}
	}
	return o
}

// RowLabels returns the pit numbers of p's row of n pits as drawn
// ("  W1  W2 …"), each under a row cell four characters wide.
func RowLabels(p Player, n int) string {
	var sb strings.Builder
	for _, i := range RowOrder(p, n) {
		fmt.Fprintf(&sb, "  %c%d", p.String()[0], i+1)
	}
	return strings.TrimRight(sb.String(), " ")
}
