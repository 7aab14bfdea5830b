package main

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// layout is the package table of README.md ("How it is built"), in
// dependency order: each package and the kumalak packages it may import
// (its non-test files; tests may import more). The game packages import
// nothing outside the standard library and kumalak. A package missing here fails the
// test: a new package gets a row in the README and here.
var layout = []layoutRow{
	{"env", true, nil},
	{gameRow, true, []string{"env"}}, // env/togyz, env/mangala, env/kalah: one game each
	{"env/games", true, []string{"env", gameRow}},
	{"env/envtest", true, []string{"env", gameRow}}, // the tests' small games are kalah's rules
	{"data", false, nil},
	{"data/datatest", true, nil}, // helpers of the tests of checksummed files
	{"net", false, []string{"data"}},
	{"net/internal/kernelgen", true, nil}, // go generate ./net: writes the SIMD kernels
	{"net/learn", false, []string{"net", "data"}},
	{"net/onnx", false, []string{"net", "data"}},
	{"net/nettest", true, nil},                      // the random inputs of the tests under net
	{"net/tinynet", false, []string{"net", "data"}}, // the small random networks of the tests of agent, bot and cluster
	{"protocol", false, []string{"env"}},
	{"solve", false, []string{"env", gameRow}},
	{"solve/solvetest", false, []string{"solve"}}, // the tablebase of the tests
	{"mcts", false, []string{"env"}},
	{"models", true, nil}, // the shipped .kmodel files (data only)
	{"agent", false, []string{"env", "mcts", "net", "protocol", "solve", "models"}},
	{"arena", false, []string{"env", "agent", "solve"}},
	{"selfplay", false, []string{"env", "mcts", "data"}},
	{"cluster", false, []string{"env", "data", "net", "selfplay"}},
	{"train", false, []string{"env", "env/games", gameRow, "data", "net", "net/learn", "net/onnx", "protocol", "solve", "mcts", "agent", "arena", "selfplay", "cluster"}},
	{"bot/words", false, []string{"env"}},                                         // what every front end says about a game
	{"bot/play", false, []string{"env", "agent", "protocol", "bot/words"}},        // terminal play
	{"bot/engine", false, []string{"env", "agent", "protocol", "bot/words"}},      // the engine protocol server
	{"bot/analysis", false, []string{"env", "agent", "bot/words"}},                // game analysis
	{"bot/web", false, []string{"env", "agent", "bot/words"}},                     // HTTP API and page
	{"bot/web/site", false, []string{"env", "agent", "bot/web", "models", "net"}}, // kumalak web's static site
	{"bot/web/webtest", false, nil},                                               // the browser of the web tests of bot/web and cmd/kumalak (tests only)
	{"cmd/kumalak", false, nil},                                                   // everything
	{"cmd/kumalak-wasm", false, nil},                                              // the static site's bot: everything it plays with
}

// gameRow stands for every game folder, env/<game>: a game is one folder,
// importing only env, and a new one needs no row.
const gameRow = "env/*"

// rowOf returns the row of the package in dir (a game folder's is gameRow).
func rowOf(dir string) string {
	if isGame(dir) {
		return gameRow
	}
	return dir
}

// isGame reports whether dir is a game folder: env/<name>, other than the
// registry and the conformance suite.
func isGame(dir string) bool {
	name, ok := strings.CutPrefix(dir, "env/")
	return ok && !strings.Contains(name, "/") && name != "games" && name != "envtest" && name != "*"
}

// layoutRow is one row of the layout table.
type layoutRow struct {
	pkg    string
	stdlib bool     // imports only the standard library
	may    []string // the kumalak packages it may import
}

const module = "kumalak/"

func TestLayout(t *testing.T) {
	pkgs := repoPackages(t)
	if len(pkgs) < 12 {
		t.Fatalf("found %d packages: %v", len(pkgs), pkgs)
	}
	for dir, p := range pkgs {
		i := slices.IndexFunc(layout, func(r layoutRow) bool { return r.pkg == rowOf(dir) })
		if i < 0 {
			t.Errorf("package %s is not in the layout table (README.md and layout_test.go)", dir)
			continue
		}
		row := layout[i]
		for _, imp := range p.Imports {
			if msg := forbidden(row.pkg, row.stdlib, row.may, imp); msg != "" {
				t.Errorf("%s imports %s: %s", dir, imp, msg)
			}
		}
	}
}

// TestLayoutCatches pins forbidden on imports the table refuses.
func TestLayoutCatches(t *testing.T) {
	cases := []struct {
		pkg, imp string
		stdlib   bool
		may      []string
		bad      bool
	}{
		{"env", "fmt", true, nil, false},
		{"env", "github.com/spf13/cobra", true, nil, true},
		{"env", module + "data", true, nil, true},
		{"mcts", module + "env", false, []string{"env"}, false},
		{"mcts", module + "net", false, []string{"env"}, true},
		{"mcts", module + "env/kalah", false, []string{"env"}, true},
		{"solve", module + "env/kalah", false, []string{"env", gameRow}, false},
		{"solve", module + "env/games", false, []string{"env", gameRow}, true},
		{"cmd/kumalak", module + "train", false, nil, false},
	}
	for _, c := range cases {
		if got := forbidden(c.pkg, c.stdlib, c.may, c.imp); (got != "") != c.bad {
			t.Errorf("forbidden(%s, %s) = %q, want forbidden %v", c.pkg, c.imp, got, c.bad)
		}
	}
}

// forbidden says why pkg, whose row is stdlib and may, must not import
// imp, or returns "".
func forbidden(pkg string, stdlib bool, may []string, imp string) string {
	local, isLocal := strings.CutPrefix(imp, module)
	switch {
	case pkg == "cmd/kumalak" || pkg == "cmd/kumalak-wasm":
		return ""
	case isLocal && !slices.Contains(may, local) && !(isGame(local) && slices.Contains(may, gameRow)):
		return "the layout table does not allow it"
	case stdlib && !isLocal && strings.Contains(strings.Split(imp, "/")[0], "."):
		return "the package may import only the standard library"
	}
	return ""
}

// repoPackages returns the Go packages of the repository by folder
// (relative, slash-separated), skipping testdata and hidden folders.
func repoPackages(t *testing.T) map[string]*build.Package {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]*build.Package{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		pkgs[filepath.ToSlash(rel)] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}
