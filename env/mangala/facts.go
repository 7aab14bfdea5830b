package mangala

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
// -run TestCalibrate -calibrate -v`): mangala from 1000 games, 8421
// samples; mangala-kale from 1000 games, 11546 samples.
func (b *Board) Calibration() (slope, drawBand float64) {
	if b.kale {
		return 0.1836, 0.3082
	}
	return 0.2522, 0.3585
}

// Balance returns the balanced-opening test (arena.Balance). Scores of 200
// openings of 4 random plies (seed 1) spread, from White's view, over the
// quartiles -3 / +2 / +6 stones at depth 8 (mangala-kale -2 / +1 / +4); the
// half nearest even lies within 2 to 5 stones. The openings that decide the
// game (1 1 6 6, 1 5 2 1, 5 4 4 6 and 1 1 4 5, which a depth-16 search rates
// +0.46 to +0.93 for White) score 2 to 6 stones for the mover at depth 8, so
// mangala keeps only |score| <= 1 (about one opening in five; a search costs
// ~0.5 to 2 ms at depth 8).
func (b *Board) Balance() (depth int, margin float64) { return 8, 1 }

// Words names the store and the castle (kale), drawn K.
func (b *Board) Words() env.Words {
	return env.Words{Store: "store", Special: "castle", Mark: "K"}
}

// SownHome counts the stones of a sowing from the mover's pit a that fall
// straight into the mover's store: its own store in the classic game, its
// castle in mangala-kale. The first stone goes back into the pit played,
// unless it is alone (docs/RULES.md, "Sowing cycle").
func (b *Board) SownHome(a env.Action) int {
	me := b.toMove
	n := int(b.pits[int(me)*PitsPerSide+int(a)])
	cycle, home := 2*PitsPerSide+1, PitsPerSide // the mover's store follows its pit 6
	if b.kale {
		if c := b.castle[me]; c == noCastle {
			return 0
		} else {
			cycle, home = 2*PitsPerSide, PitsPerSide+int(c)
		}
	}
	return sownOn(int(a), n, cycle, home)
}

// sownOn counts the places home (counted from the mover's pit 1) among n
// stones sown from pit i of a cycle of cycle places, the first stone back
// into pit i unless it is alone.
func sownOn(i, n, cycle, home int) int {
	start := i
	if n == 1 {
		start = i + 1
	}
	count := 0
	for k := range n {
		if (start+k)%cycle == home {
			count++
		}
	}
	return count
}

// Sowing: the classic cycle passes the mover's store, kale's does not; the
// first stone goes back into the pit played.
func (b *Board) Sowing() (store, firstBack bool) { return !b.kale, true }
