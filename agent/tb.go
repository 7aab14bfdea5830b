package agent

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"kumalak/env"
	"kumalak/solve"
)

// tbKeys are the keys of the tb kind.
var tbKeys = []key{
	{"dir", "none", "the tablebase folder (kumalak tablebase build); auto or auto:N: the N-stone one (16) in the user's cache folder, built on first use; without it the solver alone"},
	{"time", "1s", "the solver's time per move outside the tablebase, e.g. 2s"},
	{"tt", "64", "the solver's transposition table in MiB (1..4096)"},
}

// tbDefaultTime is the solver's time per move when the spec gives none.
const tbDefaultTime = time.Second

// tbAgent plays a game the solver takes (env.Facts.Solver) perfectly where
// it can: inside the tablebase the exact value of every move (classic
// mangala's, probed here; kalah's, through the solver), outside it the
// exact solver for half its time. When the solver proves no move best in that time (the middle
// game), alpha-beta searches for the other half, and its move is played
// unless the solver proved it worse than another. Among equal best moves
// it draws one.
type tbAgent struct {
	tb     *solve.Tablebase // nil: the solver alone
	solver *solve.Solver
	fb     *alphaBeta // the middle game's fallback
	limit  time.Duration
	rng    *rand.Rand
	moves  []solve.MoveValue
	ties   []env.Action
	game   string
	cal    Calibration // the game's, looked up once
	calOK  bool
	walk   env.State // scratch of the line
	ana    Analysis
}

func newTB(spec *env.Spec, o *options, rng *rand.Rand) (Agent, error) {
	if err := solve.Solvable(spec); err != nil {
		return nil, fmt.Errorf("tb: %w", err)
	}
	mib, err := o.int("tt", 64, 1, MaxHash)
	if err != nil {
		return nil, err
	}
	t := &tbAgent{rng: rng, game: spec.Name, walk: spec.New(), moves: make([]solve.MoveValue, 0, spec.NumActions)}
	t.cal, t.calOK = CalibrationOf(spec.Name)
	t.fb = newSearcher(spec, MaxDepth, tbDefaultTime/2, abDefaultMob, abDefaultTT, rng)
	if err := t.SetLimits(o.lim); err != nil {
		return nil, err
	}
	if t.tb, err = solve.OpenSetting(spec, o.str("dir", "")); err != nil {
		return nil, err
	}
	cfg := solve.DefaultConfig()
	cfg.TTBits, cfg.Tablebase = ttBits(mib), t.tb
	if t.solver, err = solve.New(cfg); err != nil {
		return nil, errors.Join(err, t.Close())
	}
	t.ana.PV = make([]env.Action, 0, maxPly)
	t.ana.Moves = make([]MoveStat, 0, spec.NumActions)
	return t, nil
}

// ttBits returns the largest table of 16-byte slots within mib MiB.
func ttBits(mib int) int {
	bits := 4
	for bits < 34 && (uint64(16)<<(bits+1)) <= uint64(mib)<<20 {
		bits++
	}
	return bits
}

// Close unmaps the tablebase.
func (t *tbAgent) Close() error {
	if t.tb == nil {
		return nil
	}
	err := t.tb.Close()
	t.tb = nil
	return err
}

// MaxLimits: the solver takes a time.
func (t *tbAgent) MaxLimits() Limits { return tbMaxLimits }

// Limits returns the solver's time per move.
func (t *tbAgent) Limits() Limits { return Limits{Time: t.limit} }

// SetLimits sets the solver's time per move; none is a second.
func (t *tbAgent) SetLimits(l Limits) error {
	if err := l.check(t.MaxLimits()); err != nil {
		return fmt.Errorf("tb: %w", err)
	}
	t.limit = l.Time
	if t.limit == 0 {
		t.limit = tbDefaultTime
	}
	return t.fb.SetLimits(Limits{Time: max(t.limit/2, time.Millisecond)})
}

// Move returns a best move of st: exact inside the tablebase or when the
// solver finishes in time, else the best bound.
func (t *tbAgent) Move(ctx context.Context, st env.State) (env.Action, error) {
	if st.Result() != env.Ongoing {
		return 0, ErrGameOver
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("agent: tb: %w", err)
	}
	if st.Spec().Name != t.game {
		return 0, fmt.Errorf("agent: tb: a %s position for a %s player", st.Spec().Name, t.game)
	}
	nodes := int64(1)
	var inTB bool
	if t.tb != nil {
		t.moves, inTB = t.tb.MovesOf(st, t.moves[:0])
	}
	if !inTB {
		r, err := t.solver.Solve(st, max(t.limit/2, time.Millisecond))
		if err != nil {
			return 0, fmt.Errorf("agent: %w", err)
		}
		t.moves, nodes = append(t.moves[:0], r.Moves...), int64(r.Nodes)
	}
	a := t.choose()
	if !inTB && !t.proven(a) {
		fa, err := t.fb.Move(ctx, st)
		if err != nil {
			return 0, fmt.Errorf("agent: tb: %w", err)
		}
		if !t.refuted(fa, a) {
			a = fa
		}
	}
	t.analyse(st, a, nodes)
	return a, nil
}

// proven reports whether move a is proven best: its lower bound reaches
// every other move's upper bound.
func (t *tbAgent) proven(a env.Action) bool {
	lo := t.value(a).Lo
	for _, m := range t.moves {
		if m.Action != a && m.Hi > lo {
			return false
		}
	}
	return true
}

// refuted reports whether move a is proven worse than move b.
func (t *tbAgent) refuted(a, b env.Action) bool { return t.value(a).Hi < t.value(b).Lo }

// value returns the solver's bounds of move a.
func (t *tbAgent) value(a env.Action) solve.MoveValue {
	for _, m := range t.moves {
		if m.Action == a {
			return m
		}
	}
	panic(fmt.Sprintf("agent: tb: move %d has no value", a))
}

// choose returns one of the moves with the highest lower bound, then the
// highest upper bound, drawn at random among equals.
func (t *tbAgent) choose() env.Action {
	best := t.moves[0]
	for _, m := range t.moves[1:] {
		if m.Lo > best.Lo || (m.Lo == best.Lo && m.Hi > best.Hi) {
			best = m
		}
	}
	t.ties = t.ties[:0]
	for _, m := range t.moves {
		if m.Lo == best.Lo && m.Hi == best.Hi {
			t.ties = append(t.ties, m.Action)
		}
	}
	return t.ties[t.rng.IntN(len(t.ties))]
}
