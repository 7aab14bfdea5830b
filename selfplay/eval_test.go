package selfplay

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"kumalak/env/envtest"
)

// The test game: envtest's Kalah3 (3 pits of 3 stones, extra turns,
// captures, a 40-ply limit).
var toySpec = envtest.Kalah3

// toyEval is a deterministic evaluator that depends on the position only:
// uneven priors, and the store difference as value (Kalah's observation:
// pits, then the mover's and the opponent's store, then the white flag). It counts its calls and
// is safe for concurrent use.
type toyEval struct {
	calls atomic.Int64
	delay time.Duration
}

func (e *toyEval) Evaluate(obs, mask, priors, values []float32) error {
	e.calls.Add(1)
	if e.delay > 0 {
		time.Sleep(e.delay)
	}
	n := len(mask) / len(values)
	for i := range values {
		o := obs[i*toySpec.ObsLen : (i+1)*toySpec.ObsLen]
		k := toySpec.ObsLen - 3
		key := int(o[0]*float32(toySpec.Stones)+0.5) + 3*int(o[1]*float32(toySpec.Stones)+0.5)
		values[i] = min(max(2*(o[k]-o[k+1]), -1), 1)
		var sum float32
		for a := 0; a < n; a++ {
			p := mask[i*n+a] * float32(1+(key*7+a*3)%5)
			priors[i*n+a] = p
			sum += p
		}
		for a := 0; a < n; a++ {
			priors[i*n+a] /= sum
		}
	}
	return nil
}

// whiteLost says every position is lost for white and won for black.
type whiteLost struct{}

func (whiteLost) Evaluate(obs, mask, priors, values []float32) error {
	n := len(mask) / len(values)
	for i := range values {
		values[i] = 1
		if obs[(i+1)*toySpec.ObsLen-1] == 1 { // white to move
			values[i] = -1
		}
		var c float32
		for a := 0; a < n; a++ {
			c += mask[i*n+a]
		}
		for a := 0; a < n; a++ {
			priors[i*n+a] = mask[i*n+a] / c
		}
	}
	return nil
}

// lockedEval serialises calls as a batching evaluator's queue would, and
// fails once after failAt calls when failAt > 0.
type lockedEval struct {
	mu     sync.Mutex
	inner  toyEval
	calls  int
	failAt int
}

var errBoom = errors.New("boom")

func (e *lockedEval) Evaluate(obs, mask, priors, values []float32) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.calls++
	if e.failAt > 0 && e.calls == e.failAt {
		return errBoom
	}
	return e.inner.Evaluate(obs, mask, priors, values)
}
