package agent

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"kumalak/env"
)

// Scores of the alpha-beta search, from the mover's view. One stone is
// stoneUnit; a win found ply plies from the root scores winScore-ply, so the
// search prefers faster wins and slower losses.
const (
	maxPly    = 64
	maxDepth  = 60
	stoneUnit = 100
	winScore  = 1 << 24
	winBound  = winScore - 1<<12 // |score| >= winBound: a proven result
	infScore  = winScore + 1
	noMove    = 0xff
)

// Defaults of the ab kind's keys, in its key table and its builder; the tb
// kind's fallback search is an ab of these defaults too.
const (
	abDefaultDepth = 6  // depth=, in plies, without time=
	abDefaultTT    = 16 // tt=, in MiB
	abDefaultMob   = 50 // mob=, in hundredths of a stone per legal move
)

// alphaBeta is negamax alpha-beta with iterative deepening. Turns do not
// always alternate, so a child's score is negated only when the child's
// mover differs from the node's (child).
type alphaBeta struct {
	spec  *env.Spec
	depth int           // deepest iteration
	limit time.Duration // time per move; 0 = none
	mob   int32         // evaluation bonus per legal move of the mover
	half  int           // a store above half the stones has won
	rng   *rand.Rand
	tt    *table // nil when off
	mib   int    // the table's size
	cal   Calibration
	calOK bool // cal is fitted for the game
	multi int  // lines to report (MultiPV), >= 1

	plies   [maxPly]plyData
	pv      [maxPly][maxPly]env.Action
	pvLen   [maxPly]int
	history [2][]int32     // cutoff bonus per player and action
	scores  []int32        // root: each move's score in the last iteration
	rootPV  [][]env.Action // root: each move's line in the last iteration
	next    []int32        // root: scores of the running iteration
	nextPV  [][]env.Action // root: lines of the running iteration
	walk    env.State      // scratch of extendPV

	nodes    int64
	selDepth int
	ctx      context.Context
	started  time.Time
	deadline time.Time
	stopped  bool
	score    int32 // root score of the chosen move
	ana      Analysis
	legalBuf []env.Action
	progress func(Analysis) // SetProgress's callback, after each completed depth
	smooth   int32          // the mean root score of the last two completed depths (parity-free), unless one is a proven result
}

// Progresser is implemented by agents that report a search's progress
// while it runs: alpha-beta after each completed depth of its iterative
// deepening. The Analysis passed is the agent's own, valid during the
// call only.
type Progresser interface {
	SetProgress(f func(Analysis))
}

// SetProgress makes Move call f after each completed depth but the last
// (whose analysis Move leaves for Analysis); nil turns it off.
func (s *alphaBeta) SetProgress(f func(Analysis)) { s.progress = f }

// plyData is the scratch of one ply: moves, child positions (also as
// env.Scorer, converted once) and their order.
type plyData struct {
	moves   []env.Action
	kids    []env.State
	scorers []env.Scorer // kids[i] as an env.Scorer
	keys    []int32
	order   []int
}

func newAlphaBeta(spec *env.Spec, o *options, rng *rand.Rand) (Agent, error) {
	st := spec.New()
	if _, ok := st.(env.Scorer); !ok {
		return nil, fmt.Errorf("ab needs a game with stores (env.Scorer); %s has none", spec.Name)
	}
	depth, limit := abLimits(o.lim)
	mob, err := o.int("mob", abDefaultMob, -10000, 10000)
	if err != nil {
		return nil, err
	}
	mib, err := o.int("tt", abDefaultTT, 0, MaxHash)
	if err != nil {
		return nil, err
	}
	if _, ok := st.(env.Hasher); !ok && mib > 0 {
		if o.has("tt") {
			return nil, fmt.Errorf("tt=%d needs a game with hashes (env.Hasher); %s has none", mib, spec.Name)
		}
		mib = 0
	}
	return newSearcher(spec, depth, limit, int32(mob), mib, rng), nil
}

// abLimits returns the depth and time of limits l: abDefaultDepth by
// default, MaxDepth when only a time is given.
func abLimits(l Limits) (depth int, limit time.Duration) {
	depth = l.Depth
	switch {
	case depth > 0:
	case l.Time > 0:
		depth = MaxDepth
	default:
		depth = abDefaultDepth
	}
	return depth, l.Time
}

// MaxLimits: alpha-beta takes a depth and a time.
func (s *alphaBeta) MaxLimits() Limits { return abMaxLimits }

// Limits returns the depth and time of the next search.
func (s *alphaBeta) Limits() Limits { return Limits{Depth: s.depth, Time: s.limit} }

// SetLimits sets the depth and time of the next searches.
func (s *alphaBeta) SetLimits(l Limits) error {
	if err := l.check(s.MaxLimits()); err != nil {
		return fmt.Errorf("ab: %w", err)
	}
	s.depth, s.limit = abLimits(l)
	return nil
}

// newSearcher returns an alpha-beta agent with a transposition table of mib
// MiB (none for 0).
func newSearcher(spec *env.Spec, depth int, limit time.Duration, mob int32, mib int, rng *rand.Rand) *alphaBeta {
	s := &alphaBeta{spec: spec, depth: depth, limit: limit, mob: mob, half: spec.Stones / 2, rng: rng, multi: 1, walk: spec.New()}
	s.cal, s.calOK = CalibrationOf(spec.Name)
	s.setHash(mib)
	n := spec.NumActions
	for i := range s.plies {
		p := &s.plies[i]
		p.moves = make([]env.Action, 0, n)
		p.kids, p.scorers = make([]env.State, n), make([]env.Scorer, n)
		for k := range p.kids {
			p.kids[k] = spec.New()
			p.scorers[k] = p.kids[k].(env.Scorer) // newAlphaBeta checked the game
		}
		p.keys = make([]int32, n)
		p.order = make([]int, n)
	}
	s.history = [2][]int32{make([]int32, n), make([]int32, n)}
	s.scores, s.next = make([]int32, n), make([]int32, n)
	s.rootPV, s.nextPV = make([][]env.Action, n), make([][]env.Action, n)
	for i := range s.rootPV {
		s.rootPV[i], s.nextPV[i] = make([]env.Action, 0, maxPly), make([]env.Action, 0, maxPly)
	}
	s.legalBuf = make([]env.Action, 0, n)
	s.ana.PV = make([]env.Action, 0, maxPly)
	s.ana.Moves = make([]MoveStat, 0, n)
	return s
}

// Reset clears the transposition table and the move-ordering history.
func (s *alphaBeta) Reset() {
	if s.tt != nil {
		s.tt.clear()
	}
	for p := range s.history {
		clear(s.history[p])
	}
}

// Analysis describes the last search.
func (s *alphaBeta) Analysis() Analysis { return s.ana }

// Move searches st by iterative deepening and returns the best move of the
// deepest finished iteration (of the unfinished first one, when none
// finished), which the analysis describes.
func (s *alphaBeta) Move(ctx context.Context, st env.State) (env.Action, error) {
	root := &s.plies[0]
	root.moves = st.Legal(root.moves[:0])
	if len(root.moves) == 0 {
		return 0, ErrGameOver
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.begin(ctx)
	s.expandRoot(st)
	depth := s.depth
	if len(root.moves) == 1 { // forced: searched only to be evaluated
		depth = min(depth, singleDepth)
	}
	var prev int32
	for d := 1; d <= depth; d++ {
		done := s.searchRoot(st.ToMove(), d)
		if !done {
			break
		}
		s.smooth = s.score
		if d > 1 && abs32(s.score) < winBound && abs32(prev) < winBound {
			s.smooth = (s.score + prev) / 2 // the two parities' mean: the value does not swing with depth
		}
		prev = s.score
		s.ana.Depth = d
		s.extendPV(st, d)
		if s.progress != nil && d < depth {
			s.finishAnalysis()
			s.progress(s.ana)
		}
		if s.allProven() || (s.limit > 0 && time.Since(s.started) > s.limit/2) {
			break
		}
	}
	if err := ctx.Err(); err != nil && len(s.ana.PV) == 0 {
		return 0, err // stopped before any move was chosen
	}
	if len(s.ana.PV) == 0 { // stopped before any move was searched
		s.score, s.smooth = 0, 0
		s.ana.PV = append(s.ana.PV, root.moves[root.order[0]])
	}
	s.finishAnalysis()
	return s.ana.PV[0], nil
}

// allProven reports whether deepening can change nothing that is
// reported: the best move's result is proven, and with MultiPV so is
// every line's (whose values stay comparable, all of one depth).
func (s *alphaBeta) allProven() bool {
	if abs32(s.score) < winBound {
		return false
	}
	r := &s.plies[0]
	for k, i := range r.order[:len(r.moves)] {
		if k >= s.multi {
			break
		}
		if abs32(s.scores[i]) < winBound {
			return false
		}
	}
	return true
}

// singleDepth is the depth a forced move is searched to, for its value.
const singleDepth = 6

// begin resets the per-move counters.
func (s *alphaBeta) begin(ctx context.Context) {
	s.ctx, s.nodes, s.selDepth, s.stopped = ctx, 0, 0, false
	if s.limit > 0 {
		s.started = time.Now()
		s.deadline = s.started.Add(s.limit)
	}
	if s.tt == nil && s.mib > 0 {
		s.tt = newTable(s.mib)
	}
	if s.tt != nil {
		s.tt.gen++
	}
	s.ana.Depth, s.ana.Nodes = 0, 0
	s.ana.PV = s.ana.PV[:0]
}

// expandRoot makes the root's children in a random order, so that equal
// moves are chosen at random.
func (s *alphaBeta) expandRoot(st env.State) {
	r := &s.plies[0]
	s.rng.Shuffle(len(r.moves), func(i, j int) { r.moves[i], r.moves[j] = r.moves[j], r.moves[i] })
	for i, a := range r.moves {
		r.kids[i].CopyFrom(st)
		r.kids[i].Apply(a)
		r.order[i] = i
		s.scores[i], s.next[i] = 0, 0
		s.rootPV[i], s.nextPV[i] = s.rootPV[i][:0], s.nextPV[i][:0]
	}
}

// searchRoot runs one iteration to depth d over the root moves, best of the
// previous iteration first. It reports whether the iteration finished. The
// result (score, line, the root moves' scores and lines) is that of the
// last finished iteration; an unfinished one counts only when none
// finished, and then only for the moves it searched.
func (s *alphaBeta) searchRoot(me env.Player, d int) bool {
	r := &s.plies[0]
	alpha := int32(-infScore)
	found := false
	for k, i := range r.order[:len(r.moves)] {
		bound := alpha // the score a move must beat to count
		if s.multi > 1 {
			bound = s.nthBest(r.order[:k])
		}
		v := s.child(me, r.kids[i], d-1, 1, bound, infScore)
		if s.stopped {
			break
		}
		s.next[i] = v
		s.nextPV[i] = s.nextPV[i][:0]
		if v > bound {
			s.nextPV[i] = append(append(s.nextPV[i], r.moves[i]), s.pv[1][:s.pvLen[1]]...)
		}
		if v > alpha {
			alpha, found = v, true
			s.setPV(0, r.moves[i])
		}
	}
	if s.stopped && (s.ana.Depth > 0 || !found) {
		return false
	}
	s.score = alpha
	s.ana.PV = append(s.ana.PV[:0], s.pv[0][:s.pvLen[0]]...)
	copy(s.scores, s.next)
	s.rootPV, s.nextPV = s.nextPV, s.rootPV
	if s.stopped {
		return false
	}
	sortByKey(r.order[:len(r.moves)], s.scores)
	return true
}

// nthBest returns the multi-th best score of the root moves searched, or
// -infScore while fewer have been.
func (s *alphaBeta) nthBest(searched []int) int32 {
	if len(searched) < s.multi {
		return -infScore
	}
	var top [MaxMultiPV]int32
	n := 0
	for _, i := range searched {
		v := s.next[i]
		k := min(n, s.multi-1)
		if n == s.multi && v <= top[k] {
			continue
		}
		for ; k > 0 && top[k-1] < v; k-- {
			top[k] = top[k-1]
		}
		top[k] = v
		n = min(n+1, s.multi)
	}
	return top[s.multi-1]
}

// child returns the score of child position c for me, the mover at the
// parent: the child's own score when me moves again, else its negation.
func (s *alphaBeta) child(me env.Player, c env.State, depth, ply int, alpha, beta int32) int32 {
	if c.ToMove() == me {
		return s.search(c, depth, ply, alpha, beta)
	}
	return -s.search(c, depth, ply, -beta, -alpha)
}

// search returns the score of st for its mover, searched depth plies deep,
// within the window (alpha, beta) (fail-soft).
func (s *alphaBeta) search(st env.State, depth, ply int, alpha, beta int32) int32 {
	s.nodes++
	if ply > s.selDepth {
		s.selDepth = ply
	}
	if s.nodes&1023 == 0 && s.expired() {
		s.stopped = true
	}
	s.pvLen[ply] = 0
	if s.stopped {
		return 0
	}
	me, sc := st.ToMove(), st.(env.Scorer)
	if v, ok := s.settled(st, sc, me, ply); ok {
		return v
	}
	if depth <= 0 || ply >= maxPly-1 {
		return s.eval(st, sc, me)
	}
	alpha0, ttMove := alpha, noMove
	var key uint64
	if s.tt != nil {
		key = st.(env.Hasher).Hash()
		v, m, hit := s.tt.probe(key, depth, ply, alpha, beta)
		if hit {
			return v
		}
		ttMove = m
	}
	best, bestMove := s.searchKids(st, sc, me, depth, ply, alpha, beta, ttMove)
	if s.tt != nil && !s.stopped {
		s.tt.store(key, depth, ply, best, alpha0, beta, bestMove)
	}
	return best
}

// searchKids searches the children of st (whose scores are sc) in order
// and returns the best score and move.
func (s *alphaBeta) searchKids(st env.State, sc env.Scorer, me env.Player, depth, ply int, alpha, beta int32, ttMove int) (int32, int) {
	p := &s.plies[ply]
	s.expand(st, sc, p, me, ttMove)
	best, bestMove := int32(-infScore), noMove
	for _, i := range p.order[:len(p.moves)] {
		v := s.child(me, p.kids[i], depth-1, ply+1, alpha, beta)
		if s.stopped {
			return 0, noMove
		}
		if v <= best {
			continue
		}
		best, bestMove = v, int(p.moves[i])
		if v > alpha {
			alpha = v
			s.setPV(ply, p.moves[i])
		}
		if v >= beta {
			s.reward(me, p.moves[i], depth)
			break
		}
	}
	return best, bestMove
}

// settled scores a finished game, or a game already decided because one
// store holds more than half the stones (stones never leave a store); sc
// is st's stores.
func (s *alphaBeta) settled(st env.State, sc env.Scorer, me env.Player, ply int) (int32, bool) {
	win := int32(winScore - ply)
	if r := st.Result(); r != env.Ongoing {
		return int32(r.Value(me)) * win, true
	}
	switch {
	case sc.Store(me) > s.half:
		return win, true
	case sc.Store(me.Other()) > s.half:
		return -win, true
	}
	return 0, false
}

// eval is the static score of st for me: the store difference (of sc,
// st's stores), plus the mobility bonus when set.
func (s *alphaBeta) eval(st env.State, sc env.Scorer, me env.Player) int32 {
	v := int32(sc.Store(me)-sc.Store(me.Other())) * stoneUnit
	if s.mob != 0 {
		s.legalBuf = st.Legal(s.legalBuf[:0])
		v += s.mob * int32(len(s.legalBuf))
	}
	return v
}

// expand fills p with st's children, ordered: the table's move, then by the
// immediate store gain (a kept turn counting one stone), then by history.
// sc is st's stores.
func (s *alphaBeta) expand(st env.State, sc env.Scorer, p *plyData, me env.Player, ttMove int) {
	p.moves = st.Legal(p.moves[:0])
	base := sc.Store(me) - sc.Store(me.Other())
	for i, a := range p.moves {
		c := p.kids[i]
		c.CopyFrom(st)
		c.Apply(a)
		p.order[i] = i
		if int(a) == ttMove {
			p.keys[i] = math.MaxInt32
			continue
		}
		cs := p.scorers[i]
		gain := int32(cs.Store(me) - cs.Store(me.Other()) - base)
		if c.ToMove() == me {
			gain++
		}
		p.keys[i] = gain<<20 + min(s.history[me][a], 1<<19)
	}
	sortByKey(p.order[:len(p.moves)], p.keys)
}

// reward raises the history of a move that caused a cutoff.
func (s *alphaBeta) reward(me env.Player, a env.Action, depth int) {
	s.history[me][a] += int32(depth * depth)
}

// setPV makes a followed by the child's line the principal variation at ply.
func (s *alphaBeta) setPV(ply int, a env.Action) {
	s.pv[ply][0] = a
	n := copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
	s.pvLen[ply] = n + 1
}

// expired reports whether the time is up or the context ended.
func (s *alphaBeta) expired() bool {
	if s.limit > 0 && time.Now().After(s.deadline) {
		return true
	}
	return s.ctx.Err() != nil
}

// sortByKey sorts idx by key[idx] descending; insertion sort keeps equal
// keys in their order.
func sortByKey(idx []int, key []int32) {
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && key[idx[j]] > key[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}
