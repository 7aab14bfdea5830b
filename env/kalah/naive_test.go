package kalah

import (
	"strconv"
	"strings"
)

// naive is an independent, slow Kalah: one array of the 2n+2 places
// counter-clockwise from white's house 1 (white's houses, white's store,
// black's houses, black's store), as the rules read, to cross-check Board.
type naive struct {
	n, seeds int
	capture  Capture
	place    []int
	black    bool
}

func newNaive(r Rules) *naive {
	g := &naive{n: r.Houses, seeds: r.Seeds, capture: r.Capture, place: make([]int, 2*r.Houses+2)}
	for i := range g.place {
		if i != r.Houses && i != 2*r.Houses+1 {
			g.place[i] = r.Seeds
		}
	}
	return g
}

func (g *naive) store(black bool) int {
	if black {
		return 2*g.n + 1
	}
	return g.n
}

func (g *naive) house(black bool, i int) int {
	if black {
		return g.n + 1 + i
	}
	return i
}

func (g *naive) over() bool {
	var w, b int
	for i := range g.n {
		w += g.place[g.house(false, i)]
		b += g.place[g.house(true, i)]
	}
	return w == 0 || b == 0
}

func (g *naive) moves() []int {
	var m []int
	if g.over() {
		return nil
	}
	for i := range g.n {
		if g.place[g.house(g.black, i)] > 0 {
			m = append(m, i)
		}
	}
	return m
}

func (g *naive) clone() *naive {
	c := *g
	c.place = append([]int(nil), g.place...)
	return &c
}

func (g *naive) play(i int) {
	at := g.house(g.black, i)
	s := g.place[at]
	g.place[at] = 0
	for s > 0 {
		at = (at + 1) % len(g.place)
		if at == g.store(!g.black) {
			continue
		}
		g.place[at]++
		s--
	}
	mine := at >= g.house(g.black, 0) && at <= g.house(g.black, g.n-1)
	if mine && g.place[at] == 1 && g.capture != None {
		opp := 2*g.n - at // the house across: i and 2n-i
		if g.place[opp] > 0 || g.capture == Empty {
			g.place[g.store(g.black)] += 1 + g.place[opp]
			g.place[at], g.place[opp] = 0, 0
		}
	}
	if at != g.store(g.black) {
		g.black = !g.black
	}
	if g.over() {
		for _, black := range []bool{false, true} {
			for i := range g.n {
				g.place[g.store(black)] += g.place[g.house(black, i)]
				g.place[g.house(black, i)] = 0
			}
		}
	}
}

func (g *naive) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range g.moves() {
		c := g.clone()
		c.play(m)
		n += c.perft(depth - 1)
	}
	return n
}

// String writes the position string, as Board does without a ply limit.
func (g *naive) String() string {
	var rows [2][]string
	for p, black := range []bool{false, true} {
		for i := range g.n {
			rows[p] = append(rows[p], strconv.Itoa(g.place[g.house(black, i)]))
		}
	}
	turn := "w"
	if g.black {
		turn = "b"
	}
	return strings.Join(rows[0], ",") + "/" + strings.Join(rows[1], ",") + " " +
		strconv.Itoa(g.place[g.store(false)]) + " " + strconv.Itoa(g.place[g.store(true)]) + " - - " + turn
}
