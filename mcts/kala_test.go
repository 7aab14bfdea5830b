package mcts

import (
	"fmt"
	"strconv"
	"strings"

	"kumalak/env"
)

// kala is a small mancala for the tests: n pits a side, sowing one stone
// per place counter-clockwise from the next place (own pits, own store,
// the opponent's pits; the opponent's store is skipped), no captures. A
// last stone in the mover's own store gives the mover another turn. The
// game ends when either side's pits are empty; each player then keeps the
// stones on their own side, and the larger total wins.
type kala struct {
	spec  *env.Spec
	pits  [2][6]int8
	store [2]int8
	turn  env.Player
}

// newKalaSpec returns the spec of kala with n pits of s stones.
func newKalaSpec(name string, n, s int) *env.Spec {
	spec := &env.Spec{
		Name: name, Title: name, Pits: n, NumActions: n, Stones: 2 * n * s,
		ObsLen: 2*n + 3, ObsVersion: name + "/1",
	}
	spec.New = func() env.State {
		k := &kala{spec: spec}
		for i := range n {
			k.pits[0][i], k.pits[1][i] = int8(s), int8(s)
		}
		return k
	}
	spec.Parse = func(str string) (env.State, error) { return parseKala(spec, str) }
	return spec
}

var (
	kala3 = newKalaSpec("kala3", 3, 3) // small enough to solve exactly
	kala6 = newKalaSpec("kala6", 6, 4) // mangala-sized
)

func (k *kala) Spec() *env.Spec        { return k.spec }
func (k *kala) ToMove() env.Player     { return k.turn }
func (k *kala) CopyFrom(src env.State) { *k = *src.(*kala) }

func (k *kala) Legal(dst []env.Action) []env.Action {
	if k.over() {
		return dst
	}
	for i := range k.spec.Pits {
		if k.pits[k.turn][i] > 0 {
			dst = append(dst, env.Action(i))
		}
	}
	return dst
}

func (k *kala) Apply(a env.Action) {
	n, p, m := k.spec.Pits, int(a), k.turn
	stones := k.pits[m][p]
	if stones == 0 || k.over() {
		panic(fmt.Sprintf("kala: illegal move %d in %s", a, k))
	}
	k.pits[m][p] = 0
	pos := p // places 0..n-1 own pits, n own store, n+1..2n opponent pits
	for ; stones > 0; stones-- {
		pos = (pos + 1) % (2*n + 1)
		switch {
		case pos < n:
			k.pits[m][pos]++
		case pos == n:
			k.store[m]++
		default:
			k.pits[m.Other()][pos-n-1]++
		}
	}
	if pos != n || k.over() {
		k.turn = m.Other()
	}
}

func (k *kala) side(p env.Player) (sum int) {
	for _, v := range k.pits[p][:k.spec.Pits] {
		sum += int(v)
	}
	return sum
}

func (k *kala) over() bool { return k.side(env.White) == 0 || k.side(env.Black) == 0 }

func (k *kala) Result() env.Result {
	if !k.over() {
		return env.Ongoing
	}
	w := int(k.store[env.White]) + k.side(env.White)
	b := int(k.store[env.Black]) + k.side(env.Black)
	switch {
	case w > b:
		return env.WhiteWins
	case b > w:
		return env.BlackWins
	}
	return env.Draw
}

// Observe writes the mover's pits, the opponent's pits, both stores and a
// last feature that is 1 when White is to move (the tests' evaluators read
// it).
func (k *kala) Observe(dst []float32) {
	n, m := k.spec.Pits, k.turn
	scale := 1 / float32(k.spec.Stones)
	for i := range n {
		dst[i] = float32(k.pits[m][i]) * scale
		dst[n+i] = float32(k.pits[m.Other()][i]) * scale
	}
	dst[2*n] = float32(k.store[m]) * scale
	dst[2*n+1] = float32(k.store[m.Other()]) * scale
	dst[2*n+2] = float32(1 - m)
}

// Hash implements env.Hasher (FNV-1a over the position).
func (k *kala) Hash() uint64 {
	h := uint64(14695981039346656037)
	mix := func(b int8) { h = (h ^ uint64(uint8(b))) * 1099511628211 }
	for p := range 2 {
		for _, v := range k.pits[p] {
			mix(v)
		}
		mix(k.store[p])
	}
	mix(int8(k.turn))
	return h
}

func (k *kala) String() string {
	var b strings.Builder
	for p := range 2 {
		if p == 1 {
			b.WriteByte('/')
		}
		for i := range k.spec.Pits {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(k.pits[p][i])))
		}
	}
	fmt.Fprintf(&b, " %d %d - - %s", k.store[0], k.store[1], k.turn)
	return b.String()
}

// parseKala reads the String form; the stone total is not checked, so
// tests can write small endgames.
func parseKala(spec *env.Spec, s string) (*kala, error) {
	f := strings.Fields(s)
	if len(f) != 6 {
		return nil, fmt.Errorf("kala: %q: want 6 fields", s)
	}
	k := &kala{spec: spec}
	sides := strings.Split(f[0], "/")
	if len(sides) != 2 {
		return nil, fmt.Errorf("kala: %q: want two sides", s)
	}
	for p, side := range sides {
		pits := strings.Split(side, ",")
		if len(pits) != spec.Pits {
			return nil, fmt.Errorf("kala: %q: want %d pits a side", s, spec.Pits)
		}
		for i, v := range pits {
			x, err := strconv.Atoi(v)
			if err != nil || x < 0 || x > 100 {
				return nil, fmt.Errorf("kala: %q: bad pit %q", s, v)
			}
			k.pits[p][i] = int8(x)
		}
	}
	for p := range 2 {
		x, err := strconv.Atoi(f[1+p])
		if err != nil || x < 0 || x > 100 {
			return nil, fmt.Errorf("kala: %q: bad store %q", s, f[1+p])
		}
		k.store[p] = int8(x)
	}
	switch f[5] {
	case "w":
		k.turn = env.White
	case "b":
		k.turn = env.Black
	default:
		return nil, fmt.Errorf("kala: %q: bad mover %q", s, f[5])
	}
	return k, nil
}

// mustKala parses a kala3 or kala6 position or panics.
func mustKala(spec *env.Spec, s string) *kala {
	k, err := parseKala(spec, s)
	if err != nil {
		panic(err)
	}
	return k
}

// solved is the exact value of a position: its result under perfect play
// and the plies to the end (shortest win, longest loss, shortest draw), as
// the solver counts them.
type solved struct {
	r     env.Result
	depth int
}

// minimax solves a kala position exactly, comparing players at each ply
// (never negating per ply), with a memo keyed by position.
func minimax(k *kala, memo map[kala]solved) solved {
	if r := k.Result(); r != env.Ongoing {
		return solved{r, 0}
	}
	if v, ok := memo[*k]; ok {
		return v
	}
	m := k.turn
	win, loss := winFor(m), winFor(m.Other())
	best := solved{loss, -1}
	var buf [6]env.Action
	for _, a := range k.Legal(buf[:0]) {
		c := *k
		c.Apply(a)
		v := minimax(&c, memo)
		v.depth++
		if better := rankSolved(v, win, loss) > rankSolved(best, win, loss); better {
			best = v
		}
	}
	memo[*k] = best
	return best
}

// rankSolved orders outcomes for the mover whose win and loss are given:
// wins (shorter first), then draws (shorter first), then losses (longer
// first).
func rankSolved(v solved, win, loss env.Result) int {
	switch v.r {
	case win:
		return 2000000 - v.depth
	case loss:
		return v.depth
	}
	return 1000000 - v.depth
}
