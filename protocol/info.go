package protocol

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// InfoField names one field of an Info; Info.Has holds those given.
type InfoField uint32

// The fields of an Info line, in the order Format writes them.
const (
	InfoMultiPV  InfoField = 1 << iota // multipv K: the line's rank, 1 the best, under the MultiPV option
	InfoDepth                          // depth D: alpha-beta's deepest completed iteration
	InfoSelDepth                       // seldepth D: the deepest ply the search reached
	InfoNodes                          // nodes N: alpha-beta's nodes searched
	InfoVisits                         // visits N: MCTS root visits
	InfoScore                          // score S: the value in stones of store lead (docs/ENGINE.md, "Scores")
	InfoMate                           // mate N: a proven win in N plies, or a loss in -N
	InfoWDL                            // wdl W D L: win, draw and loss chances per mille
	InfoValue                          // value V: -1 (a loss) .. +1 (a win) for the side to move
	InfoWinProb                        // winprob P: (value+1)/2, a draw counting half
	InfoNPS                            // nps N: nodes (or visits) a second
	InfoHashFull                       // hashfull N: the transposition table's use per mille
	InfoTime                           // time MS: since the search began
	InfoPV                             // pv P P …: the expected line, the best move first; always last
)

// Info is "info [multipv K] [depth D] [seldepth D] [nodes N] [visits N]
// [score S] [mate N] [wdl W D L] [value V] [winprob P] [nps N] [hashfull
// N] [time MS] [pv P …]": the progress of a search. Has says which fields
// are given; the others are zero. Numbers S, V and P carry 4 decimals:
// Parse rounds to them, so what Format writes reads back the same.
type Info struct {
	Has      InfoField
	MultiPV  int
	Depth    int
	SelDepth int
	Nodes    int64
	Visits   int64
	Score    float32
	Mate     int
	WDL      [3]int // per mille: win, draw, loss; each 0..1000
	Value    float32
	WinProb  float32
	NPS      int64
	HashFull int
	Time     time.Duration // whole milliseconds
	PV       []int         // nil when empty
}

// infoField is one field of an Info: its word, its count of values, and
// how it reads and writes them.
type infoField struct {
	word   string
	bit    InfoField
	n      int // values after the word; 0 means 1
	format func(i *Info) string
	parse  func(i *Info, s []string) error
}

// intField is an infoField holding a whole number >= 0.
func intField(word string, bit InfoField, f func(i *Info) *int64) infoField {
	return infoField{word: word, bit: bit,
		format: func(i *Info) string { return strconv.FormatInt(*f(i), 10) },
		parse: func(i *Info, s []string) (err error) {
			*f(i), err = parseCount(s[0])
			return err
		}}
}

// smallField is an infoField holding a whole number in lo..hi.
func smallField(word string, bit InfoField, lo, hi int, f func(i *Info) *int) infoField {
	return infoField{word: word, bit: bit,
		format: func(i *Info) string { return strconv.Itoa(*f(i)) },
		parse: func(i *Info, s []string) (err error) {
			*f(i), err = parseInt(s[0], lo, hi)
			return err
		}}
}

// floatField is an infoField holding a number with 4 decimals.
func floatField(word string, bit InfoField, f func(i *Info) *float32) infoField {
	return infoField{word: word, bit: bit,
		format: func(i *Info) string { return formatFloat(*f(i)) },
		parse: func(i *Info, s []string) (err error) {
			*f(i), err = parseFloat(s[0])
			return err
		}}
}

// maxSmall bounds depths, ranks and plies to a proven result.
const maxSmall = 1 << 16

// infoFields are the fields of Info but pv, in the order Format writes
// them. A new field is one more entry here and one more InfoField.
var infoFields = []infoField{
	smallField("multipv", InfoMultiPV, 1, maxSmall, func(i *Info) *int { return &i.MultiPV }),
	smallField("depth", InfoDepth, 0, maxSmall, func(i *Info) *int { return &i.Depth }),
	smallField("seldepth", InfoSelDepth, 0, maxSmall, func(i *Info) *int { return &i.SelDepth }),
	intField("nodes", InfoNodes, func(i *Info) *int64 { return &i.Nodes }),
	intField("visits", InfoVisits, func(i *Info) *int64 { return &i.Visits }),
	floatField("score", InfoScore, func(i *Info) *float32 { return &i.Score }),
	smallField("mate", InfoMate, -maxSmall, maxSmall, func(i *Info) *int { return &i.Mate }),
	{word: "wdl", bit: InfoWDL, n: 3,
		format: func(i *Info) string {
			return strconv.Itoa(i.WDL[0]) + " " + strconv.Itoa(i.WDL[1]) + " " + strconv.Itoa(i.WDL[2])
		},
		parse: func(i *Info, s []string) (err error) {
			for k := range i.WDL {
				if i.WDL[k], err = parseInt(s[k], 0, 1000); err != nil {
					return err
				}
			}
			return nil
		}},
	floatField("value", InfoValue, func(i *Info) *float32 { return &i.Value }),
	floatField("winprob", InfoWinProb, func(i *Info) *float32 { return &i.WinProb }),
	intField("nps", InfoNPS, func(i *Info) *int64 { return &i.NPS }),
	smallField("hashfull", InfoHashFull, 0, 1000, func(i *Info) *int { return &i.HashFull }),
	{word: "time", bit: InfoTime,
		format: func(i *Info) string { return strconv.FormatInt(i.Time.Milliseconds(), 10) },
		parse: func(i *Info, s []string) error {
			n, err := parseCount(s[0])
			i.Time = time.Duration(n) * time.Millisecond
			return err
		}},
}

const wordPV = "pv"

// Format writes the fields given, in a fixed order, pv last.
func (i Info) Format() string {
	var b strings.Builder
	b.WriteString(wordInfo)
	for _, f := range infoFields {
		if i.Has&f.bit != 0 {
			b.WriteString(" " + f.word + " " + f.format(&i))
		}
	}
	if i.Has&InfoPV != 0 {
		b.WriteString(" " + wordPV)
		for _, p := range i.PV {
			b.WriteString(" " + strconv.Itoa(p))
		}
	}
	return b.String()
}

// parseInfo reads the fields of an info line; pv takes the rest of the
// line. A word no field has is skipped, so that fields of later versions
// are ignored; a bad value of a known field is an error.
func parseInfo(args []string) (Answer, error) {
	var in Info
	for k := 0; k < len(args); k++ {
		w := strings.ToLower(args[k])
		if w == wordPV {
			return in, in.parsePV(args[k+1:])
		}
		f, ok := findInfoField(w)
		if !ok {
			continue
		}
		n := max(f.n, 1)
		if k+n >= len(args) {
			return nil, fmt.Errorf("%q needs %d value(s)", w, n)
		}
		if err := f.parse(&in, args[k+1:k+1+n]); err != nil {
			return nil, fmt.Errorf("%s: %w", w, err)
		}
		k += n
		in.Has |= f.bit
	}
	return in, nil
}

// parsePV reads the pits of the principal variation.
func (i *Info) parsePV(args []string) error {
	i.Has |= InfoPV
	i.PV = nil
	for _, s := range args {
		p, err := parsePit(s)
		if err != nil {
			return fmt.Errorf("%s: %w", wordPV, err)
		}
		i.PV = append(i.PV, p)
	}
	return nil
}

func findInfoField(w string) (infoField, bool) {
	for _, f := range infoFields {
		if f.word == w {
			return f, true
		}
	}
	return infoField{}, false
}

// parseCount reads a whole number 0..2^62.
func parseCount(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > 1<<62 {
		return 0, fmt.Errorf("%q: not a whole number >= 0", s)
	}
	return n, nil
}

// parseInt reads a whole number in lo..hi.
func parseInt(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q: not a whole number in %d..%d", s, lo, hi)
	}
	return n, nil
}

// maxFloat bounds the numbers of info lines.
const maxFloat = 1e7

// parseFloat reads a number below maxFloat in size, rounded to 4 decimals.
func parseFloat(s string) (float32, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(math.Abs(f) < maxFloat) || !(math.Abs(float64(Round(float32(f)))) < maxFloat) {
		return 0, fmt.Errorf("%q: not a number in (-%g, %g)", s, maxFloat, maxFloat)
	}
	return Round(float32(f)), nil
}

// Round rounds v to the 4 decimals that info lines carry.
func Round(v float32) float32 {
	return float32(math.Round(float64(v)*1e4) / 1e4)
}

// formatFloat writes v with 4 decimals.
func formatFloat(v float32) string {
	return strconv.FormatFloat(float64(v), 'f', 4, 32)
}
