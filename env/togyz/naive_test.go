package togyz

import (
	"fmt"
	"strconv"
	"strings"
)

// naive is a second, deliberately plain implementation of docs/RULES.md used to
// cross-check the engine: ints, one stone at a time, nothing shared with
// the engine's code.
type naive struct {
	pits  [2][9]int // [side][pit-1]
	kazan [2]int
	tuz   [2]int // number of the other side's pit that is the tuzdyk, 0 = none
	turn  int    // 0 white, 1 black
}

// naiveParse reads a position string, trusting it to be well formed.
func naiveParse(s string) naive {
	var n naive
	f := strings.Fields(s)
	rows := strings.Split(f[0], "/")
	for side := 0; side < 2; side++ {
		for i, t := range strings.Split(rows[side], ",") {
			n.pits[side][i] = atoi(t)
		}
	}
	n.kazan[0], n.kazan[1] = atoi(f[1]), atoi(f[2])
	for side := 0; side < 2; side++ {
		if f[3+side] != "-" {
			n.tuz[side] = atoi(f[3+side])
		}
	}
	if f[5] == "b" {
		n.turn = 1
	}
	return n
}

func atoi(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return v
}

func (n *naive) String() string {
	var rows []string
	for side := 0; side < 2; side++ {
		var nums []string
		for _, v := range n.pits[side] {
			nums = append(nums, strconv.Itoa(v))
		}
		rows = append(rows, strings.Join(nums, ","))
	}
	sp := func(t int) string {
		if t == 0 {
			return "-"
		}
		return strconv.Itoa(t)
	}
	return fmt.Sprintf("%s %d %d %s %s %s", strings.Join(rows, "/"), n.kazan[0], n.kazan[1],
		sp(n.tuz[0]), sp(n.tuz[1]), []string{"w", "b"}[n.turn])
}

// owner returns the player whose tuzdyk is pit (side, i), or -1.
func (n *naive) owner(side, i int) int {
	other := 1 - side
	if n.tuz[other] == i+1 {
		return other
	}
	return -1
}

func (n *naive) rowEmpty(side int) bool {
	for _, v := range n.pits[side] {
		if v > 0 {
			return false
		}
	}
	return true
}

func (n *naive) over() bool {
	return n.kazan[0] >= 82 || n.kazan[1] >= 82 || n.rowEmpty(n.turn)
}

func (n *naive) moves() []int {
	if n.over() {
		return nil
	}
	var m []int
	for i := 0; i < 9; i++ {
		if n.pits[n.turn][i] > 0 {
			m = append(m, i+1)
		}
	}
	return m
}

// play plays pit (1..9) of the mover, stone by stone.
func (n *naive) play(pit int) {
	me := n.turn
	side, i := me, pit-1
	hand := n.pits[side][i]
	n.pits[side][i] = 0
	drop := func() {
		if o := n.owner(side, i); o >= 0 {
			n.kazan[o]++
		} else {
			n.pits[side][i]++
		}
	}
	step := func() {
		i++
		if i == 9 {
			i = 0
			side = 1 - side
		}
	}
	if hand == 1 {
		step()
		drop()
	} else {
		drop()
		for k := 1; k < hand; k++ {
			step()
			drop()
		}
	}
	if side != me && n.owner(side, i) < 0 {
		switch v := n.pits[side][i]; {
		case v%2 == 0:
			n.kazan[me] += v
			n.pits[side][i] = 0
		case v == 3 && n.tuz[me] == 0 && i != 8 && n.tuz[1-me] != i+1:
			n.kazan[me] += 3
			n.pits[side][i] = 0
			n.tuz[me] = i + 1
		}
	}
	n.turn = 1 - me
	if n.kazan[0] >= 82 || n.kazan[1] >= 82 || !n.rowEmpty(n.turn) {
		return
	}
	for k := 0; k < 9; k++ {
		n.kazan[me] += n.pits[me][k]
		n.pits[me][k] = 0
	}
}

// result returns "1-0", "0-1", "1/2-1/2" or "*".
func (n *naive) result() string {
	k := n.kazan
	if !n.over() {
		return "*"
	}
	if k[0] < 82 && k[1] < 82 {
		for _, v := range n.pits[1-n.turn] {
			k[1-n.turn] += v
		}
	}
	switch {
	case k[0] > 81:
		return "1-0"
	case k[1] > 81:
		return "0-1"
	}
	return "1/2-1/2"
}

func naivePerft(n naive, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var total uint64
	for _, m := range n.moves() {
		c := n
		c.play(m)
		total += naivePerft(c, depth-1)
	}
	return total
}
