package togyz

import (
	"fmt"

	"kumalak/env"
)

// ObsLen is the length of Observe's output; ObsVersion names the encoding
// (doc.go describes it feature by feature).
const (
	ObsLen     = 116
	ObsVersion = "togyz/1"
)

// Spec is the togyz game, registered as "togyz".
var Spec = &env.Spec{
	Name:       "togyz",
	Title:      "Togyz Kumalak",
	Pits:       PitsPerSide,
	NumActions: PitsPerSide,
	Stones:     Stones,
	ObsLen:     ObsLen,
	ObsVersion: ObsVersion,
	New:        func() env.State { return New() },
	Parse:      parseState,
	Notation:   record,
	ReadMove:   readMove,
	Facts:      Facts,
}

func init() { env.Register(Spec) }

// record is Spec.Notation: FormatRecord for a togyz start position.
func record(start env.State, moves []env.Action) (string, error) {
	b, ok := start.(*Board)
	if !ok {
		return "", fmt.Errorf("togyz: notation of a %T", start)
	}
	return FormatRecord(b, moves)
}

// parseState is Parse for Spec: it returns a nil State on error, not a
// State holding a nil *Board.
func parseState(s string) (env.State, error) {
	b, err := Parse(s)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// String returns the position string of docs/RULES.md, e.g.
// "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w".
func (b *Board) String() string {
	var rows [2][PitsPerSide]int
	for i, v := range b.pits {
		rows[i/PitsPerSide][i%PitsPerSide] = int(v)
	}
	return env.Position{
		Pits:    [2][]int{rows[0][:], rows[1][:]},
		Stores:  [2]int{int(b.kazan[0]), int(b.kazan[1])},
		Special: [2]int{b.Tuzdyk(env.White), b.Tuzdyk(env.Black)},
		ToMove:  b.turn,
	}.String()
}

// Parse reads a position string (env.ParsePosition). Beyond what every game
// checks, it refuses a tuzdyk on pit 9 and two tuzdyks with the same number.
// Terminal positions (a kazan of 82 or more, an empty row to move) are
// accepted.
func Parse(s string) (*Board, error) {
	p, err := env.ParsePosition(s, PitsPerSide, Stones)
	if err != nil {
		return nil, err
	}
	b := Board{tuz: [2]int8{-1, -1}, turn: p.ToMove}
	for pl := env.White; pl <= env.Black; pl++ {
		switch n := p.Special[pl]; {
		case n == PitsPerSide:
			return nil, fmt.Errorf("%s's special: pit %d can't be a tuzdyk", pl.Name(), n)
		case n != 0 && pl == env.Black && n == p.Special[env.White]:
			return nil, fmt.Errorf("%s's special: both tuzdyks are pit %d", pl.Name(), n)
		case n != 0:
			b.tuz[pl] = int8(int(pl.Other())*PitsPerSide + n - 1)
		}
		for i, v := range p.Pits[pl] {
			b.pits[int(pl)*PitsPerSide+i] = uint8(v)
		}
		b.kazan[pl] = uint8(p.Stores[pl])
	}
	return &b, nil
}
