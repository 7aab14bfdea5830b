package mangala

// A second, deliberately naive implementation of docs/RULES.md, sharing no code
// with the engine: a 14-slot ring (white pits, white store, black pits,
// black store), one stone at a time, its own parser and formatter. Perft and
// random games are cross-checked against it.

import (
	"fmt"
	"strconv"
	"strings"
)

type naive struct {
	ring   [14]int // 0..5 white pits 1..6, 6 white store, 7..12 black pits 1..6, 13 black store
	castle [14]int // 1 + the owner of a castle in that slot, 0 for none
	turn   int     // 0 white, 1 black
	kale   bool
}

func naiveStore(player int) int  { return player*7 + 6 }
func naivePit(player, i int) int { return player*7 + i - 1 } // i is 1..6
func naiveOwner(slot int) int    { return slot / 7 }
func naiveIsStore(slot int) bool { return slot%7 == 6 }
func naivePitNum(slot int) int   { return slot%7 + 1 }
func (n *naive) rowSum(p int) int {
	s := 0
	for i := 1; i <= 6; i++ {
		s += n.ring[naivePit(p, i)]
	}
	return s
}

// naiveParse reads a position string the engine accepted.
func naiveParse(s string, kale bool) naive {
	n := naive{kale: kale}
	f := strings.Split(s, " ")
	rows := strings.Split(f[0], "/")
	for p := 0; p < 2; p++ {
		for i, t := range strings.Split(rows[p], ",") {
			n.ring[naivePit(p, i+1)], _ = strconv.Atoi(t)
		}
		n.ring[naiveStore(p)], _ = strconv.Atoi(f[1+p])
		if f[3+p] != "-" {
			pit, _ := strconv.Atoi(f[3+p])
			n.castle[naivePit(1-p, pit)] = p + 1
		}
	}
	if f[5] == "b" {
		n.turn = 1
	}
	return n
}

func (n *naive) format() string {
	var parts [2][]string
	specials := [2]string{"-", "-"}
	for p := 0; p < 2; p++ {
		for i := 1; i <= 6; i++ {
			parts[p] = append(parts[p], strconv.Itoa(n.ring[naivePit(p, i)]))
			if c := n.castle[naivePit(p, i)]; c != 0 {
				specials[c-1] = strconv.Itoa(i)
			}
		}
	}
	return fmt.Sprintf("%s/%s %d %d %s %s %s", strings.Join(parts[0], ","), strings.Join(parts[1], ","),
		n.ring[6], n.ring[13], specials[0], specials[1], [2]string{"w", "b"}[n.turn])
}

func (n *naive) over() bool { return n.rowSum(0) == 0 || n.rowSum(1) == 0 }

// moves returns the pit numbers the mover may play.
func (n *naive) moves() []int {
	var m []int
	if n.over() {
		return m
	}
	for i := 1; i <= 6; i++ {
		if n.ring[naivePit(n.turn, i)] > 0 && n.castle[naivePit(n.turn, i)] == 0 {
			m = append(m, i)
		}
	}
	return m
}

func (n *naive) ownsCastle(p int) bool {
	for _, c := range n.castle {
		if c == p+1 {
			return true
		}
	}
	return false
}

// play plays pit (1..6) for the mover.
func (n *naive) play(pit int) {
	me := n.turn
	cur := naivePit(me, pit)
	hand := n.ring[cur]
	n.ring[cur] = 0
	if hand > 1 {
		n.ring[cur]++
		hand--
	}
	for hand > 0 {
		cur = (cur + 1) % 14
		if naiveIsStore(cur) && (n.kale || cur != naiveStore(me)) {
			continue
		}
		if c := n.castle[cur]; c != 0 {
			n.ring[naiveStore(c-1)]++
		} else {
			n.ring[cur]++
		}
		hand--
	}
	extra := false
	switch {
	case cur == naiveStore(me):
		extra = true
	case n.castle[cur] != 0:
	case naiveOwner(cur) != me && n.ring[cur]%2 == 0:
		n.ring[naiveStore(me)] += n.ring[cur]
		n.ring[cur] = 0
	case naiveOwner(cur) != me && n.kale && n.ring[cur] == 3 && !n.ownsCastle(me) && naivePitNum(cur) != 6:
		n.ring[naiveStore(me)] += 3
		n.ring[cur] = 0
		n.castle[cur] = me + 1
	case naiveOwner(cur) == me && !n.kale && n.ring[cur] == 1:
		opp := naivePit(1-me, 7-naivePitNum(cur))
		if n.ring[opp] > 0 {
			n.ring[naiveStore(me)] += n.ring[opp] + 1
			n.ring[opp], n.ring[cur] = 0, 0
		}
	}
	if n.over() {
		n.finish()
		extra = false
	}
	if !extra {
		n.turn = 1 - n.turn
	}
}

// finish applies the end rule of the variant.
func (n *naive) finish() {
	rows := [2]int{n.rowSum(0), n.rowSum(1)}
	for p := 0; p < 2; p++ {
		taker := p // kale: own stones to own store
		if !n.kale {
			if rows[1-p] != 0 {
				continue
			}
			taker = 1 - p // classic: the empty side takes p's stones
		}
		n.ring[naiveStore(taker)] += rows[p]
		for i := 1; i <= 6; i++ {
			n.ring[naivePit(p, i)] = 0
		}
	}
}

// result returns "1-0", "0-1", "1/2-1/2" or "*", collecting as the end rule would.
func (n *naive) result() string {
	if !n.over() {
		return "*"
	}
	c := *n
	c.finish()
	switch {
	case c.ring[6] > c.ring[13]:
		return "1-0"
	case c.ring[6] < c.ring[13]:
		return "0-1"
	}
	return "1/2-1/2"
}

func (n *naive) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var total uint64
	for _, m := range n.moves() {
		c := *n
		c.play(m)
		total += c.perft(depth - 1)
	}
	return total
}
