package play

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"kumalak/bot/words"
	"kumalak/env"
)

// boardFor draws st as the person sees it from their seat, in w's
// language, one layout for every game and seat: the opponent's row on top,
// read from the opponent's last pit at the left, its store after it (at
// the left end), the person's row at the bottom from pit 1, its store at
// the right end; a tuzdyk (togyz, X) or castle (kale, K) drawn in its pit.
// Stones travel counter-clockwise, as on the web page.
func boardFor(w *words.Printer, st env.State, human env.Player) string {
	spec := st.Spec()
	pos, err := env.ParsePosition(st.String(), spec.Pits, spec.Stones)
	if err != nil { // every game's String is a position string
		return env.Drawing(st)
	}
	b := board{w: w, gw: w.Words(st), pos: pos}
	b.label = max(utf8.RuneCountInString(w.T("side.w")), utf8.RuneCountInString(w.T("side.b"))) + 1
	var sb strings.Builder
	margin := strings.Repeat(" ", b.label+utf8.RuneCountInString(b.store(0)))
	rule := margin + "+" + strings.Repeat("----+", spec.Pits) + "\n"
	sb.WriteString(margin + pitLabels(spec.Pits, true) + "\n")
	sb.WriteString(rule)
	b.row(&sb, human.Other(), true)
	sb.WriteString(rule)
	b.row(&sb, human, false)
	sb.WriteString(rule)
	sb.WriteString(margin + pitLabels(spec.Pits, false) + "\n")
	sb.WriteString(caption(w, st) + " " + w.T("board.yourrow."+side(human)) + "\n")
	if note := b.specialNote(); note != "" {
		sb.WriteString(note + "\n")
	}
	return sb.String()
}

// board draws one position.
type board struct {
	w     *words.Printer
	gw    env.Words
	pos   env.Position
	label int // the width of a row's label, the longer side name and a space
}

// pitLabels numbers a row's pits as drawn: n..1 (reversed) or 1..n.
func pitLabels(n int, reversed bool) string {
	var sb strings.Builder
	for k := 0; k < n; k++ {
		i := k + 1
		if reversed {
			i = n - k
		}
		fmt.Fprintf(&sb, "%4d ", i)
	}
	return strings.TrimRight(sb.String(), " ")
}

// row writes p's row, reversed (the top row, its store at the left, after
// its last pit) or from pit 1 (the bottom row, its store at the right).
func (b *board) row(sb *strings.Builder, p env.Player, reversed bool) {
	name := b.w.T("side." + side(p))
	sb.WriteString(name + strings.Repeat(" ", b.label-utf8.RuneCountInString(name)))
	store := b.store(b.pos.Stores[p])
	if reversed {
		sb.WriteString(store)
	} else {
		sb.WriteString(strings.Repeat(" ", utf8.RuneCountInString(store)))
	}
	n := len(b.pos.Pits[p])
	for k := 0; k < n; k++ {
		i := k
		if reversed {
			i = n - 1 - k
		}
		if b.pos.Special[p.Other()] == i+1 {
			fmt.Fprintf(sb, "| %2s ", b.gw.Mark)
			continue
		}
		fmt.Fprintf(sb, "|%3d ", b.pos.Pits[p][i])
	}
	if reversed {
		sb.WriteString("|\n")
		return
	}
	fmt.Fprintf(sb, "|  %s\n", strings.TrimSpace(store))
}

// store writes a store as drawn beside its row: "store   0 ".
func (b *board) store(n int) string { return fmt.Sprintf("%s %3d ", b.gw.Store, n) }

// caption says whose turn it is, or the result.
func caption(w *words.Printer, st env.State) string {
	if r := st.Result(); r != env.Ongoing {
		return w.T("board.over", r.String())
	}
	return w.T("board.tomove." + side(st.ToMove()))
}

// specialNote names the owners of the specials on the board, or "".
func (b *board) specialNote() string {
	var parts []string
	for _, p := range [2]env.Player{env.White, env.Black} {
		if s := b.pos.Special[p]; s != 0 {
			parts = append(parts, b.w.T("board.specialof."+side(p), b.gw.Special, s))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return b.gw.Mark + ": " + strings.Join(parts, ", ")
}

// describeMove says what a move did, from the positions before and after
// it: "white 3 (34): sowed 7, captured black's pit 4, kazan +6 (now 18)",
// with a tuzdyk or castle made and, when the mover keeps the turn, "moves
// again".
func describeMove(w *words.Printer, before, after env.State, a env.Action, text string) string {
	spec := before.Spec()
	b, err1 := env.ParsePosition(before.String(), spec.Pits, spec.Stones)
	f, err2 := env.ParsePosition(after.String(), spec.Pits, spec.Stones)
	me := before.ToMove()
	desc := w.T("side."+side(me)) + " " + text
	if err1 != nil || err2 != nil {
		return desc
	}
	gw := w.Words(before)
	parts := []string{w.T("board.sowed", b.Pits[me][a])}
	if after.Result() == env.Ongoing {
		if taken := capturedPits(w, b, f, me, a); len(taken) > 0 {
			parts = append(parts, w.T("board.took", strings.Join(taken, w.T("board.and"))))
		}
	}
	if gain := f.Stores[me] - b.Stores[me]; gain > 0 {
		parts = append(parts, w.T("board.gain", gw.Store, gain, f.Stores[me]))
	}
	if s := f.Special[me]; s != 0 && b.Special[me] == 0 {
		parts = append(parts, w.T("board.made."+side(me), gw.Special, s))
	}
	if after.Result() == env.Ongoing && after.ToMove() == me {
		parts = append(parts, w.T("board.extra."+side(me)))
	}
	return desc + ": " + strings.Join(parts, ", ")
}

// capturedPits names the pits a move emptied, other than the one played
// and the specials: "black's pit 4". Sowing only adds stones, so a pit left
// empty that held stones, or one of the opponent's, was captured.
func capturedPits(w *words.Printer, b, f env.Position, me env.Player, a env.Action) []string {
	var out []string
	for _, p := range [2]env.Player{me.Other(), me} {
		for i, n := range b.Pits[p] {
			if p == me && i == int(a) || b.Special[p.Other()] == i+1 || f.Special[p.Other()] == i+1 {
				continue
			}
			if n > 0 && f.Pits[p][i] == 0 {
				out = append(out, w.T("board.pitof."+side(p), i+1))
			}
		}
	}
	return out
}
