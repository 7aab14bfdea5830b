package site

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kumalak/env"
	_ "kumalak/env/games"
)

// fakeWasm writes a stand-in for kumalak.wasm, so that Write builds nothing.
func fakeWasm(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fake.wasm")
	if err := os.WriteFile(p, []byte("\x00asm fake"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWriteAndReadManifest writes a site of one game with a given wasm and
// reads its manifest back: the game, its bot at the asked simulations,
// the shipped model's card, the bundle and every file of the page.
func TestWriteAndReadManifest(t *testing.T) {
	out := t.TempDir()
	rep, err := Write(context.Background(), Config{Out: out, Games: []string{"togyz"}, Sims: 8, Wasm: fakeWasm(t), Bundle: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Games) != 1 || m.Games[0].Game != "togyz" || !strings.Contains(m.Games[0].Agent, "sims=8") || len(m.Games[0].Card) == 0 {
		t.Fatalf("manifest games %+v", m.Games)
	}
	if m.Wasm != WasmFile || m.Bundle != BundleFile {
		t.Fatalf("manifest %+v", m)
	}
	names := map[string]bool{}
	for _, f := range rep.Files {
		names[f.Name] = true
		if fi, err := os.Stat(filepath.Join(out, filepath.FromSlash(f.Name))); err != nil || fi.Size() != int64(f.Size) {
			t.Errorf("%s: %v, size %d reported", f.Name, err, f.Size)
		}
		if (f.Gzip == 0) != (f.Name == BundleFile) {
			t.Errorf("%s: gzipped size %d", f.Name, f.Gzip)
		}
	}
	for _, n := range []string{"index.html", "app.js", "worker.js", ConfigFile, WasmFile, ExecFile, BundleFile} {
		if !names[n] {
			t.Errorf("the site lacks %s (wrote %v)", n, names)
		}
	}
	// Without the bundle, a second write removes the first one's.
	if _, err := Write(context.Background(), Config{Out: out, Games: []string{"togyz"}, Wasm: fakeWasm(t)}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, BundleFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the bundle is still there: %v", err)
	}
}

// TestWriteBadInput: bad settings are InputErrors naming the flag, found
// before anything is built or written.
func TestWriteBadInput(t *testing.T) {
	out := t.TempDir()
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "--out is required"},
		{Config{Out: out, Models: []string{"togyz"}}, `--model "togyz": want GAME=FILE`},
		{Config{Out: out, Models: []string{"chess=a.kmodel"}}, `--model chess=a.kmodel: unknown game "chess"`},
		{Config{Out: out, Games: []string{"mangala"}, Models: []string{"togyz=x.kmodel"}}, "togyz is not one of --games"},
		{Config{Out: out, Games: []string{"togyz", "togyz"}}, "--games: togyz given twice"},
		{Config{Out: out, Sims: -1}, "--sims -1 or --time 0s out of range"},
		{Config{Out: out, Src: out}, "not the kumalak source tree"},
		{Config{Out: out, Go: filepath.Join(out, "nogo")}, "the site needs the Go toolchain"},
		{Config{Out: out, Wasm: filepath.Join(out, "none.wasm")}, "--wasm"},
	} {
		_, err := Write(context.Background(), c.cfg)
		var in *InputError
		if !errors.As(err, &in) || !strings.Contains(in.Reason, c.want) {
			t.Errorf("%+v: %v; want an InputError with %q", c.cfg, err, c.want)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("bad input wrote %d files", len(entries))
	}
}

// FuzzReadManifest: any site.js is read or refused with an error, never a
// panic.
func FuzzReadManifest(f *testing.F) {
	f.Add([]byte(manifestHead + `{"wasm":"kumalak.wasm","games":[{"game":"togyz","agent":"model"}],"files":{}};`))
	f.Add([]byte("var KUMALAK_SITE = {"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ConfigFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _ = ReadManifest(dir)
	})
}

// TestSiteGames: by default the site offers every game serve plays, each
// by its shipped model with its card; a game with none shipped (a Kalah
// board other than 6,4) is played by the model agent's stand-in with no
// card, as serve plays it.
func TestSiteGames(t *testing.T) {
	games, err := siteGames(Config{Sims: 8})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range games {
		names = append(names, g.Game)
		if !strings.Contains(g.Agent, "sims=8") || len(g.Card) == 0 {
			t.Errorf("%s: %+v, want its shipped model's card", g.Game, g)
		}
	}
	if !slices.Equal(names, env.Games()) || !slices.Contains(names, "kalah") {
		t.Errorf("site games %v, want serve's %v", names, env.Games())
	}
	const variant = "kalah:houses=4,seeds=3"
	games, err = siteGames(Config{Games: []string{variant}, Sims: 8})
	if err != nil || len(games) != 1 || games[0].Agent != "model:sims=8" || len(games[0].Card) != 0 || games[0].file != "" {
		t.Errorf("%s: %+v, %v; want model:sims=8 with no card", variant, games, err)
	}
}
