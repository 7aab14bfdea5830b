package selfplay

import (
	"context"
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
