package kalah

import "kumalak/env"

// The per-game facts the rest of kumalak reads (env's abilities).
var (
	_ env.Calibrated = (*Board)(nil)
	_ env.Balanced   = (*Board)(nil)
	_ env.Worded     = (*Board)(nil)
	_ env.Sower      = (*Board)(nil)
)

// Calibration returns the fitted calibration of alpha-beta scores (see
// docs/ENGINE.md, "Scores and probabilities"; re-fit with `go test ./agent
// -run TestCalibrate -calibrate -calibrate-game kalah -v`): Kalah(6,4)
// from 1000 games, 9287 samples (W/D/L 4525/881/3881). Other boards scale
// the slope by their stones (a lead of s stones in 48 weighs as one of
// s·stones/48), not fitted on their own.
func (b *Board) Calibration() (slope, drawBand float64) {
	return 0.2301 * 48 / float64(b.spec.Stones), 0.2695
}

// Balance returns the balanced-opening test (arena.Balance): mangala's
// (depth 8, |score| <= 1 stone), a game of the same 48 stones with the
// same extra turn; not measured on Kalah's own openings.
func (b *Board) Balance() (depth int, margin float64) { return 8, 1 }

// Words names the store; Kalah has no special pit.
func (b *Board) Words() env.Words { return env.Words{Store: "store"} }

// SownHome counts the stones of a sowing from the mover's house a that
// fall into the mover's store: one a lap of the 2·houses+1 places, from
// the next place on.
func (b *Board) SownHome(a env.Action) int {
	n := b.rules.Houses
	s := int(b.pits[b.turn][a])
	if s == 0 {
		return 0
	}
	first := n - int(a) // the stone that reaches the store first
	if s < first {
		return 0
	}
	return 1 + (s-first)/(2*n+1)
}

// Sowing: the mover's store is a place; the first stone goes to the next
// place.
func (b *Board) Sowing() (store, firstBack bool) { return true, false }
