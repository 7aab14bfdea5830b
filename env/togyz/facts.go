package togyz

import "kumalak/env"

// The per-game facts the rest of kumalak reads (env's abilities).
var (
	_ env.Calibrated = (*Board)(nil)
	_ env.Balanced   = (*Board)(nil)
	_ env.Worded     = (*Board)(nil)
	_ env.Sower      = (*Board)(nil)
)

// Calibration returns the fitted calibration of alpha-beta scores, from
// 1000 games, 32105 samples (see docs/ENGINE.md, "Scores and
// probabilities"; re-fit with `go test ./agent -run TestCalibrate
// -calibrate -v`).
func (b *Board) Calibration() (slope, drawBand float64) { return 0.1164, 0.1616 }

// Balance returns the balanced-opening test (arena.Balance). Scores of 200
// openings of 4 random plies (seed 1) spread, from White's view, over the
// quartiles -2 / +7 / +14 stones at depth 8, the half nearest even within
// 9; with 162 stones to mangala's 48, togyz keeps |score| <= 3 at depth 6
// (a search costs ~0.5 ms there).
func (b *Board) Balance() (depth int, margin float64) { return 6, 3 }

// Words names the kazan and the tuzdyk, drawn X.
func (b *Board) Words() env.Words {
	return env.Words{Store: "kazan", Special: "tuzdyk", Mark: "X"}
}

// SownHome counts the stones of a sowing from the mover's pit a that fall
// on the mover's tuzdyk, which sends them to its kazan. The first stone
// goes back into the pit played, unless it is alone.
func (b *Board) SownHome(a env.Action) int {
	me := b.turn
	t := b.tuz[me]
	if t < 0 {
		return 0
	}
	home := int(t) - int(me.Other())*PitsPerSide + PitsPerSide // counted from the mover's pit 1
	n := int(b.pits[int(me)*PitsPerSide+int(a)])
	start := int(a)
	if n == 1 {
		start++
	}
	count := 0
	for k := range n {
		if (start+k)%Cycle == home {
			count++
		}
	}
	return count
}

// Sowing: the 18 pits only; the first stone goes back into the pit played.
func (b *Board) Sowing() (store, firstBack bool) { return false, true }
