package train

import (
	"time"

	"kumalak/env"
	"kumalak/net"
)

// Export writes the run's best network, with its model card, to out, and
// returns the card. The run folder is read, never changed.
func Export(d Dir, out string, cfg Config, now time.Time) (*net.Card, error) {
	spec, err := cfg.Resolve()
	if err != nil {
		return nil, err
	}
	st, err := LoadState(d)
	if err != nil {
		return nil, err
	}
	m, err := net.LoadFor(d.Best(), spec.Name, spec.ObsVersion)
	if err != nil {
		return nil, err
	}
	card := d.card(spec, st, m, cfg)
	card.Exported = now.UTC()
	ms, err := ReadMetrics(d.Metrics())
	if err != nil {
		return nil, err
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if len(ms[i].Eval.Baseline) > 0 && ms[i].Best == st.BestIteration {
			card.Elo, card.EloIteration, card.Rating = ms[i].Eval.Baseline, ms[i].Iteration, ms[i].Eval.Rating
			break
		}
	}
	f, err := loadAnchors(d.Anchors())
	if err != nil {
		return nil, err
	}
	if f != nil {
		card.Anchors = &f.Anchors
	}
	m.Meta.Card = card
	if err := net.Save(out, m); err != nil {
		return nil, err
	}
	return card, nil
}

// card is the card of m, the best network of the run in d with state st.
func (d Dir) card(spec *env.Spec, st State, m *net.Model, cfg Config) *net.Card {
	return &net.Card{
		Game: spec.Name, Title: spec.Title, Run: d.String(),
		Iteration: st.BestIteration, Iterations: st.Iteration,
		TrainingTime: st.Elapsed().Round(time.Second).String(), TrainingSec: st.ElapsedSec,
		Games: st.Games, Samples: st.Samples, Steps: m.Meta.Steps, Parameters: m.Params.Count(),
		Search:        net.Search{Sims: max(cfg.Eval.Sims, 200), CPuct: cfg.SelfPlay.Search.CPuct},
		ObsVersion:    spec.ObsVersion,
		Architecture:  m.Params.Config.Describe(),
		TrainedConfig: d.Config(),
	}
}
