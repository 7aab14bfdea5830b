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
// names, a comparison, switch or search on one, a prefix test) or by a
// game package's spec, instead of asking the game's env.Facts or an
// ability. Naming a game as a default ("mangala" when none is given) or in
// text is fine. The grep it stands for, run at the repository root:
//
//	grep -rnE --include='*.go' '(==|!=) *"(togyz|mangala|kalah)|"(togyz|mangala|kalah)[^"]*" *(==|!=)|case "(togyz|mangala|kalah)|Contains\([^)]*"(togyz|mangala|kalah)|solve\.Game\b|(==|!=) *(togyz|mangala|kalah)\.(Kale)?Spec|(togyz|mangala|kalah)\.(Kale)?Spec(\.Name)? *(==|!=)' . | grep -v '_test.go' | grep -v '^./env/'
func TestOneFolder(t *testing.T) {
	names := map[string]bool{}
	for _, n := range env.Games() {
		names[n] = true
	}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	var files []*ast.File
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
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	consts := gameConsts(files, names)
	for _, f := range files {
		for _, pos := range gameTests(f, names, consts) {
			t.Errorf("%s: tells a game by its name: a per-game fact belongs in the game's folder (env.Facts, an env ability)", fset.Position(pos))
		}
	}
}

// TestGameTestsFinds: the detector of TestOneFolder finds each way of
// telling a game by its name, and passes a name used as a default.
func TestGameTestsFinds(t *testing.T) {
	const src = `package p
var margins = map[string]float64{"togyz": 1.5}
func f(g string, s *env.Spec) int {
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
	if slices.Contains(games, "togyz") || g == "kalah:houses=4" {
		return 4
	}
	if g == solve.Game || s.Name != mangala.Spec.Name || s == mangala.KaleSpec {
		return 5
	}
	return 0
}`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{"togyz": true, "mangala": true, "kalah": true}
	consts := map[string]bool{"solve.Game": true}
	if got := gameTests(f, names, consts); len(got) != 9 {
		t.Errorf("found %d places that tell a game by its name, want 9 (map key, ==, case, HasPrefix, Contains, a variant, an exported constant, a spec's name, a spec)", len(got))
	}
	decl := `package solve
const Game = "mangala"
const other = "kalah"
const Size = 3`
	f, err = parser.ParseFile(token.NewFileSet(), "solve.go", decl, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := gameConsts([]*ast.File{f}, names); len(got) != 1 || !got["solve.Game"] {
		t.Errorf("game constants %v, want solve.Game", got)
	}
}

// gameConsts returns the exported constants of files whose value is a
// game name, as "pkg.Name": comparing another package's such constant is
// comparing a game name.
func gameConsts(files []*ast.File, names map[string]bool) map[string]bool {
	consts := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) && n.IsExported() && isGameLit(vs.Values[i], names) {
						consts[f.Name.Name+"."+n.Name] = true
					}
				}
			}
		}
	}
	return consts
}

// gamePkgs are the import names of the game folders.
var gamePkgs = map[string]bool{"togyz": true, "mangala": true, "kalah": true}

// isGameLit reports whether e is a string literal naming a game, or a
// variant of a game family ("kalah:houses=4").
func isGameLit(e ast.Expr, names map[string]bool) bool {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	s, err := strconv.Unquote(lit.Value)
	base, _, _ := strings.Cut(s, ":")
	return err == nil && names[base]
}

// gameTests returns where f tells games apart by a game's name: a literal,
// another package's constant of consts, or a game package's spec.
func gameTests(f *ast.File, names, consts map[string]bool) []token.Pos {
	isGame := func(e ast.Expr) bool {
		if isGameLit(e, names) {
			return true
		}
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		if x, ok := sel.X.(*ast.Ident); ok {
			return consts[x.Name+"."+sel.Sel.Name] || gamePkgs[x.Name] && strings.HasSuffix(sel.Sel.Name, "Spec")
		}
		inner, ok := sel.X.(*ast.SelectorExpr) // mangala.Spec.Name
		if !ok || sel.Sel.Name != "Name" {
			return false
		}
		x, ok := inner.X.(*ast.Ident)
		return ok && gamePkgs[x.Name] && strings.HasSuffix(inner.Sel.Name, "Spec")
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
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && searches[sel.Sel.Name] {
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

// searches are the functions that compare their arguments.
var searches = map[string]bool{"HasPrefix": true, "HasSuffix": true, "EqualFold": true, "Contains": true, "Index": true, "Compare": true}
