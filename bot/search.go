package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"kumalak/agent"
	"kumalak/env"
)

// job is one search started by go.
type job struct {
	infinite bool
	stopped  bool // stop was sent (set by the command loop)
	cancel   context.CancelFunc
	done     chan struct{} // closed after bestmove is written
}

// endless reports whether the job is an infinite search not yet told to
// stop: one that waiting for would never end.
func (j *job) endless() bool {
	if !j.infinite || j.stopped {
		return false
	}
	select {
	case <-j.done:
		return false
	default:
		return true
	}
}

// stop ends the running search, which then writes bestmove.
func (e *engine) stop() {
	if e.job != nil {
		e.job.stopped = true
		e.job.cancel()
	}
}

// wait waits for the running search to write bestmove.
func (e *engine) wait() {
	if e.job != nil {
		<-e.job.done
	}
}

// halt stops the search and waits for it.
func (e *engine) halt() {
	e.stop()
	e.wait()
}

// goArgs are the arguments of go.
type goArgs struct {
	lim      Limits
	clock    [2]time.Duration // wtime, btime
	inc      [2]time.Duration // winc, binc
	toGo     int              // movestogo
	infinite bool
}

// parseGo reads "[sims N] [movetime MS] [depth D] [wtime MS] [btime MS]
// [winc MS] [binc MS] [movestogo N] [infinite]".
func parseGo(args []string) (goArgs, error) {
	var g goArgs
	for i := 0; i < len(args); i++ {
		word := strings.ToLower(args[i])
		if word == "infinite" {
			g.infinite = true
			continue
		}
		if i+1 == len(args) {
			return g, fmt.Errorf("%q needs a number (want go [sims N] [movetime MS] [depth D] [infinite])", word)
		}
		n, err := strconv.Atoi(args[i+1])
		if err != nil || n < 0 {
			return g, fmt.Errorf("%s %q: not a whole number >= 0", word, args[i+1])
		}
		ms := time.Duration(n) * time.Millisecond
		i++
		switch word {
		case "sims", "nodes", "visits":
			g.lim.Sims = n
		case "movetime":
			g.lim.Time = ms
		case "depth":
			g.lim.Depth = n
		case "wtime", "btime":
			g.clock[boolInt(word == "btime")] = ms
		case "winc", "binc":
			g.inc[boolInt(word == "binc")] = ms
		case "movestogo":
			g.toGo = n
		default:
			return g, fmt.Errorf("unknown word %q (want go [sims N] [movetime MS] [depth D] [infinite])", word)
		}
	}
	return g, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// limits returns the search's limits: go's own, else the clock's share
// for the mover, else the options set, else none (the agent's own).
func (g goArgs) limits(mover env.Player, opts Limits) Limits {
	l := g.lim
	if l.Time == 0 && g.clock[mover] > 0 {
		toGo := g.toGo
		if toGo <= 0 {
			toGo = 30
		}
		share := g.clock[mover]/time.Duration(toGo) + g.inc[mover]*3/4
		l.Time = max(10*time.Millisecond, min(share, g.clock[mover]-50*time.Millisecond))
	}
	if l.IsZero() {
		return opts
	}
	return l
}

// cmdGo starts a search of the current position in a goroutine.
func (e *engine) cmdGo(args []string) error {
	g, err := parseGo(args)
	if err != nil {
		return err
	}
	if r := e.st.Result(); r != env.Ongoing {
		e.out.line("info string game is over (%s)", r)
		e.out.line("bestmove none")
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	j := &job{infinite: g.infinite, cancel: cancel, done: make(chan struct{})}
	e.job = j
	s := &search{e: e, ctx: ctx, st: env.Clone(e.st), lim: g.limits(e.st.ToMove(), e.opts),
		infinite: g.infinite, began: time.Now()}
	go func() {
		defer close(j.done)
		defer cancel()
		s.run()
	}()
	return nil
}

// search is the state of one running search.
type search struct {
	e        *engine
	ctx      context.Context
	st       env.State
	lim      Limits
	infinite bool
	began    time.Time
	found    bool
	best     env.Action
	ana      agent.Analysis // copy of the last slice's analysis
	lastInfo time.Time
	lastLine string // the last info line written, less its time
	failed   error
}

// run searches in the way the agent's kind allows, then answers bestmove.
func (s *search) run() {
	keys := agent.Keys(kindOf(s.e.cfg.Agent))
	switch {
	case slices.Contains(keys, "sims") && (s.infinite || s.lim.Sims > 0 || s.lim.Time > 0):
		s.bySims()
	case slices.Contains(keys, "time") && s.infinite:
		s.byTime()
	default:
		s.once()
	}
	s.finish()
}

// agent returns the agent for the base spec with limits l, saying which
// limits it ignores.
func (s *search) agent(l Limits) (agent.Agent, error) {
	spec, ignored, err := applyLimits(s.e.cfg.Agent, l)
	if err != nil {
		return nil, err
	}
	for _, name := range ignored {
		s.e.out.line("info string %s ignored: agent %s has no such limit", name, kindOf(s.e.cfg.Agent))
	}
	return s.e.agentFor(spec)
}

// once runs one Move with the limits; an infinite search then waits for stop.
func (s *search) once() {
	lim := s.lim
	if s.infinite {
		lim = Limits{}
	}
	ag, err := s.agent(lim)
	if err == nil {
		err = s.slice(ag)
	}
	s.failed = err
	if s.infinite && err == nil {
		<-s.ctx.Done()
	}
}

// bySims runs slices of simulations on one agent, whose tree carries over
// from slice to slice, until the limits or stop.
func (s *search) bySims() {
	size := s.e.cfg.SliceSims
	if s.lim.Sims > 0 && !s.infinite {
		k := (s.lim.Sims + size - 1) / size
		size = (s.lim.Sims + k - 1) / k
	}
	if s.lim.Depth > 0 {
		s.e.out.line("info string depth ignored: agent %s searches by simulations", kindOf(s.e.cfg.Agent))
	}
	ag, err := s.agent(Limits{Sims: size})
	if err != nil {
		s.failed = err
		return
	}
	var done int
	for {
		before := s.ana.Nodes
		if err := s.slice(ag); err != nil {
			s.failed = err
			return
		}
		done += size
		exhausted := s.ana.Nodes > 0 && s.ana.Nodes <= before // proven, or the tree is full
		switch {
		case s.ctx.Err() != nil:
			return
		case s.infinite && exhausted:
			<-s.ctx.Done()
			return
		case s.infinite:
		case exhausted, s.lim.Sims > 0 && done >= s.lim.Sims, s.lim.Time > 0 && time.Since(s.began) >= s.lim.Time:
			return
		}
	}
}

// byTime runs slices of Slice time until stop: an alpha-beta agent keeps
// its transposition table, so each slice starts deeper.
func (s *search) byTime() {
	ag, err := s.agent(Limits{Time: s.e.cfg.Slice})
	if err != nil {
		s.failed = err
		return
	}
	for s.ctx.Err() == nil {
		t := time.Now()
		if err := s.slice(ag); err != nil {
			s.failed = err
			return
		}
		if time.Since(t) < s.e.cfg.Slice/4 { // nothing left to search
			<-s.ctx.Done()
		}
	}
}

// slice runs one Move and keeps its result. A search cut by stop is not an
// error: the last slice's move stands.
func (s *search) slice(ag agent.Agent) error {
	a, err := ag.Move(s.ctx, s.st)
	if err != nil {
		if s.ctx.Err() != nil && errors.Is(err, s.ctx.Err()) {
			return nil
		}
		return err
	}
	s.found, s.best = true, a
	s.ana = agent.Analysis{WinProb: 0.5, PV: append(s.ana.PV[:0], a), Moves: s.ana.Moves[:0]} // an agent that does not say
	if an, ok := ag.(agent.Analyzer); ok {
		r := an.Analysis()
		s.ana = agent.Analysis{Value: r.Value, WinProb: r.WinProb, Depth: r.Depth, Nodes: r.Nodes,
			PV: append(s.ana.PV[:0], r.PV...), Moves: append(s.ana.Moves[:0], r.Moves...)}
	}
	if time.Since(s.lastInfo) >= s.e.cfg.Slice {
		s.info()
	}
	return nil
}

// info writes the analysis so far.
func (s *search) info() {
	s.lastInfo = time.Now()
	if !s.found {
		return
	}
	a := s.ana
	var b strings.Builder
	b.WriteString("info")
	switch {
	case a.Depth > 0:
		fmt.Fprintf(&b, " depth %d nodes %d", a.Depth, a.Nodes)
	case a.Nodes > 0:
		fmt.Fprintf(&b, " visits %d", a.Nodes)
	}
	fmt.Fprintf(&b, " value %.4f winprob %.4f", a.Value, a.WinProb)
	head := b.Len()
	fmt.Fprintf(&b, " time %d pv", time.Since(s.began).Milliseconds())
	pv := a.PV
	if len(pv) == 0 || pv[0] != s.best {
		pv = []env.Action{s.best}
	}
	for _, m := range pv {
		fmt.Fprintf(&b, " %d", m.Pit())
	}
	line := b.String()
	if same := line[:head] + line[strings.Index(line[head:], " pv")+head:]; same != s.lastLine {
		s.lastLine = same
		s.e.out.line("%s", line)
	}
}

// finish writes the move statistics, the last info line and bestmove. A
// search that failed, or was stopped before its first move, still answers
// with a legal move, after an error or info string line.
func (s *search) finish() {
	if s.failed != nil {
		s.e.out.line("error search failed: %v", s.failed)
	}
	if !s.found {
		if s.failed == nil {
			s.e.out.line("info string stopped before the search chose a move: playing a quick one")
		}
		s.best, s.found = s.fallback(), true
		s.ana = agent.Analysis{PV: []env.Action{s.best}, WinProb: 0.5}
	}
	for _, m := range s.ana.Moves {
		s.e.out.line("info move %d share %.4f value %.4f", m.Action.Pit(), m.Share, m.Value)
	}
	s.info()
	s.e.out.line("bestmove %d", s.best.Pit())
}

// fallback returns a quick legal move: greedy's, or the first legal one.
func (s *search) fallback() env.Action {
	if g, err := agent.New(s.st.Spec(), "greedy", s.e.cfg.Seed); err == nil {
		if a, err := g.Move(context.Background(), s.st); err == nil {
			return a
		}
	}
	var buf [32]env.Action
	return s.st.Legal(buf[:0])[0]
}
