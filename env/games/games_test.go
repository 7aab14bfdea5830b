package games

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kumalak/env"
	"kumalak/env/envtest"
)

// TestFacts holds every registered game to the per-game facts the rest of
// kumalak reads (envtest.Facts).
func TestFacts(t *testing.T) {
	for _, name := range env.Games() {
		spec, err := env.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := envtest.CheckFacts(spec); err != nil {
			t.Error(err)
		}
	}
}

// TestOneFolder fails when a per-game fact lives outside the game's folder:
// code outside env/ that tells games apart by name (a map keyed by game
// names, a comparison or switch on one, a prefix test) instead of asking
// the game for an ability. Naming a game as a default ("togyz" when none is
// given) or in text is fine.
func TestOneFolder(t *testing.T) {
	names := map[string]bool{}
	for _, n := range env.Games() {
		names[n] = true
	}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "env" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, pos := range gameTests(f, names) {
			t.Errorf("%s: tells a game by its name: a per-game fact belongs in the game's folder (an env ability, envtest.Facts)", fset.Position(pos))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestGameTestsFinds: the detector of TestOneFolder finds each way of
// telling a game by its name, and passes a name used as a default.
func TestGameTestsFinds(t *testing.T) {
	const src = `package p
var margins = map[string]float64{"togyz": 1.5}
func f(g string) int {
	def := "mangala"
	if g == "togyz" || def != g {
		return 1
	}
	switch g {
	case "kalah":
		return 2
	}
	if strings.HasPrefix(g, "mangala") {
		return 3
	}
	return 0
}`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{"togyz": true, "mangala": true, "kalah": true}
	if got := gameTests(f, names); len(got) != 4 {
		t.Errorf("found %d places that tell a game by its name, want 4 (map key, ==, case, HasPrefix)", len(got))
	}
}

// gameTests returns where f tells games apart by a literal game name.
func gameTests(f *ast.File, names map[string]bool) []token.Pos {
	isGame := func(e ast.Expr) bool {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return false
		}
		s, err := strconv.Unquote(lit.Value)
		return err == nil && names[s]
	}
	var out []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (isGame(n.X) || isGame(n.Y)) {
				out = append(out, n.Pos())
			}
		case *ast.KeyValueExpr:
			if isGame(n.Key) {
				out = append(out, n.Pos())
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				if isGame(e) {
					out = append(out, e.Pos())
				}
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && strings.HasPrefix(sel.Sel.Name, "HasPrefix") {
				for _, a := range n.Args {
					if isGame(a) {
						out = append(out, a.Pos())
					}
				}
			}
		}
		return true
	})
	return out
}
