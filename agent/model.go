package agent

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"kumalak/env"
	"kumalak/mcts"
	"kumalak/models"
	"kumalak/net"
)

// modelKeys are the keys of the model kind: mcts's (searchkeys.go) with
// a network's.
var modelKeys = withKeys([]key{
	{"path", "the game's shipped model; a board or rule with none shipped (a kalah board other than 6 houses of 4 seeds, or a kalah rule option) plays the mcts agent's search with random rollouts instead", "the .kmodel file, e.g. runs/togyz/best.kmodel"},
	simsKey("the model card's, else 400"),
	timeKeyDoc,
	cpuctKey("the model card's, else 1.25"),
	{"batch", "8", "leaves evaluated together (1..256), gathered with virtual loss"},
}, treeKeys, []key{levelKeyDoc, eloKeyDoc, exactKeyDoc})

// inferEval makes a *net.Infer an mcts.Evaluator. Each search thread
// batches its own leaves (virtual loss) and runs them on its own Infer,
// without a batcher between.
type inferEval struct{ f *net.Infer }

var _ mcts.Evaluator = inferEval{}

// Evaluate runs the network on the batch.
func (e inferEval) Evaluate(obs, mask, priors, values []float32) error {
	e.f.Run(obs, mask, priors, values)
	return nil
}

func newModel(spec *env.Spec, o *options, rng *rand.Rand) (Agent, error) {
	path := o.str("path", "")
	m, err := loadModel(spec, path)
	if path == "" && errors.Is(err, models.ErrNone) {
		// No network for this game: the same search with the mcts kind's
		// uniform priors and random rollouts, its defaults, and the
		// spec's limits and search keys.
		return newMCTS(spec, o, rng)
	}
	if err != nil {
		return nil, err
	}
	if path == "" {
		path = models.Name(spec.Name)
	}
	c := m.Params.Config
	if c.InputLen != spec.ObsLen || c.Actions != spec.NumActions {
		return nil, fmt.Errorf("%s: network takes %d inputs and %d actions, %s has %d and %d",
			path, c.InputLen, c.Actions, spec.Name, spec.ObsLen, spec.NumActions)
	}
	cfg, sims, err := modelConfig(m.Meta.Card, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	newEval := func() mcts.Evaluator { return inferEval{net.NewInfer(m.Params, cfg.Batch)} }
	s, err := newSearcherAgent(spec, newEval(), newEval, cfg, o, sims, rng)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// loadModel reads the model at path for spec's game, or, when path is "",
// the game's shipped model (package models, env.Facts.Model).
func loadModel(spec *env.Spec, path string) (*net.Model, error) {
	if path != "" {
		return net.LoadFor(path, spec.Name, spec.ObsVersion)
	}
	b, err := models.Bytes(spec.Facts.Model)
	if err != nil {
		return nil, fmt.Errorf("model: no path= given and %w", err)
	}
	m, err := net.Unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", models.Name(spec.Name), err)
	}
	if err := m.Meta.Fits(spec.Name, spec.ObsVersion); err != nil {
		return nil, fmt.Errorf("model %s: %w", models.Name(spec.Name), err)
	}
	return m, nil
}

// ShippedModel returns spec's game's shipped model (package models,
// env.Facts.Model), checked to fit the game.
func ShippedModel(spec *env.Spec) (*net.Model, error) { return loadModel(spec, "") }

// DefaultModelSims is the search size of a model whose card recommends
// none.
const DefaultModelSims = 400

// ModelSims returns the simulations a model plays with when its spec gives
// none: its card's recommendation, else DefaultModelSims.
func ModelSims(card *net.Card) int {
	if s := card.SearchSettings(); s.Sims > 0 {
		return s.Sims
	}
	return DefaultModelSims
}

// modelConfig returns the search settings: mcts defaults, then the model
// card's, then batch from the spec; and the default simulation count.
func modelConfig(card *net.Card, o *options) (mcts.Config, int, error) {
	cfg, sims := mcts.DefaultConfig(), ModelSims(card)
	if s := card.SearchSettings(); s.CPuct > 0 {
		cfg.CPuct = s.CPuct
	}
	batch, err := o.int("batch", 8, 1, 256)
	if err != nil {
		return cfg, 0, err
	}
	cfg.Batch = batch
	return cfg, sims, nil
}
