package web

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestAPICodesDocumented: every error code the server's source can answer
// (an apiError literal or a badRequest call), with its status, is a row of
// docs/PLAYING.md's error code table, and the table lists no other.
func TestAPICodesDocumented(t *testing.T) {
	inSource := sourceCodes(t)
	if len(inSource) < 10 {
		t.Fatalf("found %d codes in the source: the scan misses them", len(inSource))
	}
	doc, err := os.ReadFile("../../docs/PLAYING.md")
	if err != nil {
		t.Fatal(err)
	}
	inDoc := map[string]int{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| ([0-9]{3}) \\|").FindAllStringSubmatch(string(doc), -1) {
		inDoc[m[1]], _ = strconv.Atoi(m[2])
	}
	for code, status := range inSource {
		if got, ok := inDoc[code]; !ok || got != status {
			t.Errorf("code %s (status %d) is not in docs/PLAYING.md's error code table (there: %d)", code, status, got)
		}
	}
	for code := range inDoc {
		if _, ok := inSource[code]; !ok {
			t.Errorf("docs/PLAYING.md lists code %s, which the server never answers", code)
		}
	}
}

// sourceCodes returns the codes of the package's non-test sources with
// their statuses: apiError{http.StatusX, "code", ...} and badRequest("code", ...).
func sourceCodes(t *testing.T) map[string]int {
	t.Helper()
	statuses := map[string]int{}
	for code := 100; code < 600; code++ {
		if text := http.StatusText(code); text != "" {
			statuses["Status"+strings.NewReplacer(" ", "", "-", "", "'", "").Replace(text)] = code
		}
	}
	statuses["StatusRequestEntityTooLarge"] = http.StatusRequestEntityTooLarge
	files, _ := filepath.Glob("*.go")
	codes := map[string]int{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "apiError" && len(n.Elts) >= 2 {
					sel, ok1 := n.Elts[0].(*ast.SelectorExpr)
					lit, ok2 := n.Elts[1].(*ast.BasicLit)
					if ok1 && ok2 {
						code, _ := strconv.Unquote(lit.Value)
						codes[code] = statuses[sel.Sel.Name]
					}
				}
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "badRequest" && len(n.Args) > 0 {
					if lit, ok := n.Args[0].(*ast.BasicLit); ok {
						code, _ := strconv.Unquote(lit.Value)
						codes[code] = http.StatusBadRequest
					}
				}
			}
			return true
		})
	}
	return codes
}
