package net

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"kumalak/rating"
)

// Card is a model's card: what the network plays, how it was trained, how
// strong it measured, and how to search with it. `kumalak export` writes it
// into a model's metadata; the agent that plays a model reads its search
// settings from it, and `kumalak info` and the bot show it. It is stored as
// JSON under the "card" metadata key; the JSON names below are the format
// and stay as they are. Every field may be zero: a model straight from a run
// has no card at all (Meta.Card == nil).
type Card struct {
	Game          string                  `json:"game"`              // game name, e.g. "togyz"
	Title         string                  `json:"title"`             // the game's title for people
	Run           string                  `json:"run"`               // run folder the network came from
	Iteration     int                     `json:"iteration"`         // iteration that produced the network
	Iterations    int                     `json:"iterations"`        // iterations the run had completed
	TrainingTime  string                  `json:"training_time"`     // run training time at export, e.g. "30m0s"
	TrainingSec   float64                 `json:"training_sec"`      // the same in seconds
	Games         int64                   `json:"games"`             // self-play games of the run
	Samples       int64                   `json:"samples"`           // self-play samples of the run
	Steps         int64                   `json:"steps"`             // optimizer steps of the network
	Parameters    int                     `json:"parameters"`        // scalar weights of the network
	Search        Search                  `json:"search"`            // recommended search settings
	Elo           map[string]rating.Match `json:"elo,omitempty"`     // latest measurement against each fixed baseline
	EloIteration  int                     `json:"elo_iteration"`     // iteration of that measurement
	Rating        *rating.Rating          `json:"rating,omitempty"`  // Elo on the baselines' scale (Anchors.Zero = 0) at that iteration
	Anchors       *Anchors                `json:"anchors,omitempty"` // the baselines' ratings
	Exported      time.Time               `json:"exported"`          // when the card was written
	ObsVersion    string                  `json:"obs_version"`       // observation encoding the network reads
	Architecture  string                  `json:"architecture"`      // Config.Describe of the network
	TrainedConfig string                  `json:"trained_config"`    // the run's config file
	CPU           string                  `json:"cpu,omitempty"`     // the machines the run trained on: processor, cores, inference kernel
	Command       string                  `json:"command,omitempty"` // the command lines that started and resumed the run
}

// Search holds a model's recommended search settings; zero means "no
// recommendation" and leaves the player's default.
type Search struct {
	Sims  int     `json:"sims"`  // simulations per move
	CPuct float32 `json:"cpuct"` // PUCT exploration constant
}

// Anchors are the fixed ratings of the baselines, Zero rated 0, measured
// once per run by a round robin among them. Against them every baseline
// evaluation rates the network on one scale.
type Anchors struct {
	// Zero is the player rated 0, whose rating has no error; "" (files
	// written before it was recorded) means random.
	Zero    string             `json:"zero,omitempty"`
	Ratings map[string]float64 `json:"ratings"` // logistic Elo, Zero = 0
	Errors  map[string]float64 `json:"errors"`  // half-widths of their 95% intervals, relative to Zero
	Games   int                `json:"games"`   // games per pairing of the round robin
}

// ZeroName returns the player rated 0: Zero, or random when it is empty.
func (a *Anchors) ZeroName() string {
	if a == nil || a.Zero == "" {
		return "random"
	}
	return a.Zero
}

// SearchSettings returns the card's recommended simulations and cpuct; a
// nil card recommends nothing (zeros).
func (c *Card) SearchSettings() Search {
	if c == nil {
		return Search{}
	}
	return c.Search
}

// Describe names the architecture for people, as a card's Architecture
// field does: "residual MLP 116-128x2-9, value head 64" (inputs, width ×
// blocks, actions).
func (c Config) Describe() string {
	return fmt.Sprintf("residual MLP %d-%dx%d-%d, value head %d", c.InputLen, c.Width, c.Blocks, c.Actions, c.ValueHidden)
}

// String lists the ratings, strongest first: "ab:depth=2 310, random 0".
func (a *Anchors) String() string {
	names := make([]string, 0, len(a.Ratings))
	for n := range a.Ratings {
		names = append(names, n)
	}
	slices.SortFunc(names, func(x, y string) int {
		return cmp.Or(cmp.Compare(a.Ratings[y], a.Ratings[x]), cmp.Compare(x, y))
	})
	var sb strings.Builder
	for i, n := range names {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%s %.0f", n, a.Ratings[n])
	}
	return sb.String()
}

// WriteText writes the card for a person, as kumalak export and kumalak info
// print it: the run, the search, and the strength against each baseline.
func (c *Card) WriteText(w io.Writer) {
	fmt.Fprintf(w, "run           %s: iteration %d of %d, %s of training, %d games, %d samples\n",
		c.Run, c.Iteration, c.Iterations, c.TrainingTime, c.Games, c.Samples)
	fmt.Fprintf(w, "search        %d simulations per move, cpuct %.2f\n", c.Search.Sims, c.Search.CPuct)
	if c.CPU != "" {
		fmt.Fprintf(w, "trained on    %s\n", c.CPU)
	}
	if c.Command != "" {
		fmt.Fprintf(w, "command       %s\n", c.Command)
	}
	if len(c.Elo) == 0 {
		fmt.Fprintln(w, "strength      not measured against the baselines yet")
		return
	}
	names := make([]string, 0, len(c.Elo))
	for n := range c.Elo {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "strength      at iteration %d:\n", c.EloIteration)
	if c.Rating != nil {
		zero := "random"
		if c.Anchors != nil {
			zero = c.Anchors.ZeroName()
		}
		fmt.Fprintf(w, "  rating %.0f ±%.0f Elo on the baselines' scale (%s = 0)\n", c.Rating.Elo, c.Rating.Err, zero)
	}
	for _, n := range names {
		e := c.Elo[n]
		at := ""
		if e.Sims > 0 {
			at = fmt.Sprintf("  (at %d sims)", e.Sims)
		}
		fmt.Fprintf(w, "  vs %-14s +%d =%d -%d  score %5.1f%%  elo %s%s\n", n, e.Wins, e.Draws, e.Losses, 100*e.Score, e.EloText(), at)
	}
}

// CardJSON returns c as the JSON the bot shows (the format of the model
// file's "card" key), nil for no card.
func CardJSON(c *Card) (json.RawMessage, error) {
	if c == nil {
		return nil, nil
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("net: model card: %w", err)
	}
	return b, nil
}
