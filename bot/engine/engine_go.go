package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"kumalak/agent"
	"kumalak/env"
	"kumalak/protocol"
)

// Search carries out go: it chooses the limits (go's, else the clock's
// share, else the options set, else the agent's own), runs the agent in
// the way it allows, writes info lines and returns the move.
func (e *engine) Search(ctx context.Context, g protocol.Go, out func(protocol.Answer)) protocol.BestMove {
	if r := e.st.Result(); r != env.Ongoing {
		out(protocol.InfoString{Text: "game is over (" + r.String() + ")"})
		return protocol.BestMove{}
	}
	lim, _ := e.base.Replace(e.opts, e.max)
	clocked := goLimits(g, e.st.ToMove(), len(e.moves), e.lag)
	lim, dropped := lim.Replace(clocked, e.max)
	for _, name := range dropped.Names() {
		out(protocol.InfoString{Text: name + " ignored: agent " + e.sp.Kind + " has no such limit"})
	}
	s := &search{e: e, ctx: ctx, out: out, st: env.Clone(e.st), lim: lim, infinite: g.Infinite, began: time.Now()}
	if p, ok := e.ag.(agent.Progresser); ok { // an info line after each finished depth
		p.SetProgress(s.progress)
		defer p.SetProgress(nil)
	}
	switch {
	case e.max.Sims > 0 && (g.Infinite || lim.Sims > 0 || lim.Time > 0):
		s.bySims()
	case e.max.Time > 0 && g.Infinite:
		s.byTime()
	default:
		s.once()
	}
	if g.MoveTime == 0 && g.Time[e.st.ToMove()] > 0 && clocked.Time > 0 {
		e.lag = agent.NextLag(e.lag, clocked.Time, time.Since(s.began))
	}
	return s.finish()
}

// goLimits returns the limits go asks for: its own, with the time
// manager's budget of the mover's clock (agent.Clock.Budget, at the
// record's ply, less the lag its searches showed past their budgets) as
// the time when it gives no movetime.
func goLimits(g protocol.Go, mover env.Player, ply int, lag time.Duration) agent.Limits {
	l := agent.Limits{Sims: g.Sims, Time: g.MoveTime, Depth: g.Depth}
	if l.Time == 0 && g.Time[mover] > 0 {
		k := agent.Clock{Left: g.Time, Inc: g.Inc, MovesToGo: g.MovesToGo}
		k.Lag[mover] = lag
		l.Time = k.Budget(mover, ply)
	}
	return l
}

// search is the state of one running search.
type search struct {
	e        *engine
	ctx      context.Context
	out      func(protocol.Answer)
	st       env.State
	lim      agent.Limits
	infinite bool
	began    time.Time
	found    bool
	best     env.Action
	ana      agent.Analysis // copy of the deepest slice's analysis
	nodes    int64          // this search's own work over all slices: alpha-beta's nodes, MCTS's simulations
	full     bool           // the tree-full notice was written
	lastInfo time.Time
	lastLine string // the last info line written, less its time
	failed   error
}

// limit sets the agent's limits for the next slice.
func (s *search) limit(l agent.Limits) error {
	if lm, ok := s.e.ag.(agent.Limiter); ok {
		return lm.SetLimits(l)
	}
	return nil
}

// once runs one Move with the limits (the agent's own for an infinite
// search, which then waits for stop).
func (s *search) once() {
	lim := s.lim
	if s.infinite {
		lim = s.e.base
	}
	s.failed = s.limit(lim)
	if s.failed == nil {
		s.failed = s.slice()
	}
}

// bySims runs slices of simulations on the agent, whose tree carries over
// from slice to slice, until the limits or stop. A slice starts at
// SliceSims simulations and doubles while slices take under a tenth of
// Slice: a multi-threaded search starts and joins its threads in every
// slice, and a long search should not stop every 64 simulations to read
// its tree, while info lines still come every Slice. A slice of a timed
// search carries the time left, so that none runs past it.
func (s *search) bySims() {
	size, done := s.e.cfg.SliceSims, 0
	if s.lim.Sims > 0 && !s.infinite { // slices of equal size to start
		k := (s.lim.Sims + size - 1) / size
		size = (s.lim.Sims + k - 1) / k
	}
	for {
		l := agent.Limits{Sims: size}
		if s.lim.Sims > 0 && !s.infinite {
			l.Sims = min(size, s.lim.Sims-done)
		}
		if s.lim.Time > 0 && !s.infinite {
			if l.Time = s.lim.Time - time.Since(s.began); l.Time <= 0 {
				return
			}
		}
		if s.failed = s.limit(l); s.failed != nil {
			return
		}
		before, t := s.nodes, time.Now()
		if s.failed = s.slice(); s.failed != nil {
			return
		}
		done += l.Sims
		if time.Since(t) < s.e.cfg.Slice/10 {
			size = min(2*size, maxSliceSims)
		}
		switch {
		case s.ctx.Err() != nil:
			return
		case s.found && s.nodes == before: // no simulation added: the root is proven
			s.out(protocol.InfoString{Text: "position solved: nothing left to search"})
			return
		case s.infinite:
		case s.lim.Sims > 0 && done >= s.lim.Sims, s.lim.Time > 0 && time.Since(s.began) >= s.lim.Time:
			return
		}
	}
}

// maxSliceSims bounds a slice that bySims has grown.
const maxSliceSims = 1 << 20

// byTime runs slices of Slice time until stop: an alpha-beta agent keeps
// its transposition table, so each slice starts deeper.
func (s *search) byTime() {
	if s.failed = s.limit(agent.Limits{Time: s.e.cfg.Slice}); s.failed != nil {
		return
	}
	for s.ctx.Err() == nil {
		t := time.Now()
		if s.failed = s.slice(); s.failed != nil {
			return
		}
		if time.Since(t) < s.e.cfg.Slice/4 { // nothing left to search
			return
		}
	}
}

// slice runs one Move and keeps its result. A search cut by stop is not an
// error: the last slice's move stands.
func (s *search) slice() error {
	a, err := s.e.ag.Move(s.ctx, s.st)
	if err != nil {
		if s.ctx.Err() != nil && errors.Is(err, s.ctx.Err()) {
			return nil
		}
		return err
	}
	r := agent.Analysis{WinProb: 0.5, PV: []env.Action{a}} // an agent that does not say
	if an, ok := s.e.ag.(agent.Analyzer); ok {
		r = an.Analysis()
	}
	s.nodes += r.Nodes
	if r.Full && !s.full {
		s.full = true
		s.out(protocol.InfoString{Text: fmt.Sprintf("tree memory full (hash %d MiB): the tree stops growing, the search goes on with its leaves' values; a larger hash searches deeper", s.e.hash)})
	}
	if s.found && r.Depth < s.ana.Depth { // a slice cut short: the deeper result stands
		return nil
	}
	s.found, s.best = true, a
	s.keep(r)
	if time.Since(s.lastInfo) >= s.e.cfg.Slice {
		s.info()
	}
	return nil
}

// progress writes the info line of a depth the agent has finished inside
// one Move, unless a deeper one was written (an earlier slice's).
func (s *search) progress(r agent.Analysis) {
	if len(r.PV) == 0 || (s.found && r.Depth <= s.ana.Depth) {
		return
	}
	nodes := s.nodes
	s.nodes += r.Nodes // this slice's so far
	s.found, s.best = true, r.PV[0]
	s.keep(r)
	s.nodes = nodes
	s.info()
}

// keep copies r, whose slices are the agent's, into s.ana.
func (s *search) keep(r agent.Analysis) {
	pv, moves, lines := s.ana.PV[:0], s.ana.Moves[:0], s.ana.Lines[:0]
	s.ana = r
	s.ana.PV, s.ana.Moves = append(pv, r.PV...), append(moves, r.Moves...)
	s.ana.Lines = lines
	for _, l := range r.Lines {
		l.PV = append([]env.Action(nil), l.PV...)
		s.ana.Lines = append(s.ana.Lines, l)
	}
	s.ana.Nodes = s.nodes
}

// info writes the analysis so far, unless it says what the last one said:
// one line, or with MultiPV one line per move asked for, best first.
func (s *search) info() {
	s.lastInfo = time.Now()
	if !s.found {
		return
	}
	a := s.ana
	pv := a.PV
	if len(pv) == 0 || pv[0] != s.best {
		pv = []env.Action{s.best}
	}
	lines := []protocol.Info{s.infoLine(a, pv)}
	if len(a.Lines) > 1 {
		lines = lines[:0]
		for k, l := range a.Lines {
			in := protocol.Info{Has: protocol.InfoMultiPV | protocol.InfoValue | protocol.InfoWinProb | protocol.InfoPV, MultiPV: k + 1, Value: l.Value, WinProb: agent.ValueWinProb(l.Value)}
			if k == 0 {
				in = s.infoLine(a, l.PV)
				in.Has, in.MultiPV = in.Has|protocol.InfoMultiPV, 1
			} else {
				in.PV = env.Pits(l.PV)
				setScore(&in, l.Score, l.Mate)
				if a.Depth > 0 {
					in.Has, in.Depth = in.Has|protocol.InfoDepth, a.Depth
				}
			}
			lines = append(lines, in)
		}
	}
	var same strings.Builder
	for _, in := range lines {
		same.WriteString(in.Format() + "\n")
	}
	if same.String() == s.lastLine {
		return
	}
	s.lastLine = same.String()
	elapsed := time.Since(s.began)
	for _, in := range lines {
		in.Has |= protocol.InfoTime
		in.Time = elapsed
		if n := in.Nodes; n > 0 && in.MultiPV <= 1 {
			in.Has, in.NPS = in.Has|protocol.InfoNPS, n*int64(time.Second)/int64(max(elapsed, time.Millisecond))
		}
		s.out(in)
	}
}

// infoLine is the info line of analysis a with line pv, less its time.
func (s *search) infoLine(a agent.Analysis, pv []env.Action) protocol.Info {
	in := protocol.Info{Has: protocol.InfoValue | protocol.InfoWinProb | protocol.InfoPV, Value: a.Value, WinProb: a.WinProb, PV: env.Pits(pv)}
	switch {
	case a.Depth > 0:
		in.Has |= protocol.InfoDepth | protocol.InfoSelDepth | protocol.InfoNodes
		in.Depth, in.SelDepth, in.Nodes = a.Depth, max(a.SelDepth, a.Depth), a.Nodes
		if s.e.hash > 0 || a.HashFull > 0 {
			in.Has, in.HashFull = in.Has|protocol.InfoHashFull, a.HashFull
		}
	case a.Visits > 0:
		in.Has |= protocol.InfoNodes | protocol.InfoVisits | protocol.InfoHashFull
		in.Nodes, in.Visits, in.HashFull = a.Nodes, a.Visits, a.HashFull
	}
	if a.Depth > 0 || a.Visits > 0 {
		setScore(&in, a.Score, a.Mate)
	}
	if a.HasWDL {
		in.Has |= protocol.InfoWDL
		in.WDL = perMille(a.WDL)
	}
	return in
}

// setScore gives in the score, or the plies to a proven result.
func setScore(in *protocol.Info, score float32, mate int) {
	if mate != 0 {
		in.Has, in.Mate = in.Has|protocol.InfoMate, mate
		return
	}
	in.Has, in.Score = in.Has|protocol.InfoScore, protocol.Round(score)
}

// perMille rounds chances to per mille that sum to 1000, the draw taking
// the rounding.
func perMille(wdl [3]float32) [3]int {
	w := int(math.Round(float64(wdl[0]) * 1000))
	l := int(math.Round(float64(wdl[2]) * 1000))
	w, l = min(max(w, 0), 1000), min(max(l, 0), 1000-min(max(w, 0), 1000))
	return [3]int{w, 1000 - w - l, l}
}

// finish writes the move statistics and the last info line, and returns
// the move. A search that failed, or was stopped before its first move,
// still answers with a legal move, after an error or info string line.
func (s *search) finish() protocol.BestMove {
	if s.failed != nil {
		s.out(protocol.Error{Text: "search failed: " + s.failed.Error()})
	}
	if !s.found {
		if s.failed == nil {
			s.out(protocol.InfoString{Text: "stopped before the search chose a move: playing a quick one"})
		}
		s.best, s.found = s.fallback(), true
		s.ana = agent.Analysis{PV: []env.Action{s.best}, WinProb: 0.5}
	}
	for _, m := range s.ana.Moves {
		s.out(protocol.MoveInfo{Pit: m.Action.Pit(), Share: m.Share, Value: m.Value})
	}
	if len(s.ana.Moves) > 0 { // the final report comes last, after the move lines, even if it repeats one
		s.lastLine = ""
	}
	s.info()
	return protocol.BestMove{Pit: s.best.Pit(), Ponder: s.ponder()}
}

// ponder returns the pit of the reply the line expects to the best move,
// for bestmove's ponder: the line's second move when the opponent makes
// it (not after a mangala extra turn) and it is legal; 0 otherwise.
func (s *search) ponder() int {
	pv := s.ana.PV
	if len(pv) < 2 || pv[0] != s.best {
		return 0
	}
	next := env.Clone(s.st)
	next.Apply(s.best)
	if next.Result() != env.Ongoing || next.ToMove() == s.st.ToMove() {
		return 0
	}
	if _, err := env.CheckMove(next, pv[1].Pit()); err != nil {
		return 0
	}
	return pv[1].Pit()
}

// fallback returns a quick legal move: greedy's, or the first legal one.
func (s *search) fallback() env.Action {
	if g, err := agent.New(s.st.Spec(), "greedy", s.e.cfg.Seed); err == nil {
		if a, err := g.Move(context.Background(), s.st); err == nil {
			return a
		}
	}
	var buf [env.MaxActions]env.Action
	return s.st.Legal(buf[:0])[0]
}
