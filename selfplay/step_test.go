package selfplay

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"kumalak/mcts"
)

// TestSteppedSameGames: games stepped together on one or more goroutines
// are the games played one goroutine each, move for move and sample for
// sample, for the same seed (each game's randomness is its own stream,
// and the evaluator answers each row alone): for both search kinds, with
// resignation and its resign-off games, several leaves per call, and the
// solver off.
func TestSteppedSameGames(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
	}{
		{"puct", func(c *Config) { c.FullFraction = 0.5 }},
		{"resign", func(c *Config) {
			c.FullFraction = 0.5
			c.ResignThreshold, c.ResignPlies, c.ResignOffFraction = 0.5, 2, 0.3
		}},
		{"batch3", func(c *Config) { c.Search.Batch = 3 }},
		{"nosolver", func(c *Config) { c.Search.Solver, c.Search.ProofTargets = false, false }},
		{"gumbel", func(c *Config) { c.Search.Kind, c.HonestBudget = mcts.Gumbel, true }},
		{"capped", func(c *Config) { c.MaxPlies = 9 }},
	} {
		cfg := testConfig()
		cfg.Games, cfg.Steppers = 5, -1
		tc.edit(&cfg)
		want, wst := collect(t, &toyEval{}, cfg, 13, 3)
		for _, k := range []int{0, 1, 2, 5, 9} {
			c := cfg
			c.Steppers = k
			got, st := collect(t, &toyEval{}, c, 13, 3)
			st.Elapsed = wst.Elapsed
			if !sameGames(want, got) || st != wst {
				t.Errorf("%s: steppers=%d played other games than one goroutine a game:\n%+v\n%+v", tc.name, k, wst, st)
			}
		}
	}
}

// TestSteppedBatches: one stepper hands the evaluator every game's leaf at
// once: with 4 games of one leaf each, the batches hold 4 rows until the
// games end.
func TestSteppedBatches(t *testing.T) {
	cfg := testConfig()
	cfg.Steppers = 1
	ev := &sizes{}
	if _, err := Run(context.Background(), toySpec, ev, cfg, 4, 1, nil); err != nil {
		t.Fatal(err)
	}
	if len(ev.n) < 10 || ev.n[0] != 4 || ev.n[5] != 4 {
		t.Fatalf("batch sizes %v, want 4 rows until games end", ev.n)
	}
}

// sizes is toyEval recording its batch sizes (not safe for concurrent use).
type sizes struct {
	toyEval
	n []int
}

func (e *sizes) Evaluate(obs, mask, priors, values []float32) error {
	e.n = append(e.n, len(values))
	return e.toyEval.Evaluate(obs, mask, priors, values)
}

func TestSteppedErrors(t *testing.T) {
	cfg := testConfig()
	cfg.Steppers = 2
	_, err := Run(context.Background(), toySpec, &lockedEval{failAt: 50}, cfg, 100, 8, nil)
	if !errors.Is(err, errBoom) || !strings.Contains(err.Error(), "selfplay: game ") {
		t.Fatalf("err %v, want the evaluator's error with the game", err)
	}
	cfg.MaxPlies = 1000
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Millisecond)
	defer cancel()
	delivered := 0
	st, err := Run(ctx, toySpec, &toyEval{delay: time.Millisecond}, cfg, 1000, 7, func(GameResult) { delivered++ })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want deadline exceeded", err)
	}
	if st.Games != delivered || st.Games >= 1000 {
		t.Fatalf("%d games in stats, %d delivered", st.Games, delivered)
	}
}

// Once warm, stepping games allocates only each finished game's four
// result slices: nothing per move, leaf or batch.
func TestSteppedAllocations(t *testing.T) {
	for _, kind := range []mcts.Kind{mcts.PUCT, mcts.Gumbel} {
		cfg := testConfig()
		cfg.FullFraction = 0.5
		cfg.Search.Kind = kind
		cfg.HonestBudget = kind == mcts.Gumbel
		var ws []*worker
		for range 3 {
			ws = append(ws, newWorker(toySpec, &toyEval{}, cfg, func(int64, int64) {}))
		}
		st := newStepper(ws, &toyEval{})
		const games = 6
		out := make(chan GameResult, games)
		play := func() {
			var next atomic.Int64
			if err := st.loop(context.Background(), 1, games, &next, out); err != nil {
				t.Fatal(err)
			}
			for range games {
				<-out
			}
		}
		play() // grow the arenas and scratch buffers
		if allocs := testing.AllocsPerRun(20, play); allocs > 4*games {
			t.Fatalf("%s: %v allocations per %d stepped games, want at most %d", kind, allocs, games, 4*games)
		}
	}
}
