package env

import (
	"fmt"
	"io"
	"time"
)

// Perfter is implemented by games with a fast specialised perft.
type Perfter interface {
	Perft(depth int) uint64
}

// Perft counts the leaf nodes of the game tree to depth plies below st, as
// docs/RULES.md defines it. It uses the game's own fast version when there is one.
func Perft(st State, depth int) uint64 {
	if p, ok := st.(Perfter); ok {
		return p.Perft(depth)
	}
	return SlowPerft(st, depth)
}

// SlowPerft is the interface-only perft, used to cross-check fast versions.
func SlowPerft(st State, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var buf [MaxActions]Action
	moves := st.Legal(buf[:0])
	if depth == 1 {
		return uint64(len(moves))
	}
	child := Clone(st)
	var n uint64
	for _, a := range moves {
		child.CopyFrom(st)
		child.Apply(a)
		n += SlowPerft(child, depth-1)
	}
	return n
}

// WritePerft writes a line per depth from 1 to depth below st: the
// depth, the leaf count (Perft), the seconds taken and the nodes per
// second.
func WritePerft(w io.Writer, st State, depth int) {
	for d := 1; d <= depth; d++ {
		t0 := time.Now()
		n := Perft(st, d)
		dt := time.Since(t0)
		fmt.Fprintf(w, "%d %d %.3fs %.0f nodes/s\n", d, n, dt.Seconds(), float64(n)/max(dt.Seconds(), 1e-9))
	}
}
