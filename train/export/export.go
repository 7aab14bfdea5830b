package export

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"kumalak/agent"
	"kumalak/arena"
	"kumalak/env"
	"kumalak/net"
	"kumalak/rating"
	"kumalak/train"
	"kumalak/train/ladder"
)

// Write writes the best network of the run in d (config cfg), with its model
// card, to out, and returns the card. The run folder is read, never
// changed.
func Write(d train.Dir, out string, cfg train.Config, now time.Time) (*net.Card, error) {
	spec, err := cfg.Resolve()
	if err != nil {
		return nil, err
	}
	st, err := train.LoadState(d)
	if err != nil {
		return nil, err
	}
	m, err := net.LoadFor(d.Best(), spec.Name, spec.ObsVersion)
	if err != nil {
		return nil, err
	}
	card := cardOf(d, spec, st, m, cfg)
	if wd, err := os.Getwd(); err == nil {
		card.Run, card.Command = portable(card.Run, wd), portable(card.Command, wd)
		card.TrainedConfig = filepath.Join(card.Run, filepath.Base(card.TrainedConfig)) // the run's own copy
	}
	card.Exported = now.UTC()
	ms, err := train.ReadMetrics(d.Metrics())
	if err != nil {
		return nil, err
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if len(ms[i].Eval.Baseline) > 0 && ms[i].Best == st.BestIteration {
			card.Elo, card.EloIteration, card.Rating = ms[i].Eval.Baseline, ms[i].Iteration, ms[i].Eval.Rating
			break
		}
	}
	f, err := ladder.Load(d.Anchors())
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

// cardOf is the card of m, the best network of the run in d with state st.
func cardOf(d train.Dir, spec *env.Spec, st train.State, m *net.Model, cfg train.Config) *net.Card {
	return &net.Card{
		Game: spec.Name, Title: spec.Title, Run: d.String(),
		Iteration: st.BestIteration, Iterations: st.Iteration,
		TrainingTime: st.Elapsed().Round(time.Second).String(), TrainingSec: st.ElapsedSec,
		Games: st.Games, Samples: st.Samples, Steps: m.Meta.Steps, Parameters: m.Params.Count(),
		Search:        net.Search{Sims: max(cfg.Eval.Sims, 200), CPuct: cfg.SelfPlay.Search.CPuct},
		ObsVersion:    spec.ObsVersion,
		Architecture:  m.Params.Config.Describe(),
		TrainedConfig: d.Config(),
		CPU:           strings.Join(st.Machines, "; "),
		Command:       strings.Join(st.Commands, "; then "),
	}
}

// portable rewrites the absolute paths among the words of s (alone or
// after "--flag=") so that a card names no folder of the machine it was
// made on: a path inside wd becomes relative to it, any other its last
// element (a run folder named as the commands would make it in the
// current folder).
func portable(s, wd string) string {
	words := strings.Split(s, " ")
	for i, w := range words {
		flag, p := "", w
		if k := strings.Index(w, "=/"); k > 0 && strings.HasPrefix(w, "-") {
			flag, p = w[:k+1], w[k+1:]
		}
		if !filepath.IsAbs(p) {
			continue
		}
		if rel, err := filepath.Rel(wd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			p = rel
		} else {
			p = filepath.Base(p)
		}
		words[i] = flag + p
	}
	return strings.Join(words, " ")
}

// Strength is a measurement that export adds to a model card: matches of
// the model at Sims simulations against each of the agent specs Vs.
type Strength struct {
	Vs       []string // opponents, agent specs such as "ab:depth=8"
	Games    int      // games against each (openings paired, colours swapped)
	Sims     int      // the model's simulations per move
	Parallel int      // games at once
	Seed     uint64
}

// Measure plays the model file at path against every opponent of s and
// writes the results into its card (Card.Elo, keyed by the opponent's
// spec, with Match.Sims set), replacing the file. Progress, when not nil,
// receives a progress bar per match.
func Measure(ctx context.Context, path string, s Strength, progress io.Writer) (*net.Card, error) {
	m, err := net.Load(path)
	if err != nil {
		return nil, err
	}
	if m.Meta.Card == nil {
		return nil, fmt.Errorf("export: measure %s: the model has no card (export it first)", path)
	}
	spec, err := env.Lookup(m.Meta.Game)
	if err != nil {
		return nil, fmt.Errorf("export: measure %s: %w", path, err)
	}
	sp, err := agent.ModelSpec(path, s.Sims)
	if err != nil {
		return nil, fmt.Errorf("export: measure: %w", err)
	}
	if progress == nil {
		progress = io.Discard
	}
	card := m.Meta.Card
	if card.Elo == nil {
		card.Elo = map[string]rating.Match{}
	}
	for _, vs := range s.Vs {
		cfg := arena.DefaultConfig()
		cfg.Games, cfg.Parallel, cfg.Seed = s.Games, s.Parallel, s.Seed
		bar := train.NewBar(progress, s.Games, fmt.Sprintf("%s at %d sims vs %s", m.Meta.Game, s.Sims, vs))
		match := arena.Match{Spec: spec, A: sp.String(), B: vs, Config: cfg,
			Progress: func(p arena.Progress) { _ = bar.Set(p.Done) }}
		res, err := match.Run(ctx)
		bar.Finish()
		if err != nil {
			return nil, fmt.Errorf("export: measure %s against %s: %w", path, vs, err)
		}
		mi := rating.MatchOf(res.Counts, res.Elo)
		mi.Sims = s.Sims
		card.Elo[vs] = mi
	}
	if err := net.Save(path, m); err != nil {
		return nil, err
	}
	return card, nil
}
