package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"kumalak/env"
	"kumalak/protocol"
)

// Move sends the position and go, reads info lines into the analysis and
// returns the bestmove, checked for legality. When ctx ends first the
// engine is told stop and its answer, if it comes within the grace time,
// is still played. A dead engine, a refused command, "bestmove none" and
// an illegal move are errors; after the engine has died every Move fails.
func (e *EngineClient) Move(ctx context.Context, st env.State) (env.Action, error) {
	if st.Result() != env.Ongoing {
		return 0, ErrGameOver
	}
	if e.failed != nil {
		return 0, e.failed
	}
	e.ana = Analysis{PV: e.ana.PV[:0], Moves: e.ana.Moves[:0]}
	limit := e.cfg.timeout()
	if e.clock != nil { // the clock is the limit; the caller cancels at the flag
		limit = e.clock.Left[st.ToMove()] + e.cfg.Grace
	}
	sctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	best, err := e.client.Search(sctx, e.position(st), e.goCommand(), e.cfg.Grace, e.readInfo)
	late := ctx.Err() == nil && sctx.Err() != nil // our timeout, not the caller's
	switch {
	case errors.Is(err, protocol.ErrEnded), errors.Is(err, protocol.ErrNoAnswer):
		e.failed = e.describe(e.explain(err))
		if late {
			e.failed = e.describe(fmt.Errorf("engine hung: no bestmove within %v, nor %v after stop", limit, e.cfg.Grace))
		}
		return 0, e.failed
	case err != nil:
		return 0, e.describe(err)
	case late:
		return 0, e.describe(fmt.Errorf("engine exceeded its time: no bestmove within %v", limit))
	}
	a, err := e.check(st, best)
	if err != nil {
		return 0, err
	}
	e.cur.Apply(a) // position made cur st; check checked a
	e.moves = append(e.moves, a.Pit())
	return a, nil
}

// position writes st as the tracked root and moves when st is the
// tracked position, else as its own position string.
func (e *EngineClient) position(st env.State) protocol.Position {
	if e.cur == nil || !env.Same(e.cur, st) {
		e.track(st)
	}
	return protocol.Position{Start: e.root, Moves: append([]int(nil), e.moves...)}
}

// goCommand is go with the clock (wtime btime winc binc, and movestogo),
// set by SetClock before this move, else with the configured limits.
func (e *EngineClient) goCommand() protocol.Go {
	if c := e.clock; c != nil {
		e.clock = nil
		ms := func(d time.Duration) time.Duration { return max(time.Millisecond, d.Truncate(time.Millisecond)) }
		return protocol.Go{Time: [2]time.Duration{ms(c.Left[0]), ms(c.Left[1])}, Inc: [2]time.Duration{c.Inc[0].Truncate(time.Millisecond), c.Inc[1].Truncate(time.Millisecond)}, MovesToGo: c.MovesToGo}
	}
	l := e.cfg.Limits
	g := protocol.Go{Sims: l.Sims, Depth: l.Depth}
	if l.Time > 0 {
		g.MoveTime = max(time.Millisecond, l.Time.Truncate(time.Millisecond))
	}
	return g
}

// check reads the bestmove and checks it against st.
func (e *EngineClient) check(st env.State, best protocol.BestMove) (env.Action, error) {
	if best.Pit == 0 {
		return 0, e.describe(fmt.Errorf("engine gave no move: %q", best.Format()))
	}
	a, err := env.CheckMove(st, best.Pit)
	if err != nil {
		return 0, e.describe(fmt.Errorf("engine played %d in %s: %w", best.Pit, st, err))
	}
	if len(e.ana.PV) == 0 || e.ana.PV[0] != a {
		e.ana.PV = append(e.ana.PV[:0], a)
	}
	return a, nil
}

// readInfo keeps what an info line says; pits outside the game are
// dropped.
func (e *EngineClient) readInfo(ans protocol.Answer) {
	switch in := ans.(type) {
	case protocol.MoveInfo:
		if in.Pit <= e.spec.NumActions {
			e.ana.Moves = append(e.ana.Moves, MoveStat{Action: env.Action(in.Pit - 1), Share: in.Share, Value: in.Value})
		}
	case protocol.Info:
		e.readSearchInfo(in)
	}
}

// readSearchInfo keeps the fields of an info line that it gives; of
// MultiPV lines only the best (multipv 1) counts.
func (e *EngineClient) readSearchInfo(in protocol.Info) {
	if in.Has&protocol.InfoMultiPV != 0 && in.MultiPV != 1 {
		return
	}
	if in.Has&protocol.InfoSelDepth != 0 {
		e.ana.SelDepth = in.SelDepth
	}
	if in.Has&protocol.InfoHashFull != 0 {
		e.ana.HashFull = in.HashFull
	}
	if in.Has&protocol.InfoScore != 0 {
		e.ana.Score, e.ana.Mate = in.Score, 0
	}
	if in.Has&protocol.InfoMate != 0 {
		e.ana.Mate = in.Mate
	}
	if in.Has&protocol.InfoWDL != 0 {
		e.ana.HasWDL = true
		for k, n := range in.WDL {
			e.ana.WDL[k] = float32(n) / 1000
		}
	}
	if in.Has&protocol.InfoDepth != 0 {
		e.ana.Depth = in.Depth
	}
	if in.Has&protocol.InfoNodes != 0 {
		e.ana.Nodes = in.Nodes
	}
	if in.Has&protocol.InfoVisits != 0 {
		e.ana.Nodes = in.Visits
	}
	if in.Has&protocol.InfoValue != 0 {
		e.ana.Value, e.ana.WinProb = in.Value, ValueWinProb(in.Value)
	}
	if in.Has&protocol.InfoWinProb != 0 {
		e.ana.WinProb = in.WinProb
	}
	if in.Has&protocol.InfoPV != 0 {
		e.ana.PV = e.ana.PV[:0]
		for _, p := range in.PV {
			if p <= e.spec.NumActions {
				e.ana.PV = append(e.ana.PV, env.Action(p-1))
			}
		}
	}
}
