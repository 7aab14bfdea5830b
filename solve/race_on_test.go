//go:build race

package solve

// raceEnabled: the race detector slows the search twentyfold; the tests
// that count hundreds of thousands of nodes run without it (the saver's
// concurrency runs under it in TestBoundsInterrupt).
const raceEnabled = true
