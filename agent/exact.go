package agent

import (
	"cmp"
	"fmt"
	"time"

	"kumalak/env"
	"kumalak/mcts"
	"kumalak/solve"
)

// exactKeyDoc documents the exact key of mcts and model.
var exactKeyDoc = key{exactKey, DefaultExact.String(), "exact solver's budget a move once at most half the stones are on the board, or the tablebase's stones and 10 more when that is more (mangala, mangala-kale, kalah): a move of the proved best value is played, none proved worse than another (near the classic mangala start, by the shipped proofs); with time= at most half of it, with sims alone nodes worth about that long (repeatable); 0 turns it off (and is a level's default)"}

const exactKey = "exact"

// DefaultExact is the exact solver's budget a move when the spec gives
// none: on the 2-core AMD EPYC of BENCHMARKS.md it settles nearly every
// position of up to 16 stones of mangala and kalah (docs/TABLEBASE.md).
const DefaultExact = 250 * time.Millisecond

// tbReach is how many stones above its tablebase's the exact solver
// tries a position: with the 16-stone tablebases of the cache, on the
// 2-core AMD EPYC of BENCHMARKS.md, most kalah positions of up to 30
// stones and mangala ones of up to 26 settle within 100 ms
// (docs/TABLEBASE.md, "Exact endgames by default").
const tbReach = 10

// MaxExact is the largest exact= budget.
const MaxExact = time.Minute

// ExactNodesPerSecond turns an exact= budget into solver nodes when the
// agent searches by simulations alone: about one core's rate on the 2-core
// AMD EPYC of BENCHMARKS.md while loaded (1 to 2 million a second idle).
const ExactNodesPerSecond = 1_000_000

// exactTTBits sizes the solver's table: 2^18 slots of 16 bytes, 4 MiB,
// made at the first solve and kept across moves and games (its values are
// exact, so never stale).
const exactTTBits = 18

// exactSolver runs the exact solver ahead of a search (the exact key). Near
// the classic mangala start it reads the shipped proofs instead (a book:
// solve.ShippedBook), keeping to the moves none is proved to beat. It
// tries a position once at most half the game's stones are on the board
// (with a tablebase, up to tbReach stones more than it holds, when that
// is more), and after a position it left unsettled, again only once two more stones
// have left the board: a solve's work grows with the stones, which never
// grow during a game.
type exactSolver struct {
	solver *solve.Solver // nil: off
	book   *solve.Book   // the game's shipped proofs near the start; nil: none
	budget time.Duration
	most   int          // the most stones on the board of a position tried
	failed int          // stones of the last position left unsettled; 0: none
	res    solve.Result // the last solve; its Moves are reused
	ran    bool         // the last move ran a solve
}

// newExact reads the exact key; the solver probes tb (may be nil) inside
// it.
func newExact(spec *env.Spec, o *options, tb *solve.Tablebase) (exactSolver, error) {
	budget := DefaultExact
	if v := o.str(exactKey, ""); v != "" {
		d, err := parseBudget(v)
		if err != nil {
			return exactSolver{}, err
		}
		budget = d
	}
	if budget == 0 || solve.Solvable(spec) != nil {
		return exactSolver{}, nil
	}
	cfg := solve.DefaultConfig()
	cfg.TTBits, cfg.Tablebase = exactTTBits, tb
	s, err := solve.New(cfg)
	if err != nil {
		return exactSolver{}, err
	}
	book, err := solve.ShippedBook(spec)
	if err != nil {
		return exactSolver{}, err
	}
	tbStones := 0
	if tb != nil {
		tbStones = tb.Stones()
	}
	return exactSolver{solver: s, book: book, budget: budget, most: exactMost(spec, tbStones), res: solve.Result{Moves: make([]solve.MoveValue, 0, spec.NumActions)}}, nil
}

// exactMost returns the most stones on the board of a position the exact
// solver tries: half the game's, or tbReach more than a tablebase of
// tbStones (0: none) when that is more.
func exactMost(spec *env.Spec, tbStones int) int {
	return max(spec.Stones/2, tbStones+tbReach)
}

// parseBudget reads an exact= value: 0 or a duration in 1ms..MaxExact.
func parseBudget(v string) (time.Duration, error) {
	if v == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%s: not a duration such as 250ms (0 turns it off)", exactKey, v)
	}
	if d < time.Millisecond || d > MaxExact {
		return 0, fmt.Errorf("%s=%s out of range 1ms..%v (0 turns it off)", exactKey, v, MaxExact)
	}
	return d, nil
}

// run looks st up in the book, else solves st within its share of lim when st is worth trying, and
// returns the limits left to the search: with a time limit, the time left;
// when the solve proved st's value, a search of defSims at most, enough to
// choose among the best moves.
func (e *exactSolver) run(st env.State, lim mcts.Limits, defSims int) (mcts.Limits, error) {
	e.ran = false
	if e.solver == nil {
		return lim, nil
	}
	if e.book != nil {
		if r, ok := e.book.Moves(st, e.res.Moves); ok { // near the start: the shipped proofs, no solve
			e.res, e.ran = r, true
			return lim, nil
		}
	}
	n, ok := solve.Stones(st)
	if !ok || n > e.most || (n <= e.failed && n > e.failed-2) {
		return lim, nil
	}
	b := solve.Budget{Nodes: uint64(e.budget.Seconds() * ExactNodesPerSecond)}
	if lim.Time > 0 {
		b = solve.Budget{Time: min(e.budget, lim.Time/2)}
	}
	r, err := e.solver.SolveWithin(st, b, e.res.Moves)
	if err != nil {
		return lim, fmt.Errorf("exact: %w", err)
	}
	e.res, e.ran, e.failed = r, true, 0
	if !r.Exact() {
		e.failed = n
	}
	if lim.Time > 0 {
		lim.Time = max(lim.Time-r.Elapsed, time.Millisecond)
	}
	if r.Exact() && lim.Sims == 0 {
		lim.Sims = defSims
	}
	return lim, nil
}

// allowed reports whether the last solve lets the agent play a: when it
// proved the position's value, a reaches it; otherwise a is not proved
// worse than another move.
func (e *exactSolver) allowed(a env.Action) bool {
	for _, m := range e.res.Moves {
		if m.Action == a {
			if e.res.Exact() {
				return m.Lo >= e.res.Lo
			}
			return m.Hi >= e.res.Lo
		}
	}
	return false
}

// proved reports whether the last move's solve proved the position's
// value.
func (e *exactSolver) proved() bool { return e.ran && e.res.Exact() && len(e.res.Moves) > 0 }

// best returns the first move of the proved value (after proved).
func (e *exactSolver) best() env.Action {
	for _, m := range e.res.Moves {
		if m.Lo >= e.res.Lo {
			return m.Action
		}
	}
	panic("agent: exact: no move reaches the proved value")
}

// choose returns the search's choice a when the last solve allows it, else
// the most visited allowed move of kids (sorted by visits), else the first
// allowed move.
func (e *exactSolver) choose(a env.Action, kids []mcts.ChildStats) env.Action {
	if !e.ran || len(e.res.Moves) == 0 || e.allowed(a) {
		return a
	}
	for _, k := range kids {
		if e.allowed(k.Action) {
			return k.Action
		}
	}
	for _, m := range e.res.Moves {
		if e.allowed(m.Action) {
			return m.Action
		}
	}
	return a // not reached: a best move is allowed
}

// report makes the analysis lead with a, the move played, and writes a
// proved value into it: the position's result as its value, the final
// store difference as its score, and each move's proved result as that
// move's value.
func (e *exactSolver) report(ana *Analysis, a env.Action) {
	if !e.ran || len(e.res.Moves) == 0 {
		return
	}
	if len(ana.PV) == 0 || ana.PV[0] != a {
		ana.PV = append(ana.PV[:0], a)
	}
	if !e.res.Exact() {
		return
	}
	ana.Value = float32(cmp.Compare(e.res.Lo, 0))
	ana.WinProb = ValueWinProb(ana.Value)
	ana.Score = float32(e.res.Lo)
	for i := range ana.Moves {
		for _, m := range e.res.Moves {
			if m.Action == ana.Moves[i].Action && m.Exact() {
				ana.Moves[i].Value = float32(cmp.Compare(m.Lo, 0))
			}
		}
	}
}
