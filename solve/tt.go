package solve

// entry is one slot of the transposition table: proven bounds of the
// future gain of the position's mover, and the best move found there.
type entry struct {
	key    uint64 // position key; 0 for an empty slot
	lo, hi int8   // lo <= future gain <= hi, proven
	move   int8   // best move (0..5), or -1
}

// table is a fixed-size transposition table indexed by the low bits of the
// key, replacing on collision.
type table struct {
	slots []entry
	mask  uint64
}

// newTable returns a table of 2^bits slots.
func newTable(bits int) table {
	return table{slots: make([]entry, 1<<bits), mask: 1<<bits - 1}
}

// probe returns the slot of key, or nil when it holds another position.
func (t *table) probe(key uint64) *entry {
	e := &t.slots[key&t.mask]
	if e.key != key {
		return nil
	}
	return e
}

// store records proven bounds lo..hi and a best move for key, narrowing
// the bounds already known when the slot holds the same position.
func (t *table) store(key uint64, lo, hi, move int) {
	e := &t.slots[key&t.mask]
	if e.key == key {
		lo, hi = max(lo, int(e.lo)), min(hi, int(e.hi))
		if move < 0 {
			move = int(e.move)
		}
	}
	*e = entry{key: key, lo: int8(lo), hi: int8(hi), move: int8(move)}
}

// hint records a best move for key without proving anything, in an empty
// slot or the position's own.
func (t *table) hint(key uint64, move, stones int) {
	e := &t.slots[key&t.mask]
	switch e.key {
	case key:
		e.move = int8(move)
	case 0:
		*e = entry{key: key, lo: int8(-stones), hi: int8(stones), move: int8(move)}
	}
}
