package play

import (
	"fmt"
	"strconv"
	"strings"

	"kumalak/env"
)

// boardFor draws st as the person sees it from their seat, one layout for
// every game and either seat: their row at the bottom running from pit 1
// at the left, the opponent's on top from the opponent's last pit, so
// that sowing runs counter-clockwise. Stores sit at the end of their
// rows, the tuzdyk (togyz, X) or castle (kale, K) in its pit.
func boardFor(st env.State, human env.Player) string {
	spec := st.Spec()
	pos, err := env.ParsePosition(st.String(), spec.Pits, spec.Stones)
	if err != nil { // every game's String is a position string
		return env.Drawing(st)
	}
	words := env.WordsOf(st)
	var sb strings.Builder
	// The opponent's store follows their last pit, which is at the top
	// left: it is drawn at the left of their row, the person's at the right
	// of theirs.
	margin := "      " + strings.Repeat(" ", len(storeText(words, 0)))
	rule := margin + "+" + strings.Repeat("----+", spec.Pits) + "\n"
	sb.WriteString(margin + pitLabels(spec.Pits, true) + "\n")
	sb.WriteString(rule)
	drawRow(&sb, pos, human.Other(), true, words)
	sb.WriteString(rule)
	drawRow(&sb, pos, human, false, words)
	sb.WriteString(rule)
	sb.WriteString(margin + pitLabels(spec.Pits, false) + "\n")
	sb.WriteString(caption(st) + " (your row, " + human.Name() + "'s, is at the bottom)\n")
	if note := specialNote(pos, words); note != "" {
		sb.WriteString(note + "\n")
	}
	return sb.String()
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

// drawRow writes p's row, reversed (the opponent's, on top, its store at
// the left, after its last pit) or from pit 1 (the person's, its store at
// the right).
func drawRow(sb *strings.Builder, pos env.Position, p env.Player, reversed bool, w env.Words) {
	sb.WriteString(p.Name() + " ")
	store := storeText(w, pos.Stores[p])
	if reversed {
		sb.WriteString(store)
	} else {
		sb.WriteString(strings.Repeat(" ", len(store)))
	}
	n := len(pos.Pits[p])
	for k := 0; k < n; k++ {
		i := k
		if reversed {
			i = n - 1 - k
		}
		if pos.Special[p.Other()] == i+1 {
			fmt.Fprintf(sb, "| %2s ", w.Mark)
			continue
		}
		fmt.Fprintf(sb, "|%3d ", pos.Pits[p][i])
	}
	if reversed {
		sb.WriteString("|\n")
		return
	}
	fmt.Fprintf(sb, "|  %s\n", strings.TrimSpace(store))
}

// storeText writes a store as drawn beside its row: "store   0 ".
func storeText(w env.Words, n int) string { return fmt.Sprintf("%s %3d ", w.Store, n) }

// caption says whose turn it is, or the result.
func caption(st env.State) string {
	if r := st.Result(); r != env.Ongoing {
		return "game over " + r.String()
	}
	return st.ToMove().Name() + " to move"
}

// specialNote names the owners of the specials on the board, or "".
func specialNote(pos env.Position, w env.Words) string {
	var parts []string
	for _, p := range [2]env.Player{env.White, env.Black} {
		if s := pos.Special[p]; s != 0 {
			parts = append(parts, fmt.Sprintf("%s's %s on %s's %d", p.Name(), w.Special, p.Other().Name(), s))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return w.Mark + ": " + strings.Join(parts, ", ")
}

// describeMove says what a move did, from the positions before and after
// it: "white 3 (34): sowed 7, captured black's pit 4, kazan +6 (now 18)",
// with a tuzdyk or castle made and, when the mover keeps the turn, "moves
// again".
func describeMove(before, after env.State, a env.Action, text string) string {
	spec := before.Spec()
	b, err1 := env.ParsePosition(before.String(), spec.Pits, spec.Stones)
	f, err2 := env.ParsePosition(after.String(), spec.Pits, spec.Stones)
	me := before.ToMove()
	desc := me.Name() + " " + text
	if err1 != nil || err2 != nil {
		return desc
	}
	w := env.WordsOf(before)
	parts := []string{"sowed " + strconv.Itoa(b.Pits[me][a])}
	if after.Result() == env.Ongoing {
		if taken := capturedPits(b, f, me, a); len(taken) > 0 {
			parts = append(parts, "captured "+strings.Join(taken, " and "))
		}
	}
	if gain := f.Stores[me] - b.Stores[me]; gain > 0 {
		parts = append(parts, fmt.Sprintf("%s +%d (now %d)", w.Store, gain, f.Stores[me]))
	}
	if s := f.Special[me]; s != 0 && b.Special[me] == 0 {
		parts = append(parts, fmt.Sprintf("%s made on %s's %d", w.Special, me.Other().Name(), s))
	}
	if after.Result() == env.Ongoing && after.ToMove() == me {
		parts = append(parts, "last stone in the store: "+me.Name()+" moves again")
	}
	return desc + ": " + strings.Join(parts, ", ")
}

// capturedPits names the pits a move emptied, other than the one played
// and the specials: "black's pit 4". Sowing only adds stones, so a pit left
// empty that held stones, or one of the opponent's, was captured.
func capturedPits(b, f env.Position, me env.Player, a env.Action) []string {
	var out []string
	for _, p := range [2]env.Player{me.Other(), me} {
		for i, n := range b.Pits[p] {
			if p == me && i == int(a) || b.Special[p.Other()] == i+1 || f.Special[p.Other()] == i+1 {
				continue
			}
			if n > 0 && f.Pits[p][i] == 0 {
				out = append(out, fmt.Sprintf("%s's pit %d", p.Name(), i+1))
			}
		}
	}
	return out
}
