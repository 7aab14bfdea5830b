package train

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"kumalak/env"
	"kumalak/net"
)

// Card is the model card an exported model carries in its metadata: what it
// plays, how it was trained, how strong it measured, and how to search with it.
type Card struct {
	Game          string               `json:"game"`
	Title         string               `json:"title"`
	Run           string               `json:"run"`
	Iteration     int                  `json:"iteration"`         // iteration that produced the network
	Iterations    int                  `json:"iterations"`        // iterations the run had completed
	TrainingTime  string               `json:"training_time"`     // run training time at export
	TrainingSec   float64              `json:"training_sec"`      // the same in seconds
	Games         int64                `json:"games"`             // self-play games of the run
	Samples       int64                `json:"samples"`           // self-play samples of the run
	Steps         int64                `json:"steps"`             // optimizer steps of the network
	Parameters    int                  `json:"parameters"`        // scalar weights of the network
	Search        SearchCard           `json:"search"`            // recommended search settings
	Elo           map[string]MatchInfo `json:"elo,omitempty"`     // latest measurement against each fixed baseline
	EloIteration  int                  `json:"elo_iteration"`     // iteration of that measurement
	Rating        *Rating              `json:"rating,omitempty"`  // Elo on the baselines' scale (random = 0) at that iteration
	Anchors       *Anchors             `json:"anchors,omitempty"` // the baselines' ratings
	Exported      time.Time            `json:"exported"`          // when the card was written
	ObsVersion    string               `json:"obs_version"`       // observation encoding the network reads
	Architecture  string               `json:"architecture"`      // e.g. "residual MLP 116-128x2-9"
	TrainedConfig string               `json:"trained_config"`    // the run's config file
}

// SearchCard holds the recommended search settings of a model.
type SearchCard struct {
	Sims  int     `json:"sims"`
	CPuct float32 `json:"cpuct"`
}

// ParseCard reads the card of a model's metadata; ok is false when the model
// has none.
func ParseCard(m *net.Model) (c Card, ok bool, err error) {
	if len(m.Meta.Card) == 0 {
		return c, false, nil
	}
	if err := json.Unmarshal(m.Meta.Card, &c); err != nil {
		return c, false, fmt.Errorf("train: model card: %w", err)
	}
	return c, true, nil
}

// Export writes the run's best network, with its model card, to out, and
// returns the card. The run folder is read, never changed.
func Export(dir, out string, cfg Config, now time.Time) (Card, error) {
	spec, err := cfg.Resolve()
	if err != nil {
		return Card{}, err
	}
	st, err := LoadState(dir)
	if err != nil {
		return Card{}, err
	}
	m, err := net.LoadFor(filepath.Join(dir, bestFile), spec.Name, spec.ObsVersion)
	if err != nil {
		return Card{}, err
	}
	card := newCard(spec, dir, st, m, cfg, now)
	ms, err := ReadMetrics(filepath.Join(dir, metricsFile))
	if err != nil {
		return Card{}, err
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if len(ms[i].Eval.Baseline) > 0 && ms[i].Best == st.BestIteration {
			card.Elo, card.EloIteration, card.Rating = ms[i].Eval.Baseline, ms[i].Iteration, ms[i].Eval.Rating
			break
		}
	}
	if card.Anchors, err = loadAnchors(filepath.Join(dir, anchorsFile)); err != nil {
		return Card{}, err
	}
	b, err := json.Marshal(card)
	if err != nil {
		return Card{}, fmt.Errorf("train: export: %w", err)
	}
	m.Meta.Card = b
	if err := net.Save(out, m); err != nil {
		return Card{}, err
	}
	return card, nil
}

func newCard(spec *env.Spec, dir string, st State, m *net.Model, cfg Config, now time.Time) Card {
	nc := m.Params.Config
	return Card{
		Game: spec.Name, Title: spec.Title, Run: dir,
		Iteration: st.BestIteration, Iterations: st.Iteration,
		TrainingTime: st.Elapsed().Round(time.Second).String(), TrainingSec: st.ElapsedSec,
		Games: st.Games, Samples: st.Samples, Steps: m.Meta.Steps, Parameters: m.Params.Count(),
		Search:        SearchCard{Sims: max(cfg.Eval.Sims, 200), CPuct: cfg.SelfPlay.Search.CPuct},
		Exported:      now.UTC(),
		ObsVersion:    spec.ObsVersion,
		Architecture:  fmt.Sprintf("residual MLP %d-%dx%d-%d, value head %d", nc.InputLen, nc.Width, nc.Blocks, nc.Actions, nc.ValueHidden),
		TrainedConfig: filepath.Join(dir, configFile),
	}
}
