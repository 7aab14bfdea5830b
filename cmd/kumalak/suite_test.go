package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// plainTests matches the names of the tests that `make test` runs again
// without the race detector (the Makefile's PLAIN_TESTS): allocation counts
// mean nothing under it (sync.Pool drops items at random), and net's kernel
// tests sweep every batch size only without it.
var plainTests = regexp.MustCompile(`Alloc|Kernel`)

// TestAllocTestsRunPlain fails when a test that counts allocations
// (testing.AllocsPerRun) has a name that the Makefile's plain pass would
// not run: its zero would then be checked only under -race, if at all.
func TestAllocTestsRunPlain(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || !countsAllocs(fn) {
				continue
			}
			found++
			if !plainTests.MatchString(fn.Name.Name) {
				t.Errorf("%s: %s counts allocations but its name matches no %q: the plain pass of make test skips it", path, fn.Name.Name, plainTests)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 10 {
		t.Errorf("found only %d allocation tests", found)
	}
}

// countsAllocs reports whether fn calls testing.AllocsPerRun.
func countsAllocs(fn *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "AllocsPerRun" {
			found = true
		}
		return !found
	})
	return found
}
