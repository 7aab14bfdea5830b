package main

import (
	"errors"
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// layoutDoc holds the package table, in dependency order: each package
// (a row may name several), what it holds, and the kumalak packages its
// non-test files may import (tests may import more). TestLayout reads the
// table from the doc; there is no other copy.
const layoutDoc = "docs/ARCHITECTURE.md"

// readLayout returns the rows of the table under the doc's "## The
// packages" heading. The last column, "may import", lists kumalak packages
// in backquotes; "the games" or "its games" allows every game folder;
// "stdlib" (or "standard library") means nothing outside the standard
// library besides those; "everything" allows any import; a cell with no
// package ("—", "nothing of kumalak") allows no kumalak package.
func readLayout(t *testing.T) []layoutRow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", layoutDoc))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := parseLayout(string(b))
	if err != nil {
		t.Fatalf("%s: %v", layoutDoc, err)
	}
	return rows
}

// parseLayout reads the package table of doc (see readLayout).
func parseLayout(doc string) ([]layoutRow, error) {
	_, section, ok := strings.Cut(doc, "\n## The packages\n")
	if !ok {
		return nil, errors.New(`no "## The packages" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []layoutRow
	for line := range strings.Lines(section) {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) < 2 {
			return nil, fmt.Errorf("row %q: want cells between |", line)
		}
		may, last := cells[len(cells)-1], strings.ToLower(cells[len(cells)-1])
		row := layoutRow{
			stdlib: strings.Contains(last, "stdlib") || strings.Contains(last, "standard library"),
			any:    strings.Contains(last, "everything"),
			may:    ticked(may),
		}
		if strings.Contains(last, "the games") || strings.Contains(last, "its games") {
			row.may = append(row.may, gameRow)
		}
		for i, m := range row.may {
			row.may[i] = rowOf(m)
		}
		for _, pkg := range ticked(cells[0]) {
			row.pkg = rowOf(pkg)
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return nil, errors.New("the package table has no rows")
	}
	return rows, nil
}

// ticked returns the words of s written in backquotes.
func ticked(s string) []string {
	var out []string
	for {
		_, rest, ok := strings.Cut(s, "`")
		if !ok {
			return out
		}
		word, after, ok := strings.Cut(rest, "`")
		if !ok {
			return out
		}
		out, s = append(out, word), after
	}
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
	any    bool     // may import anything (the commands)
	may    []string // the kumalak packages it may import
}

const module = "kumalak/"

func TestLayout(t *testing.T) {
	layout := readLayout(t)
	pkgs := repoPackages(t)
	if len(pkgs) < 12 {
		t.Fatalf("found %d packages: %v", len(pkgs), pkgs)
	}
	for dir, p := range pkgs {
		i := slices.IndexFunc(layout, func(r layoutRow) bool { return r.pkg == rowOf(dir) })
		if i < 0 {
			t.Errorf("package %s is not in the package table of %s", dir, layoutDoc)
			continue
		}
		row := layout[i]
		for _, imp := range p.Imports {
			if msg := forbidden(row, imp); msg != "" {
				t.Errorf("%s imports %s: %s", dir, imp, msg)
			}
		}
	}
	for i, row := range layout {
		if _, ok := pkgs[row.pkg]; !ok && row.pkg != gameRow {
			t.Errorf("%s names package %s, which is not in the repository", layoutDoc, row.pkg)
		}
		for _, m := range row.may {
			if j := slices.IndexFunc(layout, func(r layoutRow) bool { return r.pkg == m }); j < 0 || j >= i {
				t.Errorf("%s: %s may import %s, which is not a package above it in the table", layoutDoc, row.pkg, m)
			}
		}
	}
}

// TestParseLayout pins how the table's cells are read.
func TestParseLayout(t *testing.T) {
	const doc = "# A\n\n## The packages\n\n| package | holds | may import |\n|---|---|---|\n" +
		"| `env` | the vocabulary | stdlib |\n" +
		"| `env/togyz`, `env/kalah` | one game each | `env`, stdlib |\n" +
		"| `data` | samples | — |\n" +
		"| `solve` | tablebases | `env` and its games |\n" +
		"| `bot/web` | the API | `env`, `solve` |\n" +
		"| `cmd/kumalak` | the command | everything |\n\n## Next\n| `ignored` | x | y |\n"
	rows, err := parseLayout(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []layoutRow{
		{pkg: "env", stdlib: true},
		{pkg: gameRow, stdlib: true, may: []string{"env"}},
		{pkg: gameRow, stdlib: true, may: []string{"env"}},
		{pkg: "data"},
		{pkg: "solve", may: []string{"env", gameRow}},
		{pkg: "bot/web", may: []string{"env", "solve"}},
		{pkg: "cmd/kumalak", any: true},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("parseLayout:\n got %+v\nwant %+v", rows, want)
	}
	if _, err := parseLayout("# no table\n"); err == nil {
		t.Error("a doc without the section: no error")
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
		if got := forbidden(layoutRow{pkg: c.pkg, stdlib: c.stdlib, may: c.may, any: c.pkg == "cmd/kumalak"}, c.imp); (got != "") != c.bad {
			t.Errorf("forbidden(%s, %s) = %q, want forbidden %v", c.pkg, c.imp, got, c.bad)
		}
	}
}

// forbidden says why the package of row must not import imp, or returns "".
func forbidden(row layoutRow, imp string) string {
	local, isLocal := strings.CutPrefix(imp, module)
	switch {
	case row.any:
		return ""
	case isLocal && !slices.Contains(row.may, rowOf(local)):
		return "the package table (" + layoutDoc + ") does not allow it"
	case row.stdlib && !isLocal && strings.Contains(strings.Split(imp, "/")[0], "."):
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

// maxCommandLines bounds the command's own code: cmd/kumalak parses flags
// and wires the packages together; the rules (choosing, checking,
// reporting, loops) live in the packages, with their tests.
const maxCommandLines = 1500

// TestCommandOnlyWires counts cmd/kumalak's lines of code outside tests,
// those neither blank nor a // comment (as grep -v '^\s*$' | grep -v
// '^\s*//' | wc -l counts them, file by file), and fails above
// maxCommandLines, naming the largest files: a rule that grew here belongs
// in its package.
func TestCommandOnlyWires(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	type fileLines struct {
		file  string
		lines int
	}
	var counts []fileLines
	total := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n := countCode(string(b))
		counts = append(counts, fileLines{f, n})
		total += n
	}
	if total > maxCommandLines {
		slices.SortFunc(counts, func(a, b fileLines) int { return b.lines - a.lines })
		t.Errorf("cmd/kumalak holds %d lines of code outside tests, more than %d: move the rules into their packages (docs/ARCHITECTURE.md); the largest files: %v",
			total, maxCommandLines, counts[:min(5, len(counts))])
	}
}

// countCode returns the number of lines of src that are neither blank
// nor a // comment.
func countCode(src string) int {
	n := 0
	for line := range strings.Lines(src) {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "//") {
			n++
		}
	}
	return n
}

// TestCountCode pins what countCode counts: code, a block comment, code
// with a comment after it; not blank lines nor // comments, indented or not.
func TestCountCode(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"", 0},
		{"package main\n", 1},
		{"package main\n\n \t\n// doc\n\t// note\nfunc f() {} // why\n", 2},
		{"/* block */\nx := 1\n\n", 2},
		{"no final newline", 1},
	} {
		if got := countCode(c.src); got != c.want {
			t.Errorf("%q: %d, want %d", c.src, got, c.want)
		}
	}
}
