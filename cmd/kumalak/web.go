package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/google/renameio/v2"
	"github.com/spf13/cobra"

	"kumalak/agent"
	"kumalak/bot"
	"kumalak/env"
	"kumalak/models"
	"kumalak/net"
)

// webFlags are the settings of kumalak web.
type webFlags struct {
	out, src, wasm, goBin string
	games                 []string
	models                []string // GAME=FILE
	sims                  int
	time                  time.Duration
	bundle                bool
}

func newWebCmd() *cobra.Command {
	var f webFlags
	c := &cobra.Command{
		Use:   "web",
		Short: "Write a static web site that plays the bot in the browser, with no server",
		Long: "web writes a static site into --out: the page kumalak serve shows (index.html, its scripts and\n" +
			"styles) and the bot itself, kumalak.wasm (rules, search and network, built from this source\n" +
			"for GOOS=js GOARCH=wasm), run in a Web Worker; wasm_exec.js, copied from the Go toolchain that\n" +
			"built it; site.js, the games and their bots; the --model files; and kumalak-bundle.js, the same\n" +
			"as one script, for the page opened from disk (file://). Upload the folder to any static host,\n" +
			"or open index.html. The bots are the shipped models (package models) unless --model names\n" +
			"another. Building the wasm needs the kumalak source tree and the go command: run web inside\n" +
			"the source (or give --src) with go on the PATH (or --go), or give a built --wasm.",
		Example: "  kumalak web --out site\n" +
			"  kumalak web --out site --games togyz --sims 800\n" +
			"  kumalak web --out site --model togyz=runs/togyz/best.kmodel",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			rep, err := writeSite(c.Context(), f)
			if err != nil {
				return err
			}
			rep.print(c.OutOrStdout())
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.out, "out", "", "folder to write the site into (made if missing; its files are replaced)")
	fl.StringSliceVar(&f.games, "games", nil, "games of the site (default: every game with a shipped model or a --model)")
	fl.StringArrayVar(&f.models, "model", nil, "GAME=FILE: play GAME with this .kmodel instead of the shipped model (repeatable)")
	fl.IntVar(&f.sims, "sims", 0, "the bots' simulations per move; 0: each model card's (the player may choose others)")
	fl.DurationVar(&f.time, "time", 0, "the bots' time per move instead, e.g. 1s (a search stops at the first limit reached)")
	fl.StringVar(&f.src, "src", "", "the kumalak source tree the wasm is built from (default: the one holding the working folder)")
	fl.StringVar(&f.goBin, "go", "go", "the go command that builds the wasm; its GOROOT gives wasm_exec.js")
	fl.StringVar(&f.wasm, "wasm", "", "use this kumalak.wasm (built by the same --go) instead of building one")
	fl.BoolVar(&f.bundle, "bundle", true, "also write kumalak-bundle.js, for the page opened from file://")
	return c
}

// siteGame is one game of the site, as site.js and kumalak-wasm read it.
type siteGame struct {
	Game  string          `json:"game"`
	Agent string          `json:"agent"`
	Card  json.RawMessage `json:"card,omitempty"`
	file  string          // a --model file, or ""
}

// siteConfig is site.js's KUMALAK_SITE.
type siteConfig struct {
	Wasm   string            `json:"wasm"`
	Bundle string            `json:"bundle,omitempty"`
	Games  []siteGame        `json:"games"`
	Files  map[string]string `json:"files"` // the worker's file path -> the site's file
}

// siteReport lists what writeSite wrote.
type siteReport struct {
	dir   string
	games []siteGame
	files []siteFile
}

type siteFile struct {
	name       string
	size, gzip int
}

// Names of the site's files.
const (
	siteWasm   = "kumalak.wasm"
	siteBundle = "kumalak-bundle.js"
	siteExec   = "wasm_exec.js"
	siteConfJS = "site.js"
)

// writeSite builds the site that f describes.
func writeSite(ctx context.Context, f webFlags) (siteReport, error) {
	if f.out == "" {
		return siteReport{}, badInput("web", "--out is required")
	}
	if f.sims < 0 || f.sims > agent.MaxSims || f.time < 0 || f.time > agent.MaxTime {
		return siteReport{}, badInput("web", "--sims %d or --time %v out of range (0..%d, 0..%v)", f.sims, f.time, agent.MaxSims, agent.MaxTime)
	}
	games, err := siteGames(f)
	if err != nil {
		return siteReport{}, err
	}
	wasm, exec, err := siteWasmFiles(ctx, f)
	if err != nil {
		return siteReport{}, err
	}
	if err := os.MkdirAll(filepath.Join(f.out, "models"), 0o755); err != nil {
		return siteReport{}, fmt.Errorf("web: %w", err)
	}
	rep := siteReport{dir: f.out, games: games}
	write := func(name string, b []byte) error {
		if err := renameio.WriteFile(filepath.Join(f.out, filepath.FromSlash(name)), b, 0o644); err != nil {
			return fmt.Errorf("web: %w", err)
		}
		gz := 0
		if name != siteBundle { // only file:// reads it: no host serves it
			gz = gzipSize(b)
		}
		rep.files = append(rep.files, siteFile{name, len(b), gz})
		return nil
	}
	// The page, as kumalak serve serves it, its site.js replaced.
	page := bot.Page()
	err = fs.WalkDir(page, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == siteConfJS {
			return err
		}
		b, err := fs.ReadFile(page, p)
		if err != nil {
			return err
		}
		return write(p, b)
	})
	if err != nil {
		return siteReport{}, fmt.Errorf("web: the page: %w", err)
	}
	conf := siteConfig{Wasm: siteWasm, Games: games, Files: map[string]string{}}
	models := map[string][]byte{} // the worker's path -> bytes
	for _, g := range games {
		if g.file == "" {
			continue
		}
		b, err := os.ReadFile(g.file)
		if err != nil {
			return siteReport{}, badInput("web", "--model: %v", err)
		}
		name := "models/" + g.Game + ".kmodel"
		if err := write(name, b); err != nil {
			return siteReport{}, err
		}
		conf.Files["/"+name] = name
		models["/"+name] = b
	}
	if err := write(siteWasm, wasm); err != nil {
		return siteReport{}, err
	}
	if err := write(siteExec, exec); err != nil {
		return siteReport{}, err
	}
	if f.bundle {
		conf.Bundle = siteBundle
		worker, err := fs.ReadFile(page, "worker.js")
		if err != nil {
			return siteReport{}, fmt.Errorf("web: the page: %w", err)
		}
		b, err := bundleJS(exec, worker, wasm, models)
		if err != nil {
			return siteReport{}, err
		}
		if err := write(siteBundle, b); err != nil {
			return siteReport{}, err
		}
	} else if err := os.Remove(filepath.Join(f.out, siteBundle)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return siteReport{}, fmt.Errorf("web: %w", err)
	}
	js, err := json.MarshalIndent(conf, "", "  ")
	if err != nil {
		return siteReport{}, fmt.Errorf("web: %w", err)
	}
	if err := write(siteConfJS, []byte("// Written by kumalak web: the bot runs in the page (static.js, worker.js).\nvar KUMALAK_SITE = "+string(js)+";\n")); err != nil {
		return siteReport{}, err
	}
	return rep, nil
}

// siteGames returns the games of the site with the agent that plays each:
// the shipped model, or the --model file, at --sims or --time.
func siteGames(f webFlags) ([]siteGame, error) {
	files := map[string]string{}
	for _, m := range f.models {
		game, file, ok := strings.Cut(m, "=")
		if !ok || file == "" {
			return nil, badInput("web", "--model %q: want GAME=FILE", m)
		}
		if _, err := env.Lookup(game); err != nil {
			return nil, badInput("web", "--model %s: %v", m, err)
		}
		files[game] = file
	}
	names := f.games
	if len(names) == 0 {
		for _, g := range env.Games() {
			if _, ok := files[g]; ok || slices.Contains(models.Games(), g) {
				names = append(names, g)
			}
		}
	}
	var games []siteGame
	for _, name := range names {
		spec, err := env.Lookup(name)
		if err != nil {
			return nil, badInput("web", "--games: %v", err)
		}
		if slices.ContainsFunc(games, func(g siteGame) bool { return g.Game == name }) {
			return nil, badInput("web", "--games: %s given twice", name)
		}
		g, err := siteGameFor(spec, files[name], f.sims, f.time)
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	for game := range files {
		if !slices.Contains(names, game) {
			return nil, badInput("web", "--model %s=...: %s is not one of --games", game, game)
		}
	}
	if len(games) == 0 {
		return nil, badInput("web", "no game: no shipped model and no --model")
	}
	return games, nil
}

// siteGameFor returns the game played by the model file ("" = the
// shipped one) with sims (0 = the card's) or time.
func siteGameFor(spec *env.Spec, file string, sims int, limit time.Duration) (siteGame, error) {
	var m *net.Model
	var err error
	if file == "" {
		var b []byte
		if b, err = models.Bytes(spec.Name); err != nil {
			return siteGame{}, badInput("web", "%v (give --model %s=FILE)", err, spec.Name)
		}
		m, err = net.Unmarshal(b)
	} else {
		m, err = net.LoadFor(file, spec.Name, spec.ObsVersion)
	}
	if err != nil {
		return siteGame{}, badInput("web", "%s: %v", spec.Name, err)
	}
	if sims == 0 && limit == 0 {
		sims = agent.ModelSims(m.Meta.Card)
	}
	// The site's spec reads a --model file from the worker's files; the
	// same spec with the file's own path is built here, to refuse a bad
	// one now.
	site, err := modelAgentSpec(file, "/models/"+spec.Name+".kmodel", sims, limit)
	if err != nil {
		return siteGame{}, badInput("web", "%s: %v", spec.Name, err)
	}
	here, err := modelAgentSpec(file, file, sims, limit)
	if err == nil {
		_, err = agent.New(spec, here, 1)
	}
	if err != nil {
		return siteGame{}, badInput("web", "%s: %v", spec.Name, err)
	}
	card, err := cardJSON(m.Meta.Card)
	if err != nil {
		return siteGame{}, fmt.Errorf("web: %s: %w", spec.Name, err)
	}
	return siteGame{Game: spec.Name, Agent: site, Card: card, file: file}, nil
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

// siteWasmFiles returns kumalak.wasm (built from the source, or --wasm)
// and the toolchain's wasm_exec.js.
func siteWasmFiles(ctx context.Context, f webFlags) (wasm, execJS []byte, err error) {
	goroot, err := goEnv(f.goBin, "GOROOT")
	if err != nil {
		return nil, nil, err
	}
	if execJS, err = os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js")); err != nil {
		return nil, nil, fmt.Errorf("web: the toolchain's wasm_exec.js: %w", err)
	}
	if f.wasm != "" {
		if wasm, err = os.ReadFile(f.wasm); err != nil {
			return nil, nil, badInput("web", "--wasm: %v", err)
		}
		return wasm, execJS, nil
	}
	src := f.src
	if src == "" {
		if src, err = sourceTree(); err != nil {
			return nil, nil, err
		}
	} else if !isSourceTree(src) {
		return nil, nil, badInput("web", "--src %s: not the kumalak source tree (no go.mod of module kumalak)", src)
	}
	tmp, err := os.MkdirTemp("", "kumalak-web-")
	if err != nil {
		return nil, nil, fmt.Errorf("web: %w", err)
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, siteWasm)
	cmd := exec.CommandContext(ctx, f.goBin, "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./cmd/kumalak-wasm")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("web: build the wasm in %s: %v\n%s", src, err, msg)
	}
	if wasm, err = os.ReadFile(out); err != nil {
		return nil, nil, fmt.Errorf("web: %w", err)
	}
	return wasm, execJS, nil
}

// goEnv returns one variable of `go env`.
func goEnv(goBin, name string) (string, error) {
	out, err := exec.Command(goBin, "env", name).Output()
	if err != nil {
		return "", badInput("web", "--go %s: go env %s: %v (the site needs the Go toolchain)", goBin, name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// sourceTree returns the kumalak source tree holding the working folder,
// else the one this binary was built from, when it is still there (not
// for a -trimpath build).
func sourceTree() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("web: %w", err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if isSourceTree(d) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if d := filepath.Dir(filepath.Dir(filepath.Dir(file))); isSourceTree(d) {
			return d, nil
		}
	}
	return "", badInput("web", "%s is not in the kumalak source tree, which the wasm is built from: run web there, or give --src DIR or --wasm FILE", dir)
}

// isSourceTree reports whether dir holds kumalak's go.mod and the wasm's
// main package.
func isSourceTree(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(b), "\n")
	_, err = os.Stat(filepath.Join(dir, "cmd", "kumalak-wasm"))
	return strings.TrimSpace(first) == "module kumalak" && err == nil
}

// bundleJS writes kumalak-bundle.js: the worker's source (wasm_exec.js,
// then worker.js), the wasm and the model files as base64.
func bundleJS(execJS, worker, wasm []byte, files map[string][]byte) ([]byte, error) {
	b64 := map[string]string{}
	for p, data := range files {
		b64[p] = base64.StdEncoding.EncodeToString(data)
	}
	v := struct {
		Worker string            `json:"worker"`
		Wasm   string            `json:"wasm"`
		Files  map[string]string `json:"files"`
	}{string(execJS) + "\n" + string(worker), base64.StdEncoding.EncodeToString(wasm), b64}
	js, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("web: the bundle: %w", err)
	}
	var buf bytes.Buffer
	buf.WriteString("// Written by kumalak web: the bot for the page opened from file:// (static.js).\nvar KUMALAK_BUNDLE = ")
	buf.Write(js)
	buf.WriteString(";\n")
	return buf.Bytes(), nil
}

// gzipSize returns the size of b gzipped (the default level, as web
// servers compress).
func gzipSize(b []byte) int {
	var n countWriter
	zw := gzip.NewWriter(&n)
	_, _ = zw.Write(b) // countWriter never fails
	_ = zw.Close()
	return int(n)
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)

// print says what was written and how to publish it.
func (r siteReport) print(w io.Writer) {
	total, gz, wasmGz := 0, 0, 0
	for _, f := range r.files {
		if f.name == siteBundle {
			continue // only file:// reads it
		}
		total += f.size
		gz += f.gzip
		if f.name == siteWasm {
			wasmGz = f.gzip
		}
	}
	fmt.Fprintf(w, "wrote %s: %d files\n", r.dir, len(r.files))
	for _, f := range r.files {
		if f.name == siteBundle {
			fmt.Fprintf(w, "  %-22s %9d bytes (read only from file://)\n", f.name, f.size)
			continue
		}
		fmt.Fprintf(w, "  %-22s %9d bytes, %9d gzipped\n", path.Clean(f.name), f.size, f.gzip)
	}
	fmt.Fprintf(w, "served over http(s): %.1f MB, %.1f MB gzipped (the wasm %.1f MB gzipped)\n", mb(total), mb(gz), mb(wasmGz))
	for _, g := range r.games {
		fmt.Fprintf(w, "  %-13s %s\n", g.Game, g.Agent)
	}
	fmt.Fprintf(w, "open %s in a browser, or upload the folder to any static web host\n", filepath.Join(r.dir, "index.html"))
}

func mb(n int) float64 { return float64(n) / 1e6 }
