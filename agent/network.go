package agent

import (
	"fmt"

	"kumalak/env"
	"kumalak/mcts"
)

// NewNetwork returns an agent that searches with cfg and lim, evaluating
// leaves with ev (a network, usually a shared *net.Batcher), and plays the
// most visited move. The training loop uses it for its in-process networks.
func NewNetwork(spec *env.Spec, ev mcts.Evaluator, cfg mcts.Config, lim mcts.Limits, seed uint64) (Agent, error) {
	if ev == nil {
		return nil, fmt.Errorf("agent: network agent needs an evaluator")
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	if lim.Sims <= 0 && lim.Time <= 0 {
		return nil, fmt.Errorf("agent: network agent needs sims or time")
	}
	m := &searcher{cur: spec.New(), lim: lim, reuse: true, defSims: lim.Sims}
	m.start(spec, ev, cfg, agentRand(seed))
	return m, nil
}
