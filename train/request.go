package train

import (
	"fmt"
	"os"
	"time"
)

// Request is what a command line asks of a run: its config file, its
// folder, whether it resumes, and the config fields it overrides (a nil
// pointer, or an empty Tablebase, keeps the config's).
type Request struct {
	Config     string // the YAML config file
	Run        Dir    // the run folder; "" is the game's DefaultDir
	Resume     bool   // continue the run in Run from its checkpoint
	Seed       *uint64
	Iterations *int
	Budget     *time.Duration
	Games      *int   // selfplay.games: games played at once
	Tablebase  string // a mangala tablebase folder
}

// Resolve returns the config the run starts or resumes with, and its
// folder. A resumed run keeps its own resolved config (the run folder's
// config.yaml, when it has one) in place of the file asked for; the
// overrides apply either way. Without a folder the run goes to the
// game's DefaultDir, whose config a resumed run then keeps. The config is
// read strictly over the defaults (LoadConfig), resolved and validated;
// an error names the file.
func (r Request) Resolve() (Config, Dir, error) {
	path := r.Config
	if r.Run != "" {
		path = r.ownConfig(r.Run, path)
	}
	cfg, err := r.load(path)
	if err != nil || r.Run != "" {
		return cfg, r.Run, err
	}
	dir := DefaultDir(cfg.Game)
	if own := r.ownConfig(dir, path); own != path {
		cfg, err = r.load(own)
	}
	return cfg, dir, err
}

// ownConfig returns the config a resumed run in d keeps, else path.
func (r Request) ownConfig(d Dir, path string) string {
	if !r.Resume {
		return path
	}
	if _, err := os.Stat(d.Config()); err != nil {
		return path
	}
	return d.Config()
}

// load reads the config at path with r's overrides, resolved and
// validated.
func (r Request) load(path string) (Config, error) {
	cfg, err := LoadConfig(path)
	if err != nil {
		return cfg, err
	}
	r.override(&cfg)
	if _, err := cfg.Resolve(); err != nil {
		return cfg, fmt.Errorf("train: %s: %w", path, err)
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("train: %s: %w", path, err)
	}
	return cfg, nil
}

// override applies r's overrides to cfg.
func (r Request) override(cfg *Config) {
	if r.Seed != nil {
		cfg.Seed = *r.Seed
	}
	if r.Tablebase != "" {
		cfg.Tablebase = r.Tablebase
	}
	if r.Iterations != nil {
		cfg.Iterations = *r.Iterations
	}
	if r.Budget != nil {
		cfg.Budget = *r.Budget
	}
	if r.Games != nil {
		cfg.SelfPlay.Games = *r.Games
	}
}
