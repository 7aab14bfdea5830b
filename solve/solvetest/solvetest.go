// Package solvetest holds the tablebase of the tests of the packages that
// use one (agent, mcts, train): classic mangala's levels 0..Stones, built
// once per test binary (well under a second) into a temporary folder that
// Main removes. solve's own tests, which cannot import this package, keep
// theirs in solve/helpers_test.go.
package solvetest

import (
	"context"
	"os"
	"sync"
	"testing"

	"kumalak/solve"
)

// Stones is the largest level of the test tablebase.
const Stones = 10

var shared struct {
	once sync.Once
	dir  string
	err  error
}

// Dir returns the folder of the test tablebase, building it on first use.
func Dir(t testing.TB) string {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "kumalak-test-tb-")
		if shared.err == nil {
			_, shared.err = solve.Build(context.Background(), solve.BuildConfig{Dir: shared.dir, Stones: Stones})
		}
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.dir
}

// Open opens the test tablebase for t, closing it when t ends.
func Open(t testing.TB) *solve.Tablebase {
	t.Helper()
	tb, err := solve.Open(Dir(t), -1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// Main runs the tests of m and removes the tablebase's folder, returning
// the exit status: a package's TestMain is os.Exit(solvetest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	return code
}
