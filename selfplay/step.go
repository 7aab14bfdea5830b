package selfplay

import (
	"context"
	"fmt"
	"sync/atomic"

	"kumalak/mcts"
)

// stepper plays a share of a Run's games on one goroutine: it steps every
// game's search (mcts.Search.Begin, Gather, Finish) to its next leaves,
// writes them straight into one batch, evaluates the batch with one
// Evaluate call and hands each game its rows back. No goroutine waits per
// leaf, and the evaluator sees the whole batch at once.
type stepper struct {
	ev    mcts.Evaluator
	slots []slot
	// the batch: len(slots) × Batch rows
	obs, mask, priors, values []float32
}

// slot is one game of a stepper's: its worker, and its rows in the batch.
type slot struct {
	w         *worker
	live      bool // a game is being played
	searching bool // its move's search has begun
	row, n    int  // its rows in the batch being evaluated
}

// newStepper returns a stepper for the games of ws.
func newStepper(ws []*worker, ev mcts.Evaluator) *stepper {
	spec, k := ws[0].spec, ws[0].cfg.Search.Batch
	rows := len(ws) * k
	st := &stepper{
		ev:     ev,
		slots:  make([]slot, len(ws)),
		obs:    make([]float32, rows*spec.ObsLen),
		mask:   make([]float32, rows*spec.NumActions),
		priors: make([]float32, rows*spec.NumActions),
		values: make([]float32, rows),
	}
	for i, w := range ws {
		st.slots[i].w = w
	}
	return st
}

// loop plays the run's next unclaimed games until none is left, ctx ends
// or a search fails, as worker.loop does with one game at a time.
func (st *stepper) loop(ctx context.Context, seed uint64, games int, next *atomic.Int64, out chan<- GameResult) error {
	claim := func(sl *slot) {
		sl.live, sl.searching = false, false
		if i := int(next.Add(1) - 1); i < games {
			sl.w.begin(seed, i)
			sl.live = true
		}
	}
	for i := range st.slots {
		claim(&st.slots[i])
	}
	w0 := st.slots[0].w
	nobs, na := w0.spec.ObsLen, w0.spec.NumActions
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rows := 0
		for i := range st.slots {
			sl := &st.slots[i]
			for sl.live {
				n, over, err := st.advance(sl, rows)
				if err != nil {
					return err
				}
				if !over {
					sl.row, sl.n = rows, n
					rows += n
					break
				}
				out <- sl.w.finish()
				claim(sl)
			}
		}
		if rows == 0 {
			return nil
		}
		err := st.ev.Evaluate(st.obs[:rows*nobs], st.mask[:rows*na], st.priors[:rows*na], st.values[:rows])
		if err != nil {
			return st.batchErr(rows, err)
		}
		for i := range st.slots {
			sl := &st.slots[i]
			if sl.n == 0 {
				continue
			}
			r, n := sl.row, sl.n
			sl.n = 0
			if err := sl.w.tree.Finish(st.priors[r*na:(r+n)*na], st.values[r:r+n]); err != nil {
				return sl.w.wrap(err)
			}
		}
	}
}

// advance moves sl's game on to its next leaves, written at row at of the
// batch, and returns how many; over reports that the game ended instead.
func (st *stepper) advance(sl *slot, at int) (n int, over bool, err error) {
	w := sl.w
	k := w.cfg.Search.Batch
	nobs, na := w.spec.ObsLen, w.spec.NumActions
	for {
		if !sl.searching {
			lim, over := w.turn()
			if over {
				return 0, true, nil
			}
			if err := w.tree.Begin(lim); err != nil {
				return 0, false, w.wrap(err)
			}
			sl.searching = true
		}
		if n := w.tree.Gather(st.obs[at*nobs:(at+k)*nobs], st.mask[at*na:(at+k)*na]); n > 0 {
			return n, false, nil
		}
		sl.searching = false
		if w.played() {
			return 0, true, nil
		}
	}
}

// batchErr names the first game of a failed batch of rows.
func (st *stepper) batchErr(rows int, err error) error {
	for i := range st.slots {
		if sl := &st.slots[i]; sl.n > 0 {
			return fmt.Errorf("selfplay: game %d, in a batch of %d rows: %w", sl.w.g.Index, rows, err)
		}
	}
	return fmt.Errorf("selfplay: a batch of %d rows: %w", rows, err)
}
