package solve

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"kumalak/env"
	"kumalak/env/kalah"
	"kumalak/env/mangala"
)

// kroot is one root move of a solve by the engine of ksearch.go: its child
// and the proven bounds and guess of the child's future gain.
type kroot struct {
	c             kchild
	lo, hi, guess int
	guessed       bool // guess holds a guess (deepened, or resumed from a state)
}

// kjob is one position for the engine: its rules, houses in the mover's
// view, store difference, legal moves and tablebase, and its identity for a
// saved state (the game and the position string).
type kjob struct {
	g     *kgame
	p     kpos
	base  int
	legal []env.Action
	tb    *Tablebase
	id    string
	st    env.State // the root
	key   uint64    // a kale root's key, the first on the path; 0 otherwise
}

// solveKalah is Solve for a Kalah position.
func (s *Solver) solveKalah(b *kalah.Board, b0 Budget, dst []MoveValue) (Result, error) {
	j := s.jobOf(b)
	_, j.p, j.base, _ = engineOf(b)
	if b.Result() != env.Ongoing {
		return Result{Lo: j.base, Hi: j.base, Moves: dst[:0]}, nil
	}
	j.legal = b.Legal(s.legal[:0])
	return s.ksolve(j, b0, dst)
}

// newJob resets the solver's job for st under the rules g: its id only
// when a state file needs it, so that a solve allocates nothing.
func (s *Solver) newJob(st env.State, g *kgame) *kjob {
	s.job = kjob{g: g, tb: s.cfg.Tablebase, st: st}
	if s.cfg.State != "" {
		s.job.id = st.Spec().Name + " " + st.String()
	}
	return &s.job
}

// jobOf returns the solver's job for st, a kalah or classic mangala
// position, with its rules and the tablebase when it is of st's game.
func (s *Solver) jobOf(st env.State) *kjob {
	g := &mangalaGame
	if k, ok := st.(*kalah.Board); ok {
		r := k.Rules()
		s.kgame = kgame{n: r.Houses, capture: r.Capture}
		g = &s.kgame
	}
	j := s.newJob(st, g)
	if j.tb != nil && j.tb.game != st.Spec().Facts.Tablebase {
		j.tb = nil
	}
	return j
}

// solveClassic is Solve for a classic mangala position, by the same engine
// as Kalah's.
func (s *Solver) solveClassic(b *mangala.Board, b0 Budget, dst []MoveValue) (Result, error) {
	j := s.jobOf(b)
	q := FromBoard(b)
	j.p = fromPits(&q)
	j.base = b.Store(b.ToMove()) - b.Store(b.ToMove().Other())
	if g, over := q.Terminal(); over {
		return Result{Lo: j.base + g, Hi: j.base + g, Moves: dst[:0]}, nil
	}
	j.legal = b.Legal(s.legal[:0])
	return s.ksolve(j, b0, dst)
}

// solveKale is Solve for a mangala-kale position, by the same engine as
// Kalah's, with the repetition convention of the package documentation
// ("Kale"): no tablebase, no state or bounds files.
func (s *Solver) solveKale(b *mangala.Board, b0 Budget, dst []MoveValue) (Result, error) {
	j := s.newJob(b, &kaleGame)
	j.tb = nil
	j.p = kaleOf(b)
	j.base = b.Store(b.ToMove()) - b.Store(b.ToMove().Other())
	if g, over := terminal(b); over {
		return Result{Lo: j.base + g, Hi: j.base + g, Moves: dst[:0]}, nil
	}
	j.legal = b.Legal(s.legal[:0])
	j.key = kaleGame.key(&j.p)
	return s.ksolve(j, b0, dst)
}

// ksolve solves every root move of j by MTD(f) null-window tests to the end
// of the game, first guesses from iterative deepening, the threads of
// Config.Threads sharing one table; with Config.State it resumes from and
// saves to that file, with Config.Bounds and Config.Shipped it starts from
// the bounds read and writes those it proves.
func (s *Solver) ksolve(j *kjob, b Budget, dst []MoveValue) (Result, error) {
	main := s.startEngine(j, b)
	stop := main.stop
	if j.g.kale {
		main.path = append(s.kpath[:0], j.key)
		defer func() { s.kpath = main.path[:0] }()
	}
	roots := s.kroots[:0]
	for _, a := range j.legal {
		c := j.g.play(&j.p, int(a))
		n := j.g.stones(&c.p)
		roots = append(roots, kroot{c: c, lo: -n, hi: n, guessed: c.over})
	}
	s.kroots = roots
	var ck *checkpoint
	if !j.g.kale && (s.cfg.State != "" || len(s.cfg.Bounds) > 0 || s.cfg.Shipped) {
		var err error
		if ck, err = s.resume(j, roots); err != nil {
			return Result{}, err
		}
		main.pub, main.prog = &ck.live, &ck.prog
		defer ck.close()
	}
	for i := range roots {
		if rt := &roots[i]; !rt.guessed {
			g := s.kdeepen(main, &rt.c.p)
			ck.lock()
			rt.guess, rt.guessed = g, true
			ck.unlock()
		}
	}
	for !stop.Load() {
		i := pickKRoot(j, roots, s.cfg.ValueOnly)
		if i < 0 {
			break
		}
		rt := &roots[i]
		if ck != nil {
			ck.prog.begin(j.legal[i].Pit(), time.Now())
		}
		lo, hi, guess := s.kmtdStep(main, &rt.c.p, rt.lo, rt.hi, rt.guess)
		ck.lock()
		rt.lo, rt.hi, rt.guess = lo, hi, guess
		ck.unlock()
		if s.cfg.Log != nil && !stop.Load() {
			lo, hi := rootBounds(j, rt)
			s.cfg.Log(fmt.Sprintf("move %d: %+d..%+d  nodes %d", j.legal[i].Pit(), lo, hi, main.nodes+s.helperNodes.Load()))
		}
	}
	res := Result{Lo: -1 << 10, Hi: -1 << 10, Moves: dst[:0]}
	for i, a := range j.legal {
		lo, hi := rootBounds(j, &roots[i])
		res.Moves = append(res.Moves, MoveValue{Action: a, Lo: lo, Hi: hi})
		res.Lo, res.Hi = max(res.Lo, lo), max(res.Hi, hi)
	}
	s.stats.Nodes += main.nodes
	s.stats.TBHits += main.tbHits
	s.stats.TTHits += main.ttHits
	s.stats.Repetitions += main.reps
	if ck != nil {
		ck.live.Store(main.nodes)
		if err := ck.save(); err != nil {
			return res, err
		}
	}
	return res, nil
}

// startEngine makes the table when there is none and readies the main
// worker for a search of j within b.
func (s *Solver) startEngine(j *kjob, b Budget) *kworker {
	if s.ktt == nil {
		s.ktt = newKTable(s.cfg.TTBits - 1) // two slots a bucket: the same memory as TTBits slots
	}
	s.kstop.Store(false)
	var clock *kclock
	if b.Time > 0 {
		s.kclock = kclock{now: s.cfg.Now, deadline: s.cfg.Now().Add(b.Time)}
		clock = &s.kclock
	}
	s.kmain = kworker{g: j.g, tt: s.ktt, tb: j.tb, stop: &s.kstop, clock: clock, maxNodes: b.Nodes}
	return &s.kmain
}

// rootBounds returns the bounds of rt's final store difference from the
// root mover's view.
func rootBounds(j *kjob, rt *kroot) (lo, hi int) {
	lo, hi = rt.c.gain-rt.hi, rt.c.gain-rt.lo
	if rt.c.extra || rt.c.over {
		lo, hi = rt.c.gain+rt.lo, rt.c.gain+rt.hi
	}
	return j.base + lo, j.base + hi
}

// Interrupt stops a Solve in progress on another goroutine: it returns the bounds proved so far and, with
// Config.State, saves them.
func (s *Solver) Interrupt() { s.kstop.Store(true) }

// pickKRoot returns the inexact root move whose value has the highest
// upper bound, or -1 when all are exact; with valueOnly also -1 when every
// inexact move's upper bound lies below another move's lower bound (that
// move is then exact: the value and the best moves are proved).
func pickKRoot(j *kjob, roots []kroot, valueOnly bool) int {
	best, bestHi, maxLo := -1, 0, math.MinInt
	for i := range roots {
		rt := &roots[i]
		lo, hi := rootBounds(j, rt)
		maxLo = max(maxLo, lo)
		if rt.lo == rt.hi {
			continue
		}
		if best < 0 || hi > bestHi {
			best, bestHi = i, hi
		}
	}
	if valueOnly && best >= 0 && bestHi < maxLo {
		return -1
	}
	return best
}

// kmtdStep runs one null-window test on p's future gain, known to lie in
// lo..hi, around guess, on every thread, and returns the narrowed bounds
// and the next guess.
func (s *Solver) kmtdStep(main *kworker, p *kpos, lo, hi, guess int) (int, int, int) {
	guess = min(max(guess, lo), hi)
	beta := guess
	if beta == lo {
		beta++
	}
	g := s.kparallel(main, p, beta-1, beta, -1)
	switch {
	case main.stop.Load():
		g = guess
	case g < beta:
		hi = min(hi, g)
	default:
		lo = max(lo, g)
	}
	return lo, hi, g
}

// kparallel searches p on the main worker while Threads-1 helpers search
// the same window with their own move orders, sharing the table; the
// helpers stop when the main worker returns.
func (s *Solver) kparallel(main *kworker, p *kpos, alpha, beta, depth int) int {
	helpers := s.cfg.Threads - 1
	if helpers <= 0 {
		return main.search(p, alpha, beta, depth, 0)
	}
	var quit atomic.Bool
	var wg sync.WaitGroup
	for h := range helpers {
		w := &kworker{g: main.g, tt: main.tt, tb: main.tb, stop: main.stop, quit: &quit, clock: main.clock, rot: h + 1, history: main.history, hpub: &s.helperNodes}
		if main.g.kale {
			w.path = slices.Clone(main.path) // its own path: the same root's
		}
		wg.Go(func() {
			q := *p
			w.search(&q, alpha, beta, depth, 0)
			s.helperNodes.Add(w.nodes - w.sent) // the rest of what tick published
		})
	}
	v := main.search(p, alpha, beta, depth, 0)
	quit.Store(true)
	wg.Wait()
	return v
}

// deepenNodes is how many nodes an iteration of kdeepen may take before
// it is the last: deepenNodes, and kaleDeepenNodes in kale, whose games
// run long past the depths a shallow search reaches, so that deeper
// iterations cost much and guess little better (about a third of a
// 250,000-node budget went to them, on six root moves).
func (g *kgame) deepenNodes() uint64 {
	if g.kale {
		return kaleDeepenNodes
	}
	return deepenNodes
}

// kaleDeepenNodes is deepenNodes for kale.
const kaleDeepenNodes = 2000

// kdeepen returns a guess of p's future gain from depth-limited searches
// of increasing depth, which also fill the table's best moves.
func (s *Solver) kdeepen(w *kworker, p *kpos) int {
	guess := 0
	for d := 1; d <= deepenMax && !w.stop.Load(); d++ {
		n0 := w.nodes
		g := w.search(p, -1<<10, 1<<10, d, 0)
		if w.stop.Load() {
			break
		}
		guess = g
		if w.nodes-n0 > w.g.deepenNodes() {
			break
		}
	}
	return guess
}
