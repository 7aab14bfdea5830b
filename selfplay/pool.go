package selfplay

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"kumalak/data"
	"kumalak/env"
	"kumalak/mcts"
)

// Pool plays self-play games, Config.Games at a time, on Config.Steppers
// goroutines that step many games each, or one goroutine per game, all
// sharing one evaluator. Its workers, and their search trees' memory, are kept from one
// Run to the next. Run calls must not overlap; Progress may be called at any
// time from any goroutine.
type Pool struct {
	spec    *env.Spec
	ev      mcts.Evaluator
	cfg     Config
	oracle  mcts.Oracle // exact leaves and targets; nil: none
	workers []*worker
	// with Config.Steppers: the steppers of the last Run, and the
	// (games, steppers) they were made for
	steppers []*stepper
	split    [2]int
	running  atomic.Bool

	// progress of the current (or last) Run
	start, end                       atomic.Int64 // unix nanoseconds; end 0 while running
	games, samples, plies, positions atomic.Int64
}

// A sample's legal mask (data.MaxActions bits) holds every action of any
// game: this fails to compile if env.MaxActions ever grows past it.
const _ = uint(data.MaxActions - env.MaxActions)

// NewPool checks cfg and the game and returns a pool; ev must be safe for
// concurrent use by Config.Games goroutines.
func NewPool(spec *env.Spec, ev mcts.Evaluator, cfg Config) (*Pool, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if spec.NumActions < 1 || spec.NumActions > env.MaxActions {
		return nil, fmt.Errorf("selfplay: %s: %d actions out of range 1..%d", spec.Name, spec.NumActions, env.MaxActions)
	}
	if ev == nil {
		return nil, errors.New("selfplay: nil evaluator")
	}
	return &Pool{spec: spec, ev: ev, cfg: cfg}, nil
}

// SetOracle makes o, which must be safe for concurrent use, the oracle of
// every search with Config.TablebaseLeaves (mcts.Search.SetOracle: the
// positions it knows are exact leaves) and, with Config.ExactTargets, the
// source of exact outcome targets; nil turns it off. It must not be
// called during Run.
func (p *Pool) SetOracle(o mcts.Oracle) {
	p.oracle = o
	for _, w := range p.workers {
		w.setOracle(o)
	}
}

// Run is NewPool followed by one Pool.Run.
func Run(ctx context.Context, spec *env.Spec, ev mcts.Evaluator, cfg Config, games int, seed uint64, out func(GameResult)) (Stats, error) {
	p, err := NewPool(spec, ev, cfg)
	if err != nil {
		return Stats{}, err
	}
	return p.Run(ctx, games, seed, out)
}

// Run plays games games, at most Config.Games at a time, and hands each
// finished game to out (which may be nil). out is called from the caller's
// goroutine, one game at a time, in game order (0, 1, 2, ...: a game that
// finishes early waits for those before it), so that a seed gives the same
// samples in the same order whatever the timing; the workers wait while out
// runs. Game i draws its randomness from (seed, i) alone, so use a new seed
// for each call.
//
// When ctx ends, every game stops at its next move and is dropped, as are
// finished games still waiting for an earlier one; Run returns the stats of
// the games delivered so far and ctx's error. A search error stops the run
// likewise and is returned.
func (p *Pool) Run(ctx context.Context, games int, seed uint64, out func(GameResult)) (Stats, error) {
	if games < 0 {
		return Stats{}, fmt.Errorf("selfplay: games %d is negative", games)
	}
	if !p.running.CompareAndSwap(false, true) {
		panic("selfplay: Pool.Run called while running")
	}
	defer p.running.Store(false)
	p.resetProgress()
	n := min(p.cfg.Games, games)
	for len(p.workers) < n {
		w := newWorker(p.spec, p.ev, p.cfg, p.count)
		w.setOracle(p.oracle)
		p.workers = append(p.workers, w)
	}

	inner, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make(chan GameResult, n)
	var (
		next    atomic.Int64
		wg      sync.WaitGroup
		errOnce sync.Once
		runErr  error
	)
	fail := func(err error) {
		if err != nil && inner.Err() == nil {
			errOnce.Do(func() { runErr = err; cancel() })
		}
	}
	k := p.cfg.Steppers
	if k == 0 {
		k = runtime.GOMAXPROCS(0)
	}
	if k = min(k, n); k > 0 {
		for _, st := range p.stepperFor(n, k) {
			wg.Go(func() { fail(st.loop(inner, seed, games, &next, results)) })
		}
	} else {
		for _, w := range p.workers[:n] {
			wg.Go(func() { fail(w.loop(inner, seed, games, &next, results)) })
		}
	}
	go func() { wg.Wait(); close(results) }()

	var st Stats
	deliver := func(g *GameResult) {
		st.add(g)
		p.games.Add(1)
		p.samples.Add(int64(len(g.Samples)))
		if out != nil {
			out(*g)
		}
	}
	inOrder(results, deliver)
	p.end.Store(time.Now().UnixNano())
	st.Positions = p.positions.Load()
	st.Elapsed = p.elapsed()
	if runErr != nil {
		return st, runErr
	}
	return st, ctx.Err()
}

// stepperFor returns k steppers sharing the first n workers, made anew
// only when the split changes.
func (p *Pool) stepperFor(n, k int) []*stepper {
	if p.split != [2]int{n, k} {
		p.steppers = p.steppers[:0]
		for j := range k {
			p.steppers = append(p.steppers, newStepper(p.workers[j*n/k:(j+1)*n/k], p.ev))
		}
		p.split = [2]int{n, k}
	}
	return p.steppers
}

// inOrder hands the games from results to deliver in index order, holding
// back those that arrive before an earlier one, until results is closed;
// games held back then (after a cancelled run) are dropped.
func inOrder(results <-chan GameResult, deliver func(*GameResult)) {
	held := map[int]GameResult{}
	next := 0
	for g := range results {
		held[g.Index] = g
		for {
			h, ok := held[next]
			if !ok {
				break
			}
			delete(held, next)
			deliver(&h)
			next++
		}
	}
}

// loop plays the run's next unclaimed game until none is left, ctx ends or
// a search fails.
func (w *worker) loop(ctx context.Context, seed uint64, games int, next *atomic.Int64, out chan<- GameResult) error {
	for ctx.Err() == nil {
		i := int(next.Add(1) - 1)
		if i >= games {
			return nil
		}
		g, err := w.play(ctx, seed, i)
		if err != nil {
			return err
		}
		out <- g
	}
	return nil
}

func (p *Pool) resetProgress() {
	p.start.Store(time.Now().UnixNano())
	p.end.Store(0)
	p.games.Store(0)
	p.samples.Store(0)
	p.plies.Store(0)
	p.positions.Store(0)
}

// count is called by the workers after every search.
func (p *Pool) count(plies, positions int64) {
	p.plies.Add(plies)
	p.positions.Add(positions)
}

// Progress is a snapshot of a run in progress.
type Progress struct {
	Games     int64         // games delivered
	Samples   int64         // samples in the delivered games
	Plies     int64         // searches, one per move; unfinished games and resignations included
	Positions int64         // simulations searched, unfinished games included
	Elapsed   time.Duration // since Run started
}

// Progress returns the current (or last) run's counters; a finished run's
// clock stops at its end.
func (p *Pool) Progress() Progress {
	return Progress{
		Games:     p.games.Load(),
		Samples:   p.samples.Load(),
		Plies:     p.plies.Load(),
		Positions: p.positions.Load(),
		Elapsed:   p.elapsed(),
	}
}

func (p *Pool) elapsed() time.Duration {
	start, end := p.start.Load(), p.end.Load()
	switch {
	case start == 0:
		return 0
	case end == 0:
		return time.Since(time.Unix(0, start))
	}
	return time.Duration(end - start)
}

// GamesPerSec returns the rate of finished games.
func (pr Progress) GamesPerSec() float64 { return rate(pr.Games, pr.Elapsed) }

// PositionsPerSec returns the rate of searched positions (simulations).
func (pr Progress) PositionsPerSec() float64 { return rate(pr.Positions, pr.Elapsed) }

func rate(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}
