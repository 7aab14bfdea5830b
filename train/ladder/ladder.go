package ladder

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"kumalak/data"
	"kumalak/net"
	"kumalak/rating"
)

// Dir is the folder of the rungs' models, relative to the run folder.
const Dir = "ladder"

// Rung is a network of the run frozen as an anchor: a player of fixed
// strength, rated once on the baselines' scale.
type Rung struct {
	Name       string  `json:"name"`        // its player name: iter-NNNN, the network's iteration
	Iteration  int     `json:"iteration"`   // the network's iteration
	Frozen     int     `json:"frozen"`      // the iteration whose evaluation froze it
	ElapsedSec float64 `json:"elapsed_sec"` // the run's training time then
	File       string  `json:"file"`        // its model, relative to the run folder
	SHA256     string  `json:"sha256"`      // of File: a rating belongs to one network
	Sims       int     `json:"sims"`        // simulations per move it plays at
	Elo        float64 `json:"elo"`
	Err        float64 `json:"err"` // half-width of the 95% interval
	// Games are the games that rated it, by opponent, from its view.
	Games map[string]rating.Match `json:"games"`
	// Loadings are its error's parts by independent source (Rate): its own
	// fit under its name, and its opponents' errors as they pass into its
	// rating.
	Loadings Loadings `json:"loadings"`
}

// File is anchors.json: the baselines' ratings and the ladder, whose rungs
// are rated in Anchors.Ratings and Errors too.
type File struct {
	net.Anchors
	Ladder []Rung `json:"ladder,omitempty"`
}

// RungName is the player name of the rung of iteration it's network.
func RungName(it int) string { return fmt.Sprintf("iter-%04d", it) }

// RungFile is the model file of the rung named name, relative to the run
// folder (relative: the run folder may move).
func RungFile(name string) string { return Dir + "/" + name + ".kmodel" }

// Find returns the rung of rungs named name, nil when there is none.
func Find(rungs []Rung, name string) *Rung {
	for i := range rungs {
		if rungs[i].Name == name {
			return &rungs[i]
		}
	}
	return nil
}

// Load reads an anchors file; it returns nil, nil when there is none.
func Load(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("ladder: %s: %w", path, err)
	}
	if f.Ratings == nil {
		return nil, fmt.Errorf("ladder: %s: no ratings", path)
	}
	if f.Errors == nil {
		f.Errors = map[string]float64{}
	}
	for _, rg := range f.Ladder {
		if _, ok := f.Ratings[rg.Name]; !ok || rg.File == "" || rg.Sims < 1 {
			return nil, fmt.Errorf("ladder: %s: rung %q is not rated, or has no model or simulations", path, rg.Name)
		}
	}
	return &f, nil
}

// Save writes f to path, atomically.
func (f *File) Save(path string) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err == nil {
		err = data.WriteFile(path, append(b, '\n'))
	}
	if err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	return nil
}

// Prune drops the rungs that an iteration after iteration froze (a run
// killed after freezing one but before its checkpoint), their ratings and
// their models in the run folder dir. It reports whether it dropped any.
func (f *File) Prune(dir string, iteration int) (bool, error) {
	keep := f.Ladder[:0:0]
	for _, rg := range f.Ladder {
		if rg.Frozen <= iteration {
			keep = append(keep, rg)
			continue
		}
		delete(f.Ratings, rg.Name)
		delete(f.Errors, rg.Name)
		if err := os.Remove(filepath.Join(dir, rg.File)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return false, fmt.Errorf("ladder: %w", err)
		}
	}
	dropped := len(keep) < len(f.Ladder)
	f.Ladder = keep
	return dropped, nil
}

// Check checks that every rung's model is in the run folder dir, unchanged.
func Check(dir string, rungs []Rung) error {
	for _, rg := range rungs {
		if _, err := rg.Model(dir); err != nil {
			return err
		}
	}
	return nil
}

// Model reads the rung's model from the run folder dir and checks it
// against its checksum.
func (rg Rung) Model(dir string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(dir, rg.File))
	if err != nil {
		return nil, fmt.Errorf("ladder: rung %s: %w", rg.Name, err)
	}
	if sum := Sum(b); sum != rg.SHA256 {
		return nil, fmt.Errorf("ladder: rung %s: %s has SHA-256 %s, anchors.json rated %s", rg.Name, rg.File, sum, rg.SHA256)
	}
	return b, nil
}

// Sum is the SHA-256 of a rung's model file, in hex.
func Sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Top returns the n highest-rated rungs, highest first.
func Top(rungs []Rung, n int) []Rung {
	top := slices.Clone(rungs)
	slices.SortStableFunc(top, func(a, b Rung) int { return cmp.Compare(b.Elo, a.Elo) })
	return top[:min(len(top), n)]
}

// Above reports whether elo is step above every anchor of a: a network
// rated so climbs the ladder (when it has room).
func Above(a *net.Anchors, elo, step float64) bool {
	top := math.Inf(-1)
	for _, v := range a.Ratings {
		top = max(top, v)
	}
	return elo >= top+step
}

// Opponents returns the anchors that rate a new rung rated elo: the n
// rated nearest it, and the anchor rated 0 (error-free: it keeps the
// rungs' errors from adding up along the ladder).
func Opponents(a *net.Anchors, elo float64, n int) []string {
	opponents := make([]string, 0, len(a.Ratings))
	for name := range a.Ratings {
		opponents = append(opponents, name)
	}
	slices.SortFunc(opponents, func(x, y string) int {
		return cmp.Or(cmp.Compare(math.Abs(a.Ratings[x]-elo), math.Abs(a.Ratings[y]-elo)), cmp.Compare(x, y))
	})
	opponents = opponents[:min(len(opponents), n)]
	if zero := a.ZeroName(); !slices.Contains(opponents, zero) {
		opponents = append(opponents, zero)
	}
	return opponents
}

// AddMatches sums two matches against the same opponent.
func AddMatches(x, y rating.Match) rating.Match {
	c := rating.Counts{W: x.Wins + y.Wins, D: x.Draws + y.Draws, L: x.Losses + y.Losses}
	return rating.MatchOf(c, rating.EloOfCounts(c))
}

// Games is the number of games of ms.
func Games(ms map[string]rating.Match) int {
	n := 0
	for _, m := range ms {
		n += m.Games
	}
	return n
}
