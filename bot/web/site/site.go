// Package site writes the static web site of `kumalak web`: the page that
// `kumalak serve` shows (package web's), the bot built for the browser
// (kumalak.wasm, run in a Web Worker), the toolchain's wasm_exec.js, the
// games and their bots (site.js), the model files, and one script holding
// all of it for a page opened from disk (kumalak-bundle.js).
//
// Errors from bad settings are *InputError; they name each Config field as
// the flag of `kumalak web` that sets it.
package site

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/renameio/v2"

	"kumalak/agent"
	"kumalak/bot/web"
	"kumalak/env"
	"kumalak/models"
	"kumalak/net"
)

// Config sets up a site. Out is required; the rest may be zero.
type Config struct {
	Out    string        // folder written into (made if missing; its files are replaced)
	Games  []string      // the site's games; nil: every game, as serve (a game with no shipped model or Models file plays the model agent's stand-in)
	Models []string      // GAME=FILE: play GAME with this .kmodel instead of the shipped model
	Sims   int           // the bots' simulations per move; 0: each model card's
	Time   time.Duration // the bots' time per move instead
	Src    string        // the kumalak source tree the wasm is built from; "": the one holding the working folder
	Go     string        // the go command that builds the wasm; its GOROOT gives wasm_exec.js; "": "go"
	Wasm   string        // a built kumalak.wasm (by the same Go) instead of building one
	Bundle bool          // also write kumalak-bundle.js, for the page opened from file://
}

// InputError is a bad setting of a Config; Reason names the field as its
// flag of `kumalak web` (e.g. "--out is required").
type InputError struct{ Reason string }

func (e *InputError) Error() string { return "site: " + e.Reason }

// Why is the reason alone, without the package's name, for a command
// that names its own.
func (e *InputError) Why() string { return e.Reason }

func badInput(format string, args ...any) error {
	return &InputError{Reason: fmt.Sprintf(format, args...)}
}

// Game is one game of the site, as site.js and kumalak-wasm read it.
type Game struct {
	Game  string          `json:"game"`
	Agent string          `json:"agent"`
	Card  json.RawMessage `json:"card,omitempty"`
	file  string          // a Models file, or ""
}

// Manifest is site.js's KUMALAK_SITE: what the page and its worker load.
type Manifest struct {
	Wasm   string            `json:"wasm"`
	Bundle string            `json:"bundle,omitempty"`
	Games  []Game            `json:"games"`
	Files  map[string]string `json:"files"` // the worker's file path -> the site's file
}

// Report lists what Write wrote.
type Report struct {
	Dir   string
	Games []Game
	Files []File
}

// File is one file written: its name in the site, its size and its size
// gzipped (0 for the bundle, which only file:// reads: no host serves it).
type File struct {
	Name       string
	Size, Gzip int
}

// Names of the site's files.
const (
	WasmFile   = "kumalak.wasm"
	BundleFile = "kumalak-bundle.js"
	ExecFile   = "wasm_exec.js"
	ConfigFile = "site.js"
)

// Write builds the site that c describes.
func Write(ctx context.Context, c Config) (Report, error) {
	if c.Out == "" {
		return Report{}, badInput("--out is required")
	}
	if c.Sims < 0 || c.Sims > agent.MaxSims || c.Time < 0 || c.Time > agent.MaxTime {
		return Report{}, badInput("--sims %d or --time %v out of range (0..%d, 0..%v)", c.Sims, c.Time, agent.MaxSims, agent.MaxTime)
	}
	if c.Go == "" {
		c.Go = "go"
	}
	games, err := siteGames(c)
	if err != nil {
		return Report{}, err
	}
	wasm, exec, err := wasmFiles(ctx, c)
	if err != nil {
		return Report{}, err
	}
	if err := os.MkdirAll(filepath.Join(c.Out, "models"), 0o755); err != nil {
		return Report{}, fmt.Errorf("site: %w", err)
	}
	rep := Report{Dir: c.Out, Games: games}
	write := func(name string, b []byte) error {
		if err := renameio.WriteFile(filepath.Join(c.Out, filepath.FromSlash(name)), b, 0o644); err != nil {
			return fmt.Errorf("site: %w", err)
		}
		gz := 0
		if name != BundleFile {
			gz = gzipSize(b)
		}
		rep.Files = append(rep.Files, File{name, len(b), gz})
		return nil
	}
	// The page, as kumalak serve serves it, its site.js replaced.
	page := web.Page()
	err = fs.WalkDir(page, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == ConfigFile {
			return err
		}
		b, err := fs.ReadFile(page, p)
		if err != nil {
			return err
		}
		return write(p, b)
	})
	if err != nil {
		return Report{}, fmt.Errorf("site: the page: %w", err)
	}
	conf := Manifest{Wasm: WasmFile, Games: games, Files: map[string]string{}}
	files := map[string][]byte{} // the worker's path -> bytes
	for _, g := range games {
		if g.file == "" {
			continue
		}
		b, err := os.ReadFile(g.file)
		if err != nil {
			return Report{}, badInput("--model: %v", err)
		}
		name := "models/" + g.Game + ".kmodel"
		if err := write(name, b); err != nil {
			return Report{}, err
		}
		conf.Files["/"+name] = name
		files["/"+name] = b
	}
	if err := write(WasmFile, wasm); err != nil {
		return Report{}, err
	}
	if err := write(ExecFile, exec); err != nil {
		return Report{}, err
	}
	if c.Bundle {
		conf.Bundle = BundleFile
		worker, err := fs.ReadFile(page, "worker.js")
		if err != nil {
			return Report{}, fmt.Errorf("site: the page: %w", err)
		}
		b, err := bundleJS(exec, worker, wasm, files)
		if err != nil {
			return Report{}, err
		}
		if err := write(BundleFile, b); err != nil {
			return Report{}, err
		}
	} else if err := os.Remove(filepath.Join(c.Out, BundleFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Report{}, fmt.Errorf("site: %w", err)
	}
	js, err := json.MarshalIndent(conf, "", "  ")
	if err != nil {
		return Report{}, fmt.Errorf("site: %w", err)
	}
	if err := write(ConfigFile, []byte(manifestHead+string(js)+";\n")); err != nil {
		return Report{}, err
	}
	return rep, nil
}

// manifestHead starts site.js, before the manifest's JSON.
const manifestHead = "// Written by kumalak web: the bot runs in the page (static.js, worker.js).\nvar KUMALAK_SITE = "

// ReadManifest reads the manifest of the site in dir (its site.js).
func ReadManifest(dir string) (Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ConfigFile))
	if err != nil {
		return Manifest{}, fmt.Errorf("site: %w", err)
	}
	_, js, ok := strings.Cut(string(b), "var KUMALAK_SITE = ")
	var m Manifest
	if !ok {
		return Manifest{}, fmt.Errorf("site: %s: no KUMALAK_SITE", ConfigFile)
	}
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimSpace(js), ";")), &m); err != nil {
		return Manifest{}, fmt.Errorf("site: %s: %w", ConfigFile, err)
	}
	return m, nil
}

// siteGames returns the games of the site with the agent that plays each:
// the shipped model, or the Models file, at Sims or Time.
func siteGames(c Config) ([]Game, error) {
	files := map[string]string{}
	for _, m := range c.Models {
		game, file, ok := strings.Cut(m, "=")
		if !ok || file == "" {
			return nil, badInput("--model %q: want GAME=FILE", m)
		}
		if _, err := env.Lookup(game); err != nil {
			return nil, badInput("--model %s: %v", m, err)
		}
		files[game] = file
	}
	names := c.Games
	if len(names) == 0 {
		names = env.Games() // serve's games: a game with no shipped model plays the model agent's stand-in

	}
	var games []Game
	for _, name := range names {
		spec, err := env.Lookup(name)
		if err != nil {
			return nil, badInput("--games: %v", err)
		}
		if slices.ContainsFunc(games, func(g Game) bool { return g.Game == name }) {
			return nil, badInput("--games: %s given twice", name)
		}
		g, err := gameFor(spec, files[name], c.Sims, c.Time)
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	for game := range files {
		if !slices.Contains(names, game) {
			return nil, badInput("--model %s=...: %s is not one of --games", game, game)
		}
	}
	return games, nil
}

// shipped reports whether game has a shipped model (env.Facts.Model).
func shipped(game string) bool {
	spec, err := env.Lookup(game)
	return err == nil && spec.Facts.Model != ""
}

// gameFor returns the game played by the model file ("" = the shipped
// one) with sims (0 = the card's) or time.
func gameFor(spec *env.Spec, file string, sims int, limit time.Duration) (Game, error) {
	if file == "" && !shipped(spec.Name) {
		return unshippedGame(spec, sims, limit)
	}
	var m *net.Model
	var err error
	if file == "" {
		var b []byte
		if b, err = models.Bytes(spec.Facts.Model); err != nil {
			return Game{}, badInput("%v (give --model %s=FILE)", err, spec.Name)
		}
		m, err = net.Unmarshal(b)
	} else {
		m, err = net.LoadFor(file, spec.Name, spec.ObsVersion)
	}
	if err != nil {
		return Game{}, badInput("%s: %v", spec.Name, err)
	}
	if sims == 0 && limit == 0 {
		sims = agent.ModelSims(m.Meta.Card)
	}
	// The site's spec reads a Models file from the worker's files; the
	// same spec with the file's own path is built here, to refuse a bad
	// one now.
	site, err := modelAgentSpec(file, "/models/"+spec.Name+".kmodel", sims, limit)
	if err != nil {
		return Game{}, badInput("%s: %v", spec.Name, err)
	}
	here, err := modelAgentSpec(file, file, sims, limit)
	if err == nil {
		_, err = agent.New(spec, here, 1)
	}
	if err != nil {
		return Game{}, badInput("%s: %v", spec.Name, err)
	}
	card, err := net.CardJSON(m.Meta.Card)
	if err != nil {
		return Game{}, fmt.Errorf("site: %s: %w", spec.Name, err)
	}
	return Game{Game: spec.Name, Agent: site, Card: card, file: file}, nil
}

// unshippedGame returns a game with no shipped model (a Kalah board other than 6,4) as serve
// plays it: the model agent, which for such a game searches with the mcts
// agent's random rollouts (agent's model.go), at sims or limit (none: its
// own), with no card.
func unshippedGame(spec *env.Spec, sims int, limit time.Duration) (Game, error) {
	sp, err := modelAgentSpec("", "", sims, limit)
	if err == nil {
		_, err = agent.New(spec, sp, 1)
	}
	if err != nil {
		return Game{}, badInput("%s: %v", spec.Name, err)
	}
	return Game{Game: spec.Name, Agent: sp}, nil
}

// modelAgentSpec is the spec of the model agent playing path (the
// shipped model when file is "") at sims or limit.
func modelAgentSpec(file, path string, sims int, limit time.Duration) (string, error) {
	sp, err := agent.ParseSpec("model")
	if file != "" {
		sp, err = agent.ModelSpec(path, 0)
	}
	if err == nil {
		sp, err = sp.WithLimits(agent.Limits{Sims: sims, Time: limit})
	}
	return sp.String(), err
}
