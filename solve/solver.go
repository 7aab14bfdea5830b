package solve

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"kumalak/env"
	"kumalak/env/kalah"
	"kumalak/env/mangala"
)

// Config sets up a Solver.
type Config struct {
	TTBits    int        // the transposition table has 2^TTBits slots of 16 bytes
	Tablebase *Tablebase // exact values of small classic positions (or of kalah's, for kalah); may be nil
	// Threads searches kalah with that many threads sharing the table
	// (lazy SMP); 0 or 1 is one.
	Threads int
	// Now is the clock for the time limits of mangala-kale; nil means
	// time.Now.
	Now func() time.Time
	// State, when set, makes a kalah or classic mangala solve resumable:
	// it resumes from this file when it exists (the same game and
	// position) and saves its progress there every SaveEvery (0: only at
	// the end) and when it ends, stopped or not.
	State     string
	SaveEvery time.Duration
	// Bounds names bounds files (bounds.go; docs/TABLEBASE.md, "Carrying
	// a solve forward") of a kalah or classic mangala solve: each that
	// exists is read, and its proved bounds seed the table and the root
	// moves; the first, which may be new, is written with all of them
	// merged and those this solve proves within BoundsPlies of the root,
	// every SaveEvery and when the solve ends, stopped or not.
	Bounds []string
	// BoundsPlies is how many plies below the root the written bounds
	// reach, 0 for DefaultBoundsPlies, at most MaxBoundsPlies.
	BoundsPlies int
	// Shipped seeds a kalah or classic mangala solve with the bounds
	// shipped in the package for its game (proofs/GAME.bounds), if any.
	Shipped bool
	// ValueOnly stops a kalah or classic mangala solve once the position's
	// value and its best moves are proved: every other move keeps the
	// bounds that put it below the value, unrefined. The published solves
	// of Kalah state only this.
	ValueOnly bool
	// Log, when set, receives a line of progress after every finished
	// null-window test of a root move and every save.
	Log func(string)
}

// DefaultConfig returns a 2^22-slot (64 MiB) table, no tablebase and the
// wall clock.
func DefaultConfig() Config { return Config{TTBits: 22} }

// Validate names the first bad field of c.
func (c Config) Validate() error {
	if c.TTBits < 4 || c.TTBits > 34 {
		return fmt.Errorf("solve: TTBits %d out of range 4..34", c.TTBits)
	}
	if c.Threads < 0 || c.Threads > 256 {
		return fmt.Errorf("solve: Threads %d out of range 0..256", c.Threads)
	}
	if c.BoundsPlies < 0 || c.BoundsPlies > MaxBoundsPlies {
		return fmt.Errorf("solve: BoundsPlies %d out of range 0..%d", c.BoundsPlies, MaxBoundsPlies)
	}
	if c.SaveEvery < 0 {
		return fmt.Errorf("solve: SaveEvery %v is negative", c.SaveEvery)
	}
	return nil
}

// MoveValue is the value of one move: the final store difference, the
// mover's store less the opponent's, after that move and perfect play by
// both sides from there. It is exact when Lo == Hi, otherwise only the
// bounds Lo <= value <= Hi are proved.
type MoveValue struct {
	Action env.Action
	Lo, Hi int
}

// Exact reports whether the value is known exactly.
func (m MoveValue) Exact() bool { return m.Lo == m.Hi }

// Stats counts a search's work.
type Stats struct {
	Nodes       uint64        // positions searched
	TBHits      uint64        // positions answered by the tablebase
	TTHits      uint64        // positions answered or narrowed by the transposition table
	Repetitions uint64        // kale positions met again on the search path
	Elapsed     time.Duration // wall time
}

// Result is the outcome of Solve. Lo..Hi bounds the final store difference
// from the view of the player to move (mover's store less opponent's) under
// perfect play; it is exact when Lo == Hi.
type Result struct {
	Lo, Hi int
	Moves  []MoveValue // one per legal move, in action order; empty at a terminal position
	Stats
}

// Exact reports whether the value is known exactly.
func (r Result) Exact() bool { return r.Lo == r.Hi }

// Outcome returns the result for the player to move, +1 a win, 0 a draw,
// -1 a loss, and false while the bounds still allow more than one.
func (r Result) Outcome() (int, bool) {
	lo, hi := sign(r.Lo), sign(r.Hi)
	return lo, lo == hi
}

// sign returns -1, 0 or +1.
func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Solver finds exact values of kalah and mangala positions (classic and
// kale) by alpha-beta search with a transposition table of proven bounds, MTD(f)
// null-window tests and iterative deepening for the first guesses and move
// order. It is not safe for concurrent use; the table is kept between
// calls, so solving related positions gets faster.
type Solver struct {
	cfg      Config
	tt       table
	stats    Stats
	deadline time.Time
	stopped  bool
	path     []uint64 // keys of the kale positions on the search path
	// ktt is the kalah search's table, shared by its threads; helperNodes
	// counts the nodes of its helper threads.
	ktt         *ktable
	helperNodes atomic.Uint64
	kstop       atomic.Bool // the engine's search stops (time limit, Interrupt)
	// The buffers of a solve by the engine of ksearch.go, kept so that a
	// solve allocates nothing: its job, main worker, clock, legal moves
	// and root moves, and the rules of a kalah job.
	job      kjob
	kgame    kgame
	kmain    kworker
	kclock   kclock
	legal    [env.MaxActions]env.Action
	kroots   []kroot
	maxNodes uint64 // the kale search's node budget (0: none)
	kpath    []uint64
	// reference solves kale by the alpha-beta search of search.go rather
	// than the engine of ksearch.go: the tests' reference.
	reference bool
}

// Budget bounds a solve: it stops after about Time or once about Nodes
// positions are searched, whichever comes first, and returns the bounds
// proved by then. A zero field is no bound; a zero Budget searches until
// every value is exact. A node budget makes a bounded solve repeatable:
// the same position, table and budget give the same result.
type Budget struct {
	Time  time.Duration
	Nodes uint64
}

// New returns a Solver, or an error naming a bad field of cfg.
func New(cfg Config) (*Solver, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Solver{cfg: cfg, path: make([]uint64, 0, 256), kpath: make([]uint64, 0, 256)}, nil
}

// SolveContext is Solve interrupted (Interrupt) when ctx ends: a search
// that can be interrupted returns the bounds proved so far.
func (s *Solver) SolveContext(ctx context.Context, st env.State, limit time.Duration) (Result, error) {
	stop := context.AfterFunc(ctx, s.Interrupt)
	defer stop()
	return s.Solve(st, limit)
}

// Solve returns every legal move's value in st, a mangala or mangala-kale
// position, and the position's value: their maximum. A limit > 0 stops the
// search after about that long with the bounds proved by then; 0 means
// search until every value is exact. In kale a position met again on the
// search path counts as the game's end there (see the package
// documentation).
func (s *Solver) Solve(st env.State, limit time.Duration) (Result, error) {
	return s.SolveWithin(st, Budget{Time: limit}, nil)
}

// SolveWithin is Solve within a budget of time and nodes. It appends the
// moves' values to dst[:0] and returns them as Result.Moves, so a caller
// that passes back the Moves of its last result, and a solver whose table
// is already made, allocate nothing (without Config.State or
// Config.Threads > 1).
func (s *Solver) SolveWithin(st env.State, b0 Budget, dst []MoveValue) (Result, error) {
	if err := Solvable(st.Spec()); err != nil {
		return Result{}, fmt.Errorf("solve: %w", err)
	}
	k, isKalah := st.(*kalah.Board)
	b, isMangala := st.(*mangala.Board)
	if !isKalah && !isMangala {
		return Result{}, fmt.Errorf("solve: %s: a game whose facts claim the solver but whose board it does not know", st.Spec().Name)
	}
	if isKalah || !b.Kale() || !s.reference {
		t0 := time.Now()
		s.stats = Stats{}
		s.helperNodes.Store(0)
		var r Result
		var err error
		switch {
		case isKalah:
			r, err = s.solveKalah(k, b0, dst)
		case b.Kale():
			r, err = s.solveKale(b, b0, dst)
		default:
			r, err = s.solveClassic(b, b0, dst)
		}
		s.stats.Nodes += s.helperNodes.Load()
		s.stats.Elapsed = time.Since(t0)
		r.Stats = s.stats
		return r, err
	}
	t0 := s.startReference(b0)
	base := b.Store(b.ToMove()) - b.Store(b.ToMove().Other())
	r := Result{Moves: dst[:0]}
	if g, over := terminal(b); over {
		r.Lo, r.Hi = base+g, base+g
	} else {
		r = s.solveMoves(b, base, dst)
	}
	s.stats.Elapsed = s.cfg.Now().Sub(t0)
	r.Stats = s.stats
	return r, nil
}

// startReference makes the reference search's table when there is none,
// resets its counts and sets its budget b; it returns the start time.
func (s *Solver) startReference(b Budget) time.Time {
	if s.tt.slots == nil {
		s.tt = newTable(s.cfg.TTBits)
	}
	t0 := s.cfg.Now()
	s.stats, s.stopped, s.deadline, s.maxNodes = Stats{}, false, time.Time{}, b.Nodes
	if b.Time > 0 {
		s.deadline = t0.Add(b.Time)
	}
	return t0
}

// root is one root move being solved: its child and the proven bounds and
// guess of the child's future gain.
type root struct {
	child         mangala.Board
	gain          int
	extra         bool
	lo, hi, guess int
}

// solveMoves solves the moves of b, a non-terminal position whose store
// difference is base, one MTD(f) step at a time, always on the inexact move
// with the highest upper bound (the one that bounds b's value).
func (s *Solver) solveMoves(b *mangala.Board, base int, dst []MoveValue) Result {
	var buf [rowPits]env.Action
	var roots [rowPits]root
	legal := b.Legal(buf[:0])
	s.path = s.path[:0]
	if b.Kale() {
		p := FromBoard(b)
		s.path = append(s.path, keyOf(&p, b))
	}
	for i, a := range legal {
		rt := &roots[i]
		rt.child = *b
		rt.child.Apply(a)
		rt.gain, rt.extra = gainOf(b, &rt.child)
		n := stonesOf(&rt.child)
		rt.lo, rt.hi = -n, n
		rt.guess = s.deepen(&rt.child)
	}
	for !s.stopped {
		i := pickRoot(roots[:len(legal)])
		if i < 0 {
			break
		}
		rt := &roots[i]
		rt.lo, rt.hi, rt.guess = s.mtdStep(&rt.child, rt.lo, rt.hi, rt.guess)
	}
	r := Result{Lo: -MaxStones - 1, Hi: -MaxStones - 1, Moves: dst[:0]}
	for i, a := range legal {
		rt := &roots[i]
		lo, hi := rt.gain+rt.lo, rt.gain+rt.hi
		if !rt.extra {
			lo, hi = rt.gain-rt.hi, rt.gain-rt.lo
		}
		r.Moves = append(r.Moves, MoveValue{Action: a, Lo: base + lo, Hi: base + hi})
		r.Lo, r.Hi = max(r.Lo, base+lo), max(r.Hi, base+hi)
	}
	return r
}

// pickRoot returns the index of the inexact root move whose value (from the
// root mover's view) has the highest upper bound, or -1 when all are exact.
func pickRoot(roots []root) int {
	best, bestHi := -1, 0
	for i := range roots {
		rt := &roots[i]
		if rt.lo == rt.hi {
			continue
		}
		hi := rt.gain - rt.lo
		if rt.extra {
			hi = rt.gain + rt.hi
		}
		if best < 0 || hi > bestHi {
			best, bestHi = i, hi
		}
	}
	return best
}

// mtdStep runs one null-window test on b's future gain, known to lie in
// lo..hi, around guess, and returns the narrowed bounds and the next guess.
func (s *Solver) mtdStep(b *mangala.Board, lo, hi, guess int) (int, int, int) {
	guess = min(max(guess, lo), hi)
	beta := guess
	if beta == lo {
		beta++
	}
	g := s.search(b, beta-1, beta, -1)
	switch {
	case s.stopped:
	case g < beta:
		hi = min(hi, g)
	default:
		lo = max(lo, g)
	}
	return lo, hi, g
}

// Iterative deepening: depths 1, 2, ... of heuristic search, while an
// iteration takes fewer than deepenNodes nodes, give the first guess of a
// root move's value and fill the table's best moves.
const (
	deepenNodes = 20000
	deepenMax   = 24
)

// deepen returns a guess of b's future gain from shallow searches.
func (s *Solver) deepen(b *mangala.Board) int {
	guess := 0
	for d := 1; d <= deepenMax && !s.stopped; d++ {
		n0 := s.stats.Nodes
		guess = s.search(b, -MaxStones-1, MaxStones+1, d)
		if s.stats.Nodes-n0 > deepenNodes {
			break
		}
	}
	return guess
}

// Exact values of a tablebase position's moves, for players and judges.

// Moves appends the exact value of every legal move of b to dst, as Solve
// would give them, and returns false (and dst unchanged) when b is not a
// classic position within the tablebase (or t is a kalah tablebase).
func (t *Tablebase) Moves(b *mangala.Board, dst []MoveValue) ([]MoveValue, bool) {
	if b.Kale() || t.game != MangalaTB || stonesOf(b) > t.Stones() {
		return dst, false
	}
	base := b.Store(b.ToMove()) - b.Store(b.ToMove().Other())
	var buf [rowPits]env.Action
	for _, a := range b.Legal(buf[:0]) {
		c := *b
		c.Apply(a)
		gain, extra := gainOf(b, &c)
		v, _ := t.probe(&c)
		if !extra {
			v = -v
		}
		dst = append(dst, MoveValue{Action: a, Lo: base + gain + v, Hi: base + gain + v})
	}
	return dst, true
}
