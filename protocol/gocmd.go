package protocol

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kumalak/env"
)

// Go starts a search of the current position. A zero field is "not
// given"; Time and Inc are the clock of each player (wtime, btime, winc,
// binc), indexed by env.Player.
type Go struct {
	Sims      int           // sims N (nodes N and visits N read the same)
	MoveTime  time.Duration // movetime MS
	Depth     int           // depth D
	Time      [2]time.Duration
	Inc       [2]time.Duration
	MovesToGo int  // movestogo N
	Infinite  bool // infinite: search until stop
	// Ponder is "go ponder": search the position, in which the opponent
	// is to move, until ponderhit (the opponent played the expected move:
	// the search goes on under the limits given) or stop (it did not:
	// bestmove follows and is ignored).
	Ponder bool
}

// goField is one "word N" limit of go: how it reads and writes.
type goField struct {
	word string
	arg  string // the argument in the usage: N, MS or D
	get  func(g *Go) int64
	set  func(g *Go, n int64)
}

// msField is a goField holding milliseconds.
func msField(word string, f func(g *Go) *time.Duration) goField {
	return goField{word: word, arg: "MS",
		get: func(g *Go) int64 { return f(g).Milliseconds() },
		set: func(g *Go, n int64) { *f(g) = time.Duration(n) * time.Millisecond }}
}

// goFields are the limits of go in the order Format writes them.
var goFields = []goField{
	{word: "sims", arg: "N", get: func(g *Go) int64 { return int64(g.Sims) }, set: func(g *Go, n int64) { g.Sims = int(n) }},
	msField("movetime", func(g *Go) *time.Duration { return &g.MoveTime }),
	{word: "depth", arg: "D", get: func(g *Go) int64 { return int64(g.Depth) }, set: func(g *Go, n int64) { g.Depth = int(n) }},
	msField("wtime", func(g *Go) *time.Duration { return &g.Time[env.White] }),
	msField("btime", func(g *Go) *time.Duration { return &g.Time[env.Black] }),
	msField("winc", func(g *Go) *time.Duration { return &g.Inc[env.White] }),
	msField("binc", func(g *Go) *time.Duration { return &g.Inc[env.Black] }),
	{word: "movestogo", arg: "N", get: func(g *Go) int64 { return int64(g.MovesToGo) }, set: func(g *Go, n int64) { g.MovesToGo = int(n) }},
}

// goAliases are other words for a go field, as other engines spell them.
var goAliases = map[string]string{"nodes": "sims", "visits": "sims"}

const (
	wordInfinite  = "infinite"
	wordPonderHit = "ponderhit"
)

// maxNumber bounds every number of go: 2^31-1 (24 days in milliseconds).
const maxNumber = 1<<31 - 1

// goUsage is the form of go, for errors and help.
var goUsage = func() string {
	parts := []string{wordGo}
	for _, f := range goFields {
		parts = append(parts, "["+f.word+" "+f.arg+"]")
	}
	return strings.Join(append(parts, "["+wordInfinite+"]", "["+wordPonder+"]"), " ")
}()

// Format writes go and the limits given, in a fixed order.
func (g Go) Format() string {
	var b strings.Builder
	b.WriteString(wordGo)
	for _, f := range goFields {
		if n := f.get(&g); n > 0 {
			b.WriteString(" " + f.word + " " + strconv.FormatInt(n, 10))
		}
	}
	if g.Infinite {
		b.WriteString(" " + wordInfinite)
	}
	if g.Ponder {
		b.WriteString(" " + wordPonder)
	}
	return b.String()
}

// parseGo reads the limits; each word takes a whole number 0..2^31-1.
func parseGo(args []string) (Command, error) {
	var g Go
	for i := 0; i < len(args); i++ {
		w := strings.ToLower(args[i])
		if w == wordInfinite || w == wordPonder {
			g.Infinite = g.Infinite || w == wordInfinite
			g.Ponder = g.Ponder || w == wordPonder
			continue
		}
		if a, ok := goAliases[w]; ok {
			w = a
		}
		if i+1 == len(args) {
			return nil, fmt.Errorf("%q needs a number (want %s)", w, goUsage)
		}
		f, ok := findGoField(w)
		if !ok {
			return nil, fmt.Errorf("unknown word %q (want %s)", w, goUsage)
		}
		i++
		n, err := strconv.ParseInt(args[i], 10, 64)
		if err != nil || n < 0 || n > maxNumber {
			return nil, fmt.Errorf("%s %q: not a whole number in 0..%d", w, args[i], maxNumber)
		}
		f.set(&g, n)
	}
	return g, nil
}

func findGoField(w string) (goField, bool) {
	for _, f := range goFields {
		if f.word == w {
			return f, true
		}
	}
	return goField{}, false
}

// PonderHit tells a go ponder search that the opponent played the move
// it pondered on: the search goes on under the limits of its go, and ends
// with bestmove as a normal search does.
type PonderHit struct{}

func (PonderHit) word() string { return wordPonderHit }

// Format writes "ponderhit".
func (PonderHit) Format() string { return wordPonderHit }
