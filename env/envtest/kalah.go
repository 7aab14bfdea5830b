package envtest

import (
	"kumalak/env"
	"kumalak/env/kalah"
)

// KalahRules are the options of Kalah (env/kalah, the rules' one home),
// whose small games the tests of searches, matches and self-play play:
// small enough to solve exactly, with extra turns, stores (env.Scorer) and
// hashes (env.Hasher).
type KalahRules = kalah.Rules

// Kalah is a position of a Kalah game (kalah.Board).
type Kalah = kalah.Board

// MaxKalahPits is the most houses a side of a Kalah game.
const MaxKalahPits = kalah.MaxHouses

// The Kalah games the tests use; they are not registered with env.
var (
	// Kalah3 has 3 houses of 3 stones, captures and a 40-ply limit
	// (positions carry the ply: "0,2,1/0,1,1 7 6 - - w 10").
	Kalah3 = NewKalah("kalah3", KalahRules{Houses: 3, Seeds: 3, MaxPly: 40})
	// Kala3 is Kalah3 without captures and without a ply limit: small
	// enough for exact minimax.
	Kala3 = NewKalah("kala3", KalahRules{Houses: 3, Seeds: 3, Capture: kalah.None})
	// Kala6 is the mangala-sized Kala: 6 houses of 4 stones, no captures.
	Kala6 = NewKalah("kala6", KalahRules{Houses: 6, Seeds: 4, Capture: kalah.None})
)

// NewKalah returns the spec of a Kalah game of rules r named name, not
// registered (kalah.NewSpec), whose Parse takes positions of any stone
// total (ParseKalah). It panics on rules out of range.
func NewKalah(name string, r KalahRules) *env.Spec {
	spec := kalah.NewSpec(name, r)
	spec.Parse = func(s string) (env.State, error) {
		k, err := ParseKalah(spec, s)
		if err != nil {
			return nil, err
		}
		return k, nil
	}
	return spec
}

// ParseKalah reads a position of spec, a Kalah game's spec, with any
// number of stones in play, so tests can write small endgames
// (kalah.ParseAnyTotal).
func ParseKalah(spec *env.Spec, s string) (*Kalah, error) { return kalah.ParseAnyTotal(spec, s) }
