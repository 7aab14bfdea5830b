package solve

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestProgressLine pins the saves' progress line: the moves at the first
// plies, the share of the test behind them and the time left at that rate.
func TestProgressLine(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var pr progress
	if got := pr.line(t0); got != "" {
		t.Errorf("before any test: %q", got)
	}
	for _, c := range []struct {
		at   [][3]int // ply, i, n entered in order
		want string
	}{
		{nil, "testing move 5 for 10m0s"},
		{[][3]int{{0, 0, 6}}, "testing move 5 for 10m0s, at moves 1/6 of the first plies: about 0% of the test"},
		{[][3]int{{0, 2, 6}, {1, 0, 5}}, "testing move 5 for 10m0s, at moves 3/6 1/5 of the first plies: about 33% of the test, 20m0s more if the rest costs alike"},
		{[][3]int{{0, 1, 2}, {1, 1, 2}, {2, 3, 4}, {0, 1, 2}}, "testing move 5 for 10m0s, at moves 2/2 of the first plies: about 50% of the test, 10m0s more if the rest costs alike"},
		{[][3]int{{0, 1, 2}, {1, 1, 2}, {2, 3, 4}, {1, 1, 2}}, "testing move 5 for 10m0s, at moves 2/2 2/2 of the first plies: about 75% of the test, 3m0s more if the rest costs alike"},
	} {
		pr.begin(5, t0)
		for _, e := range c.at {
			pr.enter(e[0], e[1], e[2])
		}
		if got := pr.line(t0.Add(10 * time.Minute)); got != c.want {
			t.Errorf("after %v:\n got %q\nwant %q", c.at, got, c.want)
		}
	}
}

// TestProgressLogged runs a solve with a bounds file saved every few
// milliseconds and finds the progress line after a save.
func TestProgressLogged(t *testing.T) {
	if raceEnabled {
		t.Skip("a long solve: too slow under the race detector")
	}
	// The first null-window test begins after the deepening for first
	// guesses, which a loaded machine may not finish in the first limit.
	var mu sync.Mutex
	var lines []string
	for _, limit := range []time.Duration{300 * time.Millisecond, time.Second, 3 * time.Second} {
		cfg := Config{TTBits: 18, Bounds: []string{filepath.Join(t.TempDir(), "p.bounds")}, SaveEvery: 5 * time.Millisecond,
			Log: func(s string) { mu.Lock(); lines = append(lines, s); mu.Unlock() }}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Solve(boundsBoard(t), limit); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		for _, l := range lines {
			if strings.HasPrefix(l, "testing move ") && strings.Contains(l, " of the first plies: about ") {
				mu.Unlock()
				return
			}
		}
		mu.Unlock()
	}
	mu.Lock()
	defer mu.Unlock()
	t.Errorf("no progress line in %q", lines)
}
