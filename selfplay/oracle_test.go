package selfplay

import (
	"context"
	"sync/atomic"
	"testing"

	"kumalak/env"
	"kumalak/mcts"
)

// moverWins is an oracle that calls every position a win for its mover.
type moverWins struct{}

func (moverWins) Exact(env.State) (float32, bool) { return 1, true }

// TestExactTargets: with ExactTargets the samples the oracle knows take
// its value as their outcome; without, the game's result. The oracle also
// proves the searches' leaves.
func TestExactTargets(t *testing.T) {
	var o moverWins
	for _, exact := range []bool{false, true} {
		cfg := testConfig()
		cfg.ExactTargets = exact
		p, err := NewPool(toySpec, mcts.Uniform{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		p.SetOracle(o)
		var samples, others int
		_, err = p.Run(context.Background(), 4, 1, func(g GameResult) {
			for _, s := range g.Samples {
				samples++
				if s.Outcome != 1 {
					others++
				}
				if exact && s.Outcome != 1 {
					t.Errorf("exact target %v, the oracle says 1", s.Outcome)
				}
			}
		})
		if err != nil || samples == 0 || (!exact && others == 0) {
			t.Fatalf("run: %v, %d samples, %d not won by their mover", err, samples, others)
		}
	}
}

// countingOracle knows no position and counts the searches' questions.
type countingOracle struct{ asked *atomic.Int64 }

func (o countingOracle) Exact(env.State) (float32, bool) { o.asked.Add(1); return 0, false }

// TestTablebaseLeavesOff: with TablebaseLeaves off the searches never ask
// the oracle (the games are the network's own), yet exact targets still
// come from it; on, every new leaf asks it.
func TestTablebaseLeavesOff(t *testing.T) {
	for _, leaves := range []bool{false, true} {
		cfg := testConfig()
		cfg.TablebaseLeaves, cfg.ExactTargets = leaves, false
		p, err := NewPool(toySpec, mcts.Uniform{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var asked atomic.Int64
		p.SetOracle(countingOracle{&asked})
		if _, err := p.Run(context.Background(), 2, 1, nil); err != nil {
			t.Fatal(err)
		}
		if n := asked.Load(); leaves == (n == 0) {
			t.Fatalf("tablebase_leaves %v: the searches asked the oracle %d times", leaves, n)
		}
	}
	cfg := testConfig()
	cfg.TablebaseLeaves, cfg.ExactTargets = false, true
	p, err := NewPool(toySpec, mcts.Uniform{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	p.SetOracle(moverWins{})
	samples := 0
	_, err = p.Run(context.Background(), 4, 1, func(g GameResult) {
		for _, s := range g.Samples {
			samples++
			if s.Outcome != 1 {
				t.Errorf("exact target %v without leaves, the oracle says 1", s.Outcome)
			}
		}
	})
	if err != nil || samples == 0 {
		t.Fatalf("run: %v, %d samples", err, samples)
	}
}
