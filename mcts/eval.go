package mcts

import "fmt"

// Evaluator evaluates a batch of positions: obs is n*ObsLen observations
// from each mover's view, mask is n*NumActions with 1 for legal actions and
// 0 otherwise; it fills priors (n*NumActions, a probability distribution
// over legal actions, 0 on illegal) and values (n, each in [-1,1] from that
// position's mover's view). n = len(values).
//
// The search renormalises priors over the legal actions (falling back to
// uniform when they do not sum to a positive number) and clamps values to
// [-1, 1]; a NaN or infinite value is an error. Evaluate must not keep the
// slices.
type Evaluator interface {
	Evaluate(obs, mask, priors, values []float32) error
}

// Uniform is the Evaluator that knows nothing: uniform priors over the
// legal actions and value 0.
type Uniform struct{}

// Evaluate implements Evaluator.
func (Uniform) Evaluate(obs, mask, priors, values []float32) error {
	n := len(values)
	if n == 0 {
		return nil
	}
	if len(mask)%n != 0 || len(priors) != len(mask) {
		return fmt.Errorf("mcts: uniform: mask %d and priors %d for %d positions", len(mask), len(priors), n)
	}
	na := len(mask) / n
	for i := range n {
		row, out := mask[i*na:(i+1)*na], priors[i*na:(i+1)*na]
		var legal float32
		for _, m := range row {
			legal += m
		}
		for a, m := range row {
			out[a] = 0
			if legal > 0 {
				out[a] = m / legal
			}
		}
		values[i] = 0
	}
	return nil
}
