package train

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"kumalak/arena"
)

const anchorsFile = "anchors.json"

// Anchors are the fixed ratings of the baselines, random = 0, measured once
// per run by a round robin among them (anchors.json in the run folder).
// Against them every baseline evaluation rates the network on one scale,
// which keeps rising after the weaker baselines are beaten every time.
type Anchors struct {
	Ratings map[string]float64 `json:"ratings"` // logistic Elo, random = 0
	Errors  map[string]float64 `json:"errors"`  // half-widths of their 95% intervals
	Games   int                `json:"games"`   // games per pairing of the round robin
}

// Rating is the network's Elo on the anchors' scale (random = 0).
type Rating struct {
	Elo float64 `json:"elo"`
	Err float64 `json:"err"` // half-width of the 95% interval
}

// anchors returns the run's anchors, playing the round robin the first time.
func (r *Run) anchors(ctx context.Context) (*Anchors, error) {
	if r.anch != nil {
		return r.anch, nil
	}
	path := filepath.Join(r.opt.Dir, anchorsFile)
	a, err := loadAnchors(path)
	if err != nil || a != nil {
		r.anch = a
		return a, err
	}
	if a, err = r.rateBaselines(ctx); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if err := writeFile(path, append(b, '\n')); err != nil {
		return nil, err
	}
	r.anch = a
	return a, nil
}

// loadAnchors reads an anchors file; it returns nil, nil when there is none.
func loadAnchors(path string) (*Anchors, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	var a Anchors
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("train: %s: %w", path, err)
	}
	return &a, nil
}

// rateBaselines plays the round robin of random and the baselines.
func (r *Run) rateBaselines(ctx context.Context) (*Anchors, error) {
	ec := r.cfg.Eval
	players := []string{"random"}
	for _, b := range ec.Baselines {
		if !slices.Contains(players, b) {
			players = append(players, b)
		}
	}
	a := &Anchors{Ratings: map[string]float64{"random": 0}, Errors: map[string]float64{"random": 0}, Games: ec.AnchorGames}
	if len(players) == 1 {
		return a, nil // random alone: nothing to play
	}
	cfg := arena.DefaultConfig()
	cfg.Games, cfg.Parallel, cfg.OpeningPlies, cfg.Seed = ec.AnchorGames, ec.Parallel, ec.OpeningPlies, r.cfg.Seed
	cfg.MaxPlies = r.cfg.SelfPlay.MaxPlies
	n := len(players)
	bar := newBar(r.out, ec.AnchorGames*n*(n-1)/2, "rating the baselines")
	t := arena.Tournament{Spec: r.spec, Players: players, Config: cfg, Prior: 1,
		Progress: func(p arena.Progress) { _ = bar.Set(p.Done) }}
	res, err := t.Run(ctx)
	bar.Finish()
	if err != nil {
		return nil, fmt.Errorf("train: rating the baselines: %w", err)
	}
	for _, s := range res.Standings {
		a.Ratings[s.Player], a.Errors[s.Player] = s.Elo, s.Err
	}
	fmt.Fprintf(r.log, "baselines rated (random = 0): %s\n", a)
	return a, nil
}

// String lists the ratings, strongest first.
func (a *Anchors) String() string {
	names := make([]string, 0, len(a.Ratings))
	for n := range a.Ratings {
		names = append(names, n)
	}
	slices.SortFunc(names, func(x, y string) int { return cmp.Compare(a.Ratings[y], a.Ratings[x]) })
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s %.0f", n, a.Ratings[n])
	}
	return s
}

// rate fits the network's rating from its baseline results.
func (a *Anchors) rate(results map[string]MatchInfo) *Rating {
	var ratings, points, games []float64
	for name, m := range results {
		ra, ok := a.Ratings[name]
		if !ok {
			continue
		}
		ratings = append(ratings, ra)
		points = append(points, float64(m.Wins)+float64(m.Draws)/2)
		games = append(games, float64(m.Games))
	}
	elo, err := arena.RateAgainst(ratings, points, games, 1)
	if math.IsNaN(elo) || math.IsInf(elo, 0) {
		return nil
	}
	return &Rating{Elo: elo, Err: err}
}
