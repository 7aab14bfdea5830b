package arena

import (
	"context"
	"errors"
	"fmt"

	"kumalak/agent"
	"kumalak/env"
)

// maxFailures is how many games in a row an agent may lose by failing
// before the match gives up on it.
const maxFailures = 3

// guard is one side's agent in a match, as cutechess-cli's -recover
// keeps engines: a move that fails (the program crashed, hung past its
// time, answered an illegal move, or any other error) loses that game,
// and the agent is built anew for the next one. It tracks the moves of
// the game, for the record of a lost one.
type guard struct {
	ag     agent.Agent
	build  func() (agent.Agent, error)
	fault  error        // the failure of the current game
	fails  int          // games in a row lost by failing
	moves  []env.Action // the moves played since Reset
	broken bool         // the agent was closed after a fault
}

// guarded builds the agent of spec s for a worker.
func (m *Match) guarded(s string, seed uint64) (*guard, error) {
	build := func() (agent.Agent, error) { return m.newAgent()(m.Spec, s, seed) }
	a, err := build()
	if err != nil {
		return nil, err
	}
	return &guard{ag: a, build: build}, nil
}

// Move asks the agent, and checks its move; a failure is kept as the
// game's fault. A move cut by ctx is not a fault.
func (g *guard) Move(ctx context.Context, st env.State) (env.Action, error) {
	if g.fault != nil {
		return 0, g.fault
	}
	a, err := g.ag.Move(ctx, st)
	if ctx.Err() != nil {
		return a, err
	}
	if err == nil {
		if _, cerr := env.CheckMove(st, a.Pit()); cerr != nil {
			err = fmt.Errorf("played pit %d in %s: %w", a.Pit(), st, cerr)
		}
	}
	if err != nil {
		g.fault = err
	}
	return a, err
}

// Reset starts a game: the moves and the fault are cleared.
func (g *guard) Reset() {
	g.fault, g.moves = nil, g.moves[:0]
	if r, ok := g.ag.(agent.Resetter); ok {
		r.Reset()
	}
}

// Played records the move and tells the agent.
func (g *guard) Played(a env.Action, next env.State) {
	g.moves = append(g.moves, a)
	observe(g.ag, a, next)
}

// Analysis is the agent's, when it has one.
func (g *guard) Analysis() agent.Analysis {
	if an, ok := g.ag.(agent.Analyzer); ok {
		return an.Analysis()
	}
	return agent.Analysis{}
}

// Close closes the agent when it holds resources.
func (g *guard) Close() error {
	if g.broken {
		return nil
	}
	g.broken = true
	return agent.Close(g.ag)
}

// restart replaces the agent after a fault by a new one.
func (g *guard) restart() error {
	_ = g.Close() // the old one failed: its close error says nothing new
	a, err := g.build()
	if err != nil {
		return err
	}
	g.ag, g.broken = a, false
	return nil
}

// forfeit turns the failure of a game into a loss for the side whose move
// failed, restarts that side's agent, and returns the game's record; an
// error that is no side's fault, or a side failing maxFailures games in a
// row, or a failed restart, ends the match.
func (m *Match) forfeit(start env.State, open []env.Action, white, black player, aWhite bool, note Notation, err error) (*Record, env.Result, int, error) {
	w, b := white.ag.(*guard), black.ag.(*guard)
	loser, side, res := w, white, env.BlackWins
	switch {
	case errors.Is(err, errAborted):
		return nil, env.Ongoing, 0, err
	case w.fault != nil:
	case b.fault != nil:
		loser, side, res = b, black, env.WhiteWins
	default:
		return nil, env.Ongoing, 0, err
	}
	loser.fails++
	colour := "white"
	if loser == b {
		colour = "black"
	}
	reason := fmt.Sprintf("%s (%s) forfeits: %v", colour, side.spec, loser.fault)
	if loser.fails >= maxFailures {
		return nil, env.Ongoing, 0, fmt.Errorf("arena: %s failed %d games in a row; the last: %s", side.spec, loser.fails, reason)
	}
	if rerr := loser.restart(); rerr != nil {
		return nil, env.Ongoing, 0, fmt.Errorf("arena: restart %s after %s: %w", side.spec, reason, rerr)
	}
	st := env.Clone(start)
	all := append(append([]env.Action(nil), open...), w.moves...)
	for _, a := range all {
		st.Apply(a) // played and checked
	}
	rec := &Record{Game: st.Spec().Name, White: white.spec, Black: black.spec, Start: start.String(), Opening: env.Pits(open),
		Moves: env.Pits(w.moves), Result: res.String(), Reason: reason, Forfeit: colour, Final: st.String()}
	if n, nerr := note(start, all); nerr == nil {
		rec.Notation = n
	}
	return rec, res, forfeitOf(colour, aWhite), nil
}
