package selfplay

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"kumalak/env"
)

// The test game "take": a pile of toyStones stones; the mover takes 1, 2 or
// 3 into their store; taking exactly 2 earns an extra turn (the same player
// moves again). When the pile is empty the larger store wins; equal stores
// draw.
const toyStones = 24

var toySpec = &env.Spec{
	Name:       "take",
	Title:      "Take with extra turns (test game)",
	Pits:       3,
	NumActions: 3,
	Stones:     toyStones,
	ObsLen:     4,
	ObsVersion: "take/1",
	New:        func() env.State { return &toy{pile: toyStones} },
	Parse:      parseToy,
}

type toy struct {
	pile   int
	stores [2]int
	mover  env.Player
}

func (t *toy) Spec() *env.Spec        { return toySpec }
func (t *toy) ToMove() env.Player     { return t.mover }
func (t *toy) Store(p env.Player) int { return t.stores[p] }

func (t *toy) Legal(dst []env.Action) []env.Action {
	for k := 1; k <= 3 && k <= t.pile; k++ {
		dst = append(dst, env.Action(k-1))
	}
	return dst
}

func (t *toy) Apply(a env.Action) {
	k := int(a) + 1
	if k > t.pile {
		panic(fmt.Sprintf("take: illegal action %d on pile %d", a, t.pile))
	}
	t.pile -= k
	t.stores[t.mover] += k
	if k != 2 {
		t.mover = t.mover.Other()
	}
}

func (t *toy) Result() env.Result {
	switch {
	case t.pile > 0:
		return env.Ongoing
	case t.stores[env.White] > t.stores[env.Black]:
		return env.WhiteWins
	case t.stores[env.Black] > t.stores[env.White]:
		return env.BlackWins
	}
	return env.Draw
}

// Observe writes the pile, the mover's and the opponent's stores (scaled)
// and 1 when white is to move.
func (t *toy) Observe(dst []float32) {
	dst[0] = float32(t.pile) / toyStones
	dst[1] = float32(t.stores[t.mover]) / toyStones
	dst[2] = float32(t.stores[t.mover.Other()]) / toyStones
	dst[3] = 0
	if t.mover == env.White {
		dst[3] = 1
	}
}

func (t *toy) CopyFrom(src env.State) { *t = *src.(*toy) }

// String returns "pile whiteStore blackStore mover" from a table, so that
// the search's position comparisons do not allocate.
func (t *toy) String() string {
	if t.pile+t.stores[0]+t.stores[1] == toyStones {
		return toyNames[t.pile][t.stores[0]][t.mover]
	}
	return fmt.Sprintf("%d %d %d %s", t.pile, t.stores[0], t.stores[1], t.mover)
}

var toyNames = func() (names [toyStones + 1][toyStones + 1][2]string) {
	for pile := range names {
		for w := 0; pile+w <= toyStones; w++ {
			for _, m := range []env.Player{env.White, env.Black} {
				names[pile][w][m] = fmt.Sprintf("%d %d %d %s", pile, w, toyStones-pile-w, m)
			}
		}
	}
	return names
}()

func parseToy(s string) (env.State, error) {
	var t toy
	var m string
	if _, err := fmt.Sscanf(s, "%d %d %d %s", &t.pile, &t.stores[0], &t.stores[1], &m); err != nil {
		return nil, fmt.Errorf("take: %w", err)
	}
	if m == "b" {
		t.mover = env.Black
	}
	return &t, nil
}

// toyEval is a deterministic evaluator that depends on the position only:
// uneven priors, and the store difference as value. It counts its calls and
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
		o := obs[i*toySpec.ObsLen:]
		pile := int(o[0]*toyStones + 0.5)
		values[i] = min(max(2*(o[1]-o[2]), -1), 1)
		var sum float32
		for a := 0; a < n; a++ {
			p := mask[i*n+a] * float32(1+(pile*7+a*3)%5)
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
		if obs[i*toySpec.ObsLen+3] == 1 {
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
