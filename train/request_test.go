package train

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConfigsResolve: every shipped config reads, resolves and validates.
func TestConfigsResolve(t *testing.T) {
	files, err := filepath.Glob("../configs/*.yaml")
	if err != nil || len(files) < 4 {
		t.Fatalf("configs: %v %v", files, err)
	}
	for _, f := range files {
		if _, _, err := (Request{Config: f, Run: "unused"}).Resolve(); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestRequestResolve: the resume rules of a run's config and folder, and
// the overrides.
func TestRequestResolve(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "asked.yaml")
	write(t, file, "game: mangala\nseed: 5\niterations: 3\n")
	run := Dir(filepath.Join(dir, "run"))
	if err := os.MkdirAll(run.String(), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, run.Config(), "game: mangala\nseed: 9\niterations: 7\n")
	seed, games, budget := uint64(11), 3, time.Hour
	cases := []struct {
		name       string
		r          Request
		seed       uint64
		iterations int
	}{
		{"a new run reads the file asked for", Request{Config: file, Run: run}, 5, 3},
		{"a resumed run keeps its own config", Request{Config: file, Run: run, Resume: true}, 9, 7},
		{"a resumed run without one reads the file", Request{Config: file, Run: Dir(filepath.Join(dir, "new")), Resume: true}, 5, 3},
		{"overrides apply to the run's own config", Request{Config: file, Run: run, Resume: true, Seed: &seed, Games: &games, Budget: &budget}, 11, 7},
	}
	for _, c := range cases {
		cfg, d, err := c.r.Resolve()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if cfg.Seed != c.seed || cfg.Iterations != c.iterations || d != c.r.Run {
			t.Errorf("%s: seed %d, iterations %d, folder %s; want %d, %d, %s", c.name, cfg.Seed, cfg.Iterations, d, c.seed, c.iterations, c.r.Run)
		}
		if c.r.Games != nil && (cfg.SelfPlay.Games != games || cfg.Budget != budget) {
			t.Errorf("%s: games %d, budget %v", c.name, cfg.SelfPlay.Games, cfg.Budget)
		}
	}
	t.Chdir(dir)
	cfg, d, err := Request{Config: file}.Resolve()
	if err != nil || d != DefaultDir("mangala") || cfg.Seed != 5 {
		t.Errorf("no folder: %s, seed %d, %v; want %s", d, cfg.Seed, err, DefaultDir("mangala"))
	}
	write(t, file, "game: mangala\nselfplay:\n  full_fraction: 2\n")
	if _, _, err := (Request{Config: file, Run: run}).Resolve(); err == nil || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "full_fraction") {
		t.Errorf("a bad field: %v, want the file and the field named", err)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
