package kalah

import "kumalak/env"

// factsOf returns what the rest of kumalak asks about Kalah of rules r
// (env.Facts).
//
// Calibration (see docs/ENGINE.md, "Scores and probabilities"; re-fit with
// `go test ./agent -run TestCalibrate -calibrate -calibrate-game kalah
// -v`): Kalah(6,4) from 1000 games, 9287 samples (W/D/L 4525/881/3881).
// Other boards scale the slope by their stones (a lead of s stones in 48
// weighs as one of s·stones/48), not fitted on their own.
//
// Balance (arena.Balance): mangala's (depth 8, |score| <= 1 stone), a game
// of the same 48 stones with the same extra turn; not measured on Kalah's
// own openings.
//
// The solver takes every game without a ply limit; 6 houses with a
// capture have a tablebase, "kalah" (opposite capture) or "kalah-empty".
// Kalah has no special pit; Kalah(6,4) (Default) has a shipped model.
func factsOf(r Rules) env.Facts {
	f := env.Facts{
		Names:       env.Names{KK: "Калах", RU: "Калах", TR: "Kalah", EN: "Kalah"},
		Words:       env.Words{Store: "store"},
		StoreSown:   true,
		ExtraTurn:   true,
		Solver:      r.MaxPly == 0,
		Calibration: env.Calibration{Slope: 0.2301 * 48 / float64(2*r.Houses*r.Seeds), DrawBand: 0.2695},
		Balance:     env.Balance{Depth: 8, Margin: 1},
	}
	if r == Default {
		f.Model = "kalah"
		f.LevelRatings = levelRatings
	}
	if r.Houses == 6 && r.MaxPly == 0 {
		switch r.Capture {
		case Opposite:
			f.Tablebase = "kalah"
		case Empty:
			f.Tablebase = "kalah-empty"
		}
	}
	return f
}

var _ env.Sower = (*Board)(nil)

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

// levelRatings are the levels' measured ratings in Kalah(6,4) with its
// shipped model (docs/PLAYING.md, "Levels", whose table a test checks
// against them); other boards have none.
var levelRatings = env.LevelRatings{Anchor: "random",
	Elo: []float64{548, 594, 748, 898, 1010, 1096, 1142, 1181, 1259, 1298},
	Err: []float64{47, 49, 52, 55, 57, 59, 61, 62, 63, 65}}
