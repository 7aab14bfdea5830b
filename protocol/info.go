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
	InfoDepth   InfoField = 1 << iota // depth D: alpha-beta's deepest completed iteration
	InfoNodes                         // nodes N: alpha-beta's nodes searched
	InfoVisits                        // visits N: MCTS root visits
	InfoValue                         // value V: -1 (a loss) .. +1 (a win) for the side to move
	InfoWinProb                       // winprob P: (value+1)/2, a draw counting half
	InfoTime                          // time MS: since the search began
	InfoPV                            // pv P P …: the expected line, the best move first; always last
)

// Info is "info [depth D] [nodes N] [visits N] [value V] [winprob P]
// [time MS] [pv P …]": the progress of a search. Has says which fields
// are given; the others are zero. Numbers V and P carry 4 decimals: Parse
// rounds to them, so what Format writes reads back the same.
type Info struct {
	Has     InfoField
	Depth   int
	Nodes   int64
	Visits  int64
	Value   float32
	WinProb float32
	Time    time.Duration // whole milliseconds
	PV      []int         // nil when empty
}

// infoField is one "word value" field of an Info: how it reads and writes.
type infoField struct {
	word   string
	bit    InfoField
	format func(i *Info) string
	parse  func(i *Info, s string) error
}

// intField is an infoField holding a whole number >= 0.
func intField(word string, bit InfoField, f func(i *Info) *int64) infoField {
	return infoField{word: word, bit: bit,
		format: func(i *Info) string { return strconv.FormatInt(*f(i), 10) },
		parse: func(i *Info, s string) (err error) {
			*f(i), err = parseCount(s)
			return err
		}}
}

// floatField is an infoField holding a number with 4 decimals.
func floatField(word string, bit InfoField, f func(i *Info) *float32) infoField {
	return infoField{word: word, bit: bit,
		format: func(i *Info) string { return formatFloat(*f(i)) },
		parse: func(i *Info, s string) (err error) {
			*f(i), err = parseFloat(s)
			return err
		}}
}

// infoFields are the fields of Info but pv, in the order Format writes
// them. A new field is one more entry here and one more InfoField.
var infoFields = []infoField{
	{word: "depth", bit: InfoDepth,
		format: func(i *Info) string { return strconv.Itoa(i.Depth) },
		parse: func(i *Info, s string) error {
			n, err := parseCount(s)
			i.Depth = int(n)
			return err
		}},
	intField("nodes", InfoNodes, func(i *Info) *int64 { return &i.Nodes }),
	intField("visits", InfoVisits, func(i *Info) *int64 { return &i.Visits }),
	floatField("value", InfoValue, func(i *Info) *float32 { return &i.Value }),
	floatField("winprob", InfoWinProb, func(i *Info) *float32 { return &i.WinProb }),
	{word: "time", bit: InfoTime,
		format: func(i *Info) string { return strconv.FormatInt(i.Time.Milliseconds(), 10) },
		parse: func(i *Info, s string) error {
			n, err := parseCount(s)
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
		if k+1 == len(args) {
			return nil, fmt.Errorf("%q needs a value", w)
		}
		k++
		if err := f.parse(&in, args[k]); err != nil {
			return nil, fmt.Errorf("%s: %w", w, err)
		}
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
