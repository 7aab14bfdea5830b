package agent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"

	"kumalak/env"
	"kumalak/mcts"
	"kumalak/solve"
)

// mctsKeys are the keys of the mcts kind; model shares most of them
// (searchkeys.go).
var mctsKeys = withKeys([]key{
	simsKey("800"),
	timeKeyDoc,
	{"rollouts", "1", "random playouts per leaf (1..1000)"},
	cpuctKey("1.25"),
}, treeKeys, []key{exactKeyDoc})

// The keys of the tree's threads and memory, shared by mcts and model.
var (
	threadsKeyDoc = key{"threads", "1", "search threads sharing one tree, with virtual loss (1..the machine's cores)"}
	hashKeyDoc    = key{"hash", strconv.Itoa(DefaultTreeHash), "tree memory in MiB (1..4096); when full the tree stops growing and the search goes on with its leaves' values"}
)

// DefaultTreeHash is the tree memory of the mcts and model agents in MiB:
// room for a minute's search on two threads of this project's togyz
// models (a simulation opens a leaf of 9 children of 32 bytes, about 250
// bytes a simulation kept, at some 70,000 simulations a second on two
// threads of a 2-core AMD EPYC: docs/notes/2026-12-05-long-searches.md).
// Memory is taken as the tree grows, so short searches use little of it.
const DefaultTreeHash = 2048

// searcher plays with an mcts.Search: the mcts and model kinds.
type searcher struct {
	search  *mcts.Search
	lim     mcts.Limits
	defSims int // sims when neither sims nor time is given
	temp    float32
	reuse   bool
	cur     env.State // the search's root, when rooted
	rooted  bool
	ana     Analysis
	kids    []mcts.ChildStats
	multi   int               // lines to report (MultiPV); 0 or 1: one
	tb      *solve.Tablebase  // the search's oracle (tablebase=), closed by Close
	tbMoves []solve.MoveValue // scratch: the root's exact move values (perfect)
	hash    int               // tree memory in MiB
	threads int               // search threads
	newEval func() mcts.Evaluator
	score   scorer // the reported scores' calibration
	exact   exactSolver
}

// SetMultiPV sets the lines to report, in 1..MaxMultiPV: the n most
// visited root moves, the best with its whole line, the others with
// their first move.
func (m *searcher) SetMultiPV(n int) error {
	if n < 1 || n > MaxMultiPV {
		return fmt.Errorf("mcts: multipv %d out of range 1..%d", n, MaxMultiPV)
	}
	m.multi = n
	return nil
}

func newMCTS(spec *env.Spec, o *options, rng *rand.Rand) (Agent, error) {
	cfg := mcts.DefaultConfig()
	n, err := o.int("rollouts", 1, 1, 1000)
	if err != nil {
		return nil, err
	}
	cfg.Rollouts = n
	m, err := newSearcherAgent(spec, nil, nil, cfg, o, 800, rng)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// newSearcherAgent reads the search keys shared by mcts and model into cfg
// and returns the agent; defSims is the default of sims, newEval makes the
// evaluator of each further thread (nil for rollouts).
func newSearcherAgent(spec *env.Spec, ev mcts.Evaluator, newEval func() mcts.Evaluator, cfg mcts.Config, o *options, defSims int, rng *rand.Rand) (*searcher, error) {
	var err error
	m := &searcher{cur: spec.New(), defSims: defSims, newEval: newEval, score: newScorer(spec)}
	if err := m.SetLimits(o.lim); err != nil {
		return nil, err
	}
	cpuct, err := o.float("cpuct", float64(cfg.CPuct), 1e-3, 100)
	if err != nil {
		return nil, err
	}
	temp, err := o.float("temp", 0, 0, 100)
	if err != nil {
		return nil, err
	}
	if cfg.Solver, err = o.bool("solver", cfg.Solver); err != nil {
		return nil, err
	}
	if m.reuse, err = o.bool("reuse", true); err != nil {
		return nil, err
	}
	cfg.CPuct, m.temp = float32(cpuct), float32(temp)
	if m.hash, err = o.int("hash", DefaultTreeHash, 1, MaxHash); err != nil {
		return nil, err
	}
	cfg.MaxNodes = treeNodes(m.hash)
	threads, err := o.int("threads", 1, 1, MaxThreads())
	if err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m.start(spec, ev, cfg, rng)
	if err := m.SetThreads(threads); err != nil {
		return nil, err
	}
	if err := m.setOracle(o); err != nil {
		return nil, err
	}
	if m.exact, err = newExact(spec, o, m.tb); err != nil {
		return nil, errors.Join(err, m.Close())
	}
	return m, nil
}

// treeNodes is the arena size of a tree of mib MiB.
func treeNodes(mib int) int { return mib << 20 / mcts.NodeBytes }

// MaxThreads is the most search threads an agent takes: the machine's
// cores.
func MaxThreads() int { return runtime.NumCPU() }

// SetThreads sets the threads of the next searches, in 1..MaxThreads.
func (m *searcher) SetThreads(n int) error {
	if n < 1 || n > MaxThreads() {
		return fmt.Errorf("mcts: threads %d out of range 1..%d", n, MaxThreads())
	}
	eval := m.newEval
	if eval == nil {
		eval = func() mcts.Evaluator { return nil }
	}
	if err := m.search.SetThreads(n, eval); err != nil {
		return err
	}
	m.threads = n
	return nil
}

// Threads returns the search threads.
func (m *searcher) Threads() int { return m.threads }

// SetHash bounds the tree at mib MiB, in 1..MaxHash; a tree already larger
// is dropped.
func (m *searcher) SetHash(mib int) error {
	lo, hi := m.HashRange()
	if mib < lo || mib > hi {
		return fmt.Errorf("mcts: hash %d MiB out of range %d..%d", mib, lo, hi)
	}
	if err := m.search.SetMaxNodes(treeNodes(mib)); err != nil {
		return err
	}
	m.hash = mib
	return nil
}

// Hash returns the tree's memory bound in MiB.
func (m *searcher) Hash() int { return m.hash }

// HashRange returns the sizes SetHash takes.
func (m *searcher) HashRange() (lo, hi int) { return 1, MaxHash }

// MaxLimits: a search takes sims and a time.
func (m *searcher) MaxLimits() Limits { return searchMaxLimits }

// Limits returns the sims and time of the next search.
func (m *searcher) Limits() Limits { return Limits{Sims: m.lim.Sims, Time: m.lim.Time} }

// SetLimits sets the sims and time of the next searches: without either,
// the default sims; with a time alone, no sims limit.
func (m *searcher) SetLimits(l Limits) error {
	if err := l.check(m.MaxLimits()); err != nil {
		return err
	}
	if l.Sims == 0 && l.Time == 0 {
		l.Sims = m.defSims
	}
	if l.Sims == 0 && l.Time == 0 {
		return fmt.Errorf("sims=0 needs time=")
	}
	m.lim = mcts.Limits{Sims: l.Sims, Time: l.Time}
	return nil
}

// start makes m's search and the buffers of its analysis.
func (m *searcher) start(spec *env.Spec, ev mcts.Evaluator, cfg mcts.Config, rng *rand.Rand) {
	m.search = mcts.New(spec, ev, cfg, rng)
	m.ana.PV = make([]env.Action, 0, maxPly)
	m.ana.Moves = make([]MoveStat, 0, spec.NumActions)
	m.kids = make([]mcts.ChildStats, 0, spec.NumActions)
}

// Move searches from st, reusing the tree when its root is st, and returns
// the chosen move.
func (m *searcher) Move(ctx context.Context, st env.State) (env.Action, error) {
	if st.Result() != env.Ongoing {
		return 0, ErrGameOver
	}
	if !m.rooted || !env.Same(m.cur, st) {
		m.search.Reset(st)
		m.cur.CopyFrom(st)
		m.rooted = true
	}
	lim, err := m.exact.run(st, m.lim, m.defSims)
	if err != nil {
		return 0, fmt.Errorf("agent: %w", err)
	}
	err = m.search.Run(ctx, lim)
	stopped := err != nil && ctx.Err() != nil && m.search.Root().Visits < 2
	if err != nil && (ctx.Err() == nil || stopped) && !(stopped && m.exact.proved()) {
		return 0, fmt.Errorf("agent: %w", err) // a failure, or stopped before any move was searched
	}
	m.analyse()
	var a env.Action
	if stopped { // stopped during the solve, which proved the value: a move of it
		a = m.exact.best()
	} else {
		a = m.exact.choose(m.search.Choose(m.temp), m.kids)
	}
	m.exact.report(&m.ana, a)
	return m.perfect(st, a), nil
}

// perfect returns a, or, when the root st is inside the search's
// tablebase and a loses stones there, the most visited of the moves that
// keep the position's exact value. The oracle proves wins, draws and
// losses alone, so a search that found a win may still play one that wins
// by fewer stones; inside the tablebase the agent plays perfectly, and
// its analysis leads with the move played.
func (m *searcher) perfect(st env.State, a env.Action) env.Action {
	if m.tb == nil {
		return a
	}
	moves, ok := m.tb.MovesOf(st, m.tbMoves[:0])
	m.tbMoves = moves
	if !ok || len(moves) == 0 {
		return a
	}
	best := moves[0].Lo
	for _, mv := range moves[1:] {
		best = max(best, mv.Lo)
	}
	for _, mv := range moves {
		if mv.Action == a && mv.Lo == best {
			return a
		}
	}
	choice, visits := a, -1
	for _, k := range m.kids {
		for _, mv := range moves {
			if mv.Action == k.Action && mv.Lo == best && k.Visits > visits {
				choice, visits = k.Action, k.Visits
			}
		}
	}
	if visits < 0 { // no child of the root kept a best move: the tablebase's first
		for _, mv := range moves {
			if mv.Lo == best {
				choice = mv.Action
				break
			}
		}
	}
	m.ana.PV = append(m.ana.PV[:0], choice)
	return choice
}

// Played moves the root along a played move, keeping its subtree.
func (m *searcher) Played(a env.Action, next env.State) {
	if !m.reuse || !m.rooted {
		m.rooted = false
		return
	}
	m.search.Advance(a, next)
	m.cur.CopyFrom(next)
}

// Reset drops the tree and the exact solver's memory of the positions it
// left unsettled (not its table: its values never go stale).
func (m *searcher) Reset() { m.rooted, m.exact.failed = false, 0 }

// Analysis describes the last search.
func (m *searcher) Analysis() Analysis { return m.ana }

// analyse copies the root's figures into the analysis, moves by visits.
func (m *searcher) analyse() {
	root := m.search.Root()
	m.ana.Value = root.Value
	m.ana.WinProb = ValueWinProb(root.Value)
	m.ana.Score = m.score.of(m.ana.WinProb)
	m.ana.Nodes = int64(root.Sims)
	m.ana.Visits = int64(root.Visits)
	m.ana.HashFull = min(1000, int(root.Used*1000))
	m.ana.Full = root.Full
	m.ana.PV = m.search.PV(m.ana.PV[:0])
	m.kids = m.search.Children(m.kids[:0])
	for i := 1; i < len(m.kids); i++ { // by visits, stable
		for j := i; j > 0 && m.kids[j].Visits > m.kids[j-1].Visits; j-- {
			m.kids[j], m.kids[j-1] = m.kids[j-1], m.kids[j]
		}
	}
	total := 0
	for _, k := range m.kids {
		total += k.Visits
	}
	m.ana.Moves = m.ana.Moves[:0]
	for _, k := range m.kids {
		s := MoveStat{Action: k.Action, Value: k.Q}
		if total > 0 {
			s.Share = float32(k.Visits) / float32(total)
		}
		m.ana.Moves = append(m.ana.Moves, s)
	}
	m.ana.Lines = m.ana.Lines[:0]
	for i, k := range m.kids {
		if m.multi <= 1 || i == m.multi {
			break
		}
		l := Line{PV: []env.Action{k.Action}, Value: k.Q, WinProb: ValueWinProb(k.Q), Score: m.score.of(ValueWinProb(k.Q))}
		if len(m.ana.PV) > 0 && m.ana.PV[0] == k.Action {
			l.PV = m.ana.PV
		}
		m.ana.Lines = append(m.ana.Lines, l)
	}
}

// scorer turns MCTS win probabilities into scores for one game: its
// calibration, looked up once when the agent is built.
type scorer struct {
	cal  Calibration
	ok   bool // the game has a calibration
	half float64
}

func newScorer(spec *env.Spec) scorer {
	c, ok := CalibrationOf(spec.Name)
	return scorer{cal: c, ok: ok, half: float64(spec.Stones) / 2}
}

// of is the score of an MCTS win probability p: the store lead whose
// calibrated alpha-beta chance is p (Calibration.Score), within half the
// stones; for a game without a calibration, p's logit in units of
// ln(3)/10 (a 0.75 chance scores 10).
func (s scorer) of(p float32) float32 {
	q := min(max(float64(p), 1e-6), 1-1e-6)
	if s.ok {
		return float32(s.cal.Score(q, s.half))
	}
	return float32(10 * math.Log(q/(1-q)) / math.Log(3))
}
