package solve

import (
	"sync"
	"sync/atomic"
	"time"

	"kumalak/env"
	"kumalak/env/kalah"
)

// kroot is one root move of a Kalah solve: its child and the proven
// bounds and guess of the child's future gain.
type kroot struct {
	c             kchild
	lo, hi, guess int
}

// solveKalah is Solve for a Kalah position: every root move by MTD(f)
// null-window tests to the end of the game, first guesses from iterative
// deepening, the threads of Config.Threads sharing one table.
func (s *Solver) solveKalah(b *kalah.Board, limit time.Duration) (Result, error) {
	r := b.Rules()
	g := &kgame{n: r.Houses, capture: r.Capture}
	if s.ktt == nil {
		s.ktt = newKTable(s.cfg.TTBits - 1) // two slots a bucket: the same memory as TTBits slots
	}
	var stop atomic.Bool
	if limit > 0 {
		t := time.AfterFunc(limit, func() { stop.Store(true) })
		defer t.Stop()
	}
	tb := s.cfg.Tablebase
	if tb != nil && (tb.game != kalahGame(r) || r.Houses != rowPits) {
		tb = nil
	}
	main := &kworker{g: g, tt: s.ktt, tb: tb, stop: &stop}
	me := b.ToMove()
	var p kpos
	for i := range r.Houses {
		p[i] = uint8(b.House(me, i))
		p[r.Houses+i] = uint8(b.House(me.Other(), i))
	}
	base := b.Store(me) - b.Store(me.Other())
	var res Result
	if b.Result() != env.Ongoing {
		res.Lo, res.Hi = base, base
		return res, nil
	}
	var roots []kroot
	var legal []env.Action
	var buf [env.MaxActions]env.Action
	for _, a := range b.Legal(buf[:0]) {
		c := g.play(&p, int(a))
		n := g.stones(&c.p)
		rt := kroot{c: c, lo: -n, hi: n}
		if !c.over {
			rt.guess = s.kdeepen(main, &c.p)
		}
		roots = append(roots, rt)
		legal = append(legal, a)
	}
	for !stop.Load() {
		i := pickKRoot(roots)
		if i < 0 {
			break
		}
		rt := &roots[i]
		rt.lo, rt.hi, rt.guess = s.kmtdStep(main, &rt.c.p, rt.lo, rt.hi, rt.guess)
	}
	res = Result{Lo: -1 << 10, Hi: -1 << 10, Moves: make([]MoveValue, len(legal))}
	for i, a := range legal {
		rt := &roots[i]
		lo, hi := rt.c.gain-rt.hi, rt.c.gain-rt.lo
		if rt.c.extra || rt.c.over {
			lo, hi = rt.c.gain+rt.lo, rt.c.gain+rt.hi
		}
		res.Moves[i] = MoveValue{Action: a, Lo: base + lo, Hi: base + hi}
		res.Lo, res.Hi = max(res.Lo, base+lo), max(res.Hi, base+hi)
	}
	s.stats.Nodes += main.nodes
	s.stats.TBHits += main.tbHits
	s.stats.TTHits += main.ttHits
	return res, nil
}

// kalahGame is the tablebase game name of a Kalah rule set: "kalah" for
// the opposite-capture rule, "kalah-empty" for empty capture.
func kalahGame(r kalah.Rules) string {
	switch r.Capture {
	case kalah.Empty:
		return KalahEmptyTB
	case kalah.None:
		return KalahTB + "-none" // no tablebase of it: never matches one
	}
	return KalahTB
}

// pickKRoot returns the inexact root move whose value has the highest
// upper bound, or -1 when all are exact.
func pickKRoot(roots []kroot) int {
	best, bestHi := -1, 0
	for i := range roots {
		rt := &roots[i]
		if rt.lo == rt.hi {
			continue
		}
		hi := rt.c.gain - rt.lo
		if rt.c.extra {
			hi = rt.c.gain + rt.hi
		}
		if best < 0 || hi > bestHi {
			best, bestHi = i, hi
		}
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
		w := &kworker{g: main.g, tt: main.tt, tb: main.tb, stop: main.stop, quit: &quit, rot: h + 1, history: main.history}
		wg.Go(func() {
			q := *p
			w.search(&q, alpha, beta, depth, 0)
			s.helperNodes.Add(w.nodes)
		})
	}
	v := main.search(p, alpha, beta, depth, 0)
	quit.Store(true)
	wg.Wait()
	return v
}

// kdeepen returns a guess of p's future gain from depth-limited searches
// of increasing depth, which also fill the table's best moves.
func (s *Solver) kdeepen(w *kworker, p *kpos) int {
	guess := 0
	for d := 1; d <= deepenMax && !w.stop.Load(); d++ {
		n0 := w.nodes
		guess = w.search(p, -1<<10, 1<<10, d, 0)
		if w.nodes-n0 > deepenNodes {
			break
		}
	}
	return guess
}
