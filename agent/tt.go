package agent

// The bound kinds of a table entry.
const (
	boundNone  = 0
	boundUpper = 1 // the score is at most the stored one (all moves failed low)
	boundLower = 2 // the score is at least the stored one (a cutoff)
	boundExact = 3
)

// entry is one transposition-table slot: 16 bytes.
type entry struct {
	key   uint64
	score int32 // win scores relative to the entry's node (toTable)
	move  uint8 // best move, or noMove
	depth int8
	bound uint8
	gen   uint8 // search that wrote it
}

// table is a fixed-size transposition table indexed by the low bits of the
// position hash; each slot keeps the whole hash to tell positions apart.
type table struct {
	entries []entry
	mask    uint64
	gen     uint8
}

// newTable returns a table of the largest power-of-two number of entries
// that fits in mib MiB.
func newTable(mib int) *table {
	n := uint64(1)
	for n*2*16 <= uint64(mib)<<20 {
		n *= 2
	}
	return &table{entries: make([]entry, n), mask: n - 1}
}

func (t *table) clear() { clear(t.entries) }

// probe looks key up. It returns the stored score and true when the entry is
// deep enough and its bound decides the window (alpha, beta); the stored move
// (or noMove) comes back either way for move ordering.
func (t *table) probe(key uint64, depth, ply int, alpha, beta int32) (int32, int, bool) {
	e := &t.entries[key&t.mask]
	if e.key != key || e.bound == boundNone {
		return 0, noMove, false
	}
	e.gen = t.gen // in use by this search: kept against shallower entries, so the line can be read back
	if int(e.depth) >= depth {
		v := fromTable(e.score, ply)
		if e.bound == boundExact || (e.bound == boundLower && v >= beta) || (e.bound == boundUpper && v <= alpha) {
			return v, int(e.move), true
		}
	}
	return 0, int(e.move), false
}

// store records the result of searching key's node: score v found with the
// window (alpha0, beta). A deeper entry of the current search is kept.
func (t *table) store(key uint64, depth, ply int, v, alpha0, beta int32, move int) {
	e := &t.entries[key&t.mask]
	if e.key != key && e.gen == t.gen && int(e.depth) > depth {
		return
	}
	bound := uint8(boundExact)
	switch {
	case v <= alpha0:
		bound = boundUpper
	case v >= beta:
		bound = boundLower
	}
	*e = entry{key: key, score: toTable(v, ply), move: uint8(move), depth: int8(depth), bound: bound, gen: t.gen}
}

// toTable makes a win score relative to the node at ply, so that it stays
// right when the position is met at another ply.
func toTable(v int32, ply int) int32 {
	switch {
	case v >= winBound:
		return v + int32(ply)
	case v <= -winBound:
		return v - int32(ply)
	}
	return v
}

// fromTable undoes toTable for a node at ply.
func fromTable(v int32, ply int) int32 {
	switch {
	case v >= winBound:
		return v - int32(ply)
	case v <= -winBound:
		return v + int32(ply)
	}
	return v
}

// move returns the best move stored for key, when there is one.
func (t *table) move(key uint64) (int, bool) {
	e := &t.entries[key&t.mask]
	if e.key != key || e.bound == boundNone || e.move == noMove {
		return 0, false
	}
	return int(e.move), true
}

// full returns the use of the table per mille: the share of the first
// 1000 slots (all, in a smaller table) written by the current search.
func (t *table) full() int {
	n := min(len(t.entries), 1000)
	used := 0
	for _, e := range t.entries[:n] {
		if e.bound != boundNone && e.gen == t.gen {
			used++
		}
	}
	return used * 1000 / n
}
