package ladder

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kumalak/net"
	"kumalak/rating"
)

// TestFile: anchors.json round-trips with its rungs; a missing file is no
// error, a file without ratings or with an unrated rung is; a rung's model
// is checked against its checksum, naming the rung; Prune drops the rungs
// frozen after the checkpoint with their ratings and models.
func TestFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "anchors.json")
	if f, err := Load(path); f != nil || err != nil {
		t.Fatalf("no file: %v, %v", f, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, Dir), 0o755); err != nil {
		t.Fatal(err)
	}
	f := &File{Anchors: net.Anchors{Zero: "greedy", Ratings: map[string]float64{"greedy": 0}, Errors: map[string]float64{"greedy": 0}}}
	for it := 1; it <= 2; it++ {
		name := RungName(it)
		model := []byte("model " + name)
		if err := os.WriteFile(filepath.Join(dir, RungFile(name)), model, 0o644); err != nil {
			t.Fatal(err)
		}
		f.Ladder = append(f.Ladder, Rung{Name: name, Iteration: it, Frozen: it, File: RungFile(name), SHA256: Sum(model), Sims: 8, Elo: float64(100 * it), Err: 30,
			Games: map[string]rating.Match{"greedy": {Games: 2, Wins: 2, Score: 1}}, Loadings: Loadings{name: 30}})
		f.Ratings[name], f.Errors[name] = float64(100*it), 30
	}
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	g, err := Load(path)
	if err != nil || len(g.Ladder) != 2 || g.Ladder[1].SHA256 != f.Ladder[1].SHA256 || g.Ladder[0].Loadings["iter-0001"] != 30 {
		t.Fatalf("read back %+v, %v", g, err)
	}
	if err := Check(dir, g.Ladder); err != nil {
		t.Fatal(err)
	}
	if got := Top(g.Ladder, 1); len(got) != 1 || got[0].Name != "iter-0002" || Find(g.Ladder, "iter-0001") == nil || Find(g.Ladder, "x") != nil {
		t.Errorf("top %+v", got)
	}
	if err := os.WriteFile(filepath.Join(dir, g.Ladder[0].File), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Check(dir, g.Ladder); err == nil || !strings.Contains(err.Error(), "iter-0001") || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("a changed model: %v", err)
	}
	if dropped, err := g.Prune(dir, 1); !dropped || err != nil || len(g.Ladder) != 1 {
		t.Fatalf("prune: %v, %v, %+v", dropped, err, g.Ladder)
	}
	if _, ok := g.Ratings["iter-0002"]; ok {
		t.Error("the pruned rung's rating was kept")
	}
	if _, err := os.Stat(filepath.Join(dir, RungFile("iter-0002"))); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the pruned rung's model was kept: %v", err)
	}
	if dropped, err := g.Prune(dir, 1); dropped || err != nil {
		t.Errorf("prune again: %v, %v", dropped, err)
	}
	for _, bad := range []string{`{}`, `{"ratings": {"a": 0}, "ladder": [{"name": "b", "file": "x", "sims": 1}]}`, `{`} {
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// TestOpponents: a new rung is rated against the anchors nearest it and
// the anchor rated 0.
func TestOpponents(t *testing.T) {
	a := &net.Anchors{Zero: "random", Ratings: map[string]float64{"random": 0, "greedy": 300, "ab2": 700, "ab4": 900}}
	if got := Opponents(a, 850, 2); !slices.Equal(got, []string{"ab4", "ab2", "random"}) {
		t.Errorf("opponents %v", got)
	}
	if !Above(a, 950, 50) || Above(a, 949, 50) {
		t.Error("Above: want 50 over the top anchor, 900")
	}
	m := AddMatches(rating.Match{Games: 2, Wins: 2}, rating.Match{Games: 2, Draws: 2})
	if m.Games != 4 || m.Wins != 2 || m.Draws != 2 || m.Score != 0.75 || !(m.Elo > 0) {
		t.Errorf("added %+v", m)
	}
}
