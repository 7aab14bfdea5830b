package solve

import (
	"slices"
	"sync/atomic"
	"time"

	"kumalak/env/kalah"
)

// etcStones is the fewest stones on the board at which the search looks
// its children up in the table before searching any (enhanced
// transposition cut-offs): below it the probes cost more than they save.
// Kale never looks: the same nodes took a sixth more time with the probes.
const etcStones = 14

// Internal iterative deepening (classic mangala: Kalah(6,4) took twice the
// nodes with it; kale's path rules it out): a node of the exact search with at least
// iidStones stones on the board and no move in the table first searches
// itself iidDepth plies deep (leaves scored by the stores as they stand)
// and tries that search's best move first. Its subtrees are large enough
// that a good first move is worth far more than the shallow search costs
// (docs/notes/2026-12-06-mangala-solved.md). 0 turns it off (tests).
var iidStones, iidDepth = 30, 8

// kworker is one thread of the Kalah search. The threads share the table
// (lazy SMP): each searches the same position and window, the helpers
// with their moves near the root in another order, so that they fill the
// table with what the main thread will need.
type kworker struct {
	g       *kgame
	tt      *ktable
	tb      *Tablebase // kalah levels (6 houses), or nil
	nodes   uint64
	tbHits  uint64
	ttHits  uint64
	stop    *atomic.Bool   // the whole search stops (time limit, Interrupt)
	quit    *atomic.Bool   // this search is done (the main thread has its value)
	clock   *kclock        // the time limit, or nil
	pub     *atomic.Uint64 // the main worker publishes its nodes here for the saves, or nil
	prog    *progress      // and where it stands in its test, or nil
	hpub    *atomic.Uint64 // a helper adds its nodes here as it goes (sent so far), or nil
	sent    uint64
	history [kalah.MaxHouses]uint32
	rot     int // a helper's rotation of its move order near the root
	// path holds the keys of the kale positions on the search path, the
	// root's first; reps counts the positions met again on it.
	path []uint64
	reps uint64
	// maxNodes, when not 0, stops the whole search once the worker has
	// searched that many nodes (Budget.Nodes; the main worker only).
	maxNodes uint64
}

// kclock is a search's time limit on Config.Now's clock.
type kclock struct {
	now      func() time.Time
	deadline time.Time
}

// stopped reports whether the worker must return.
func (w *kworker) stopped() bool { return w.stop.Load() || (w.quit != nil && w.quit.Load()) }

// tick looks at the clock, stopping the whole search past the deadline,
// and reports whether the worker must return.
func (w *kworker) tick() bool {
	if w.pub != nil {
		w.pub.Store(w.nodes)
	}
	if w.hpub != nil {
		w.hpub.Add(w.nodes - w.sent)
		w.sent = w.nodes
	}
	if (w.clock != nil && !w.clock.now().Before(w.clock.deadline)) || (w.maxNodes > 0 && w.nodes >= w.maxNodes) {
		w.stop.Store(true)
	}
	return w.stopped()
}

// search returns the future gain of p's mover, fail-soft within the
// window alpha < value < beta; depth < 0 searches to the end of the game
// and records proven bounds, depth >= 0 is a heuristic search scoring its
// leaves 0 (the stores as they stand). ply counts plies from the root.
// After stopped() the result means nothing. It allocates nothing.
func (w *kworker) search(p *kpos, alpha, beta, depth, ply int) int {
	w.nodes++
	if w.nodes&1023 == 1 && w.tick() {
		return 0
	}
	s := w.g.stones(p)
	if w.tb != nil && s <= w.tb.Stones() {
		w.tbHits++
		q := p.toPits()
		v, _ := w.tb.Value(&q)
		return v
	}
	// Futility: the future gain lies in [-s, s], every stone on the board
	// going to one store or the other.
	if s <= alpha {
		return s
	}
	if -s >= beta {
		return -s
	}
	if depth == 0 {
		return 0
	}
	need := uint8(exactDepth)
	if depth > 0 {
		need = uint8(min(depth, exactDepth-1))
	}
	key := w.g.key(p)
	ttMove := int8(-1)
	if e, ok := w.tt.probe(key); ok {
		if e.depth >= need {
			if e.lo >= beta || e.lo == e.hi {
				w.ttHits++
				return e.lo
			}
			if e.hi <= alpha {
				w.ttHits++
				return e.hi
			}
		}
		ttMove = e.move
	}
	if w.g.kale {
		return w.kale(p, alpha, beta, depth, ply, s, key, ttMove)
	}
	return w.expand(p, alpha, beta, depth, ply, s, key, ttMove)
}

// kale is expand for a kale position, s stones, whose table entry did not
// settle it: a position met again on the path ends the game there by the
// kale end rule, each player taking the stones of their own row (the
// package documentation, "Kale"); otherwise it is searched on the path.
func (w *kworker) kale(p *kpos, alpha, beta, depth, ply, s int, key uint64, ttMove int8) int {
	if slices.Contains(w.path, key) {
		w.reps++
		mine := 0
		for _, v := range p[:rowPits] {
			mine += int(v)
		}
		return 2*mine - s
	}
	w.path = append(w.path, key)
	v := w.expand(p, alpha, beta, depth, ply, s, key, ttMove)
	w.path = w.path[:len(w.path)-1]
	return v
}

// expand searches the children of p, s stones, and records the result:
// search's work past the table.
func (w *kworker) expand(p *kpos, alpha, beta, depth, ply, s int, key uint64, ttMove int8) int {
	need := uint8(exactDepth)
	if depth > 0 {
		need = uint8(min(depth, exactDepth-1))
	}
	var kids [kalah.MaxHouses]kchild
	n := w.children(p, kids[:], ttMove)
	if depth < 0 && s >= etcStones && !w.g.kale {
		if v, ok := w.etc(kids[:n], beta); ok {
			w.ttHits++
			return v
		}
	}
	if depth < 0 && ttMove < 0 && s >= iidStones && iidDepth > 0 && n > 1 && w.g.mangala {
		if !w.iid(p, alpha, beta, ply, s, key, kids[:n]) {
			return 0
		}
	}
	if w.rot > 0 && ply < 3 && n > 2 {
		rotate(kids[1:n], w.rot+ply)
	}
	n0, reps := w.nodes, w.reps
	alpha0 := alpha
	best, bestMove := -2*kalah.MaxHouses*kalah.MaxSeeds-1, int8(-1)
	for i := range kids[:n] {
		k := &kids[i]
		if ply < progPlies && w.prog != nil {
			w.prog.enter(ply, i, n)
		}
		var v int
		switch {
		case k.over:
			v = k.gain
		case k.extra:
			v = k.gain + w.search(&k.p, alpha-k.gain, beta-k.gain, depth-1, ply+1)
		default:
			v = k.gain - w.search(&k.p, k.gain-beta, k.gain-alpha, depth-1, ply+1)
		}
		if w.stopped() {
			return 0
		}
		if v > best {
			best, bestMove = v, k.a
		}
		alpha = max(alpha, v)
		if alpha >= beta {
			w.history[k.a] += uint32(s * s)
			break
		}
	}
	if depth < 0 && w.reps != reps {
		// The value leans on the path (a kale repetition): not a property
		// of the position alone, so it is not recorded as proved.
		return best
	}
	e := kval{lo: -s, hi: s, move: bestMove, depth: need, work: workOf(w.nodes - n0)}
	switch {
	case best <= alpha0:
		e.hi = best
	case best >= beta:
		e.lo = best
	default:
		e.lo, e.hi = best, best
	}
	w.tt.store(key, e)
	return best
}

// iid runs internal iterative deepening at p, s stones, whose moves kids
// are in children's order: a search of iidDepth plies in the window, and
// its best move moved to the front of kids. It returns false when the
// search stopped.
func (w *kworker) iid(p *kpos, alpha, beta, ply, s int, key uint64, kids []kchild) bool {
	prog := w.prog
	w.prog = nil // the shallow search's plies are not the test's
	w.expand(p, alpha, beta, iidDepth, ply, s, key, -1)
	w.prog = prog
	if w.stopped() {
		return false
	}
	e, ok := w.tt.probe(key)
	if !ok {
		return true
	}
	for i := range kids {
		if kids[i].a == e.move {
			first := kids[i]
			copy(kids[1:i+1], kids[:i])
			kids[0] = first
			break
		}
	}
	return true
}

// etc looks the children up in the table: a child whose proven bounds
// already give a value >= beta cuts the node off without a search.
func (w *kworker) etc(kids []kchild, beta int) (int, bool) {
	for i := range kids {
		k := &kids[i]
		if k.over {
			if k.gain >= beta {
				return k.gain, true
			}
			continue
		}
		e, ok := w.tt.probe(w.g.key(&k.p))
		if !ok || e.depth != exactDepth {
			continue
		}
		v := k.gain - e.hi
		if k.extra {
			v = k.gain + e.lo
		}
		if v >= beta {
			return v, true
		}
	}
	return 0, false
}

// children fills kids with the moves of p, ordered: the table's move,
// then moves that end in the store (extra turns), then by gain, then by
// the history of cut-offs, then (in kalah) the house nearer the store; it
// returns how many.
func (w *kworker) children(p *kpos, kids []kchild, ttMove int8) int {
	n := 0
	for i := range w.g.n {
		if p[i] == 0 {
			continue
		}
		k := &kids[n]
		*k = w.g.play(p, i)
		k.order = int(min(w.history[i], 1<<20)) << 4
		if !w.g.mangala && !w.g.kale {
			// kalah: of equal history, the house nearer the store first
			// (docs/notes/2026-12-02-tablebases-and-solver.md, "Move order").
			k.order += i
		}
		k.order += (k.gain + 64) << 32
		if k.extra {
			k.order += 1 << 40
		}
		if k.a == ttMove {
			k.order += 1 << 44
		}
		n++
	}
	for i := 1; i < n; i++ { // insertion sort: at most eight moves
		for j := i; j > 0 && kids[j].order > kids[j-1].order; j-- {
			kids[j], kids[j-1] = kids[j-1], kids[j]
		}
	}
	return n
}

// rotate turns kids left by r places.
func rotate(kids []kchild, r int) {
	r %= len(kids)
	for range r {
		first := kids[0]
		copy(kids, kids[1:])
		kids[len(kids)-1] = first
	}
}
