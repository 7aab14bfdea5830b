package mangala

import "kumalak/env"

// Facts are what the rest of kumalak asks about classic mangala, and
// KaleFacts about mangala-kale (env.Facts).
//
// Calibration (see docs/ENGINE.md, "Scores and probabilities"; re-fit with
// `go test ./agent -run TestCalibrate -calibrate -v`): mangala from 1000
// games, 8421 samples; mangala-kale from 1000 games, 11546 samples.
//
// Balance (arena.Balance): scores of 200 openings of 4 random plies (seed
// 1) spread, from White's view, over the quartiles -3 / +2 / +6 stones at
// depth 8 (mangala-kale -2 / +1 / +4); the half nearest even lies within 2
// to 5 stones. The openings that decide the game (1 1 6 6, 1 5 2 1, 5 4 4 6
// and 1 1 4 5, which a depth-16 search rates +0.46 to +0.93 for White)
// score 2 to 6 stones for the mover at depth 8, so mangala keeps only
// |score| <= 1 (about one opening in five; a search costs ~0.5 to 2 ms at
// depth 8).
//
// The classic game's play depends on the pits alone, so it has a
// tablebase; kale's positions can repeat, so it has the solver alone.
var (
	Facts = env.Facts{
		Names:       env.Names{KK: "Мангала", RU: "Мангала", TR: "Mangala", EN: "Mangala"},
		Words:       env.Words{Store: "store"}, // no castles in the classic game
		StoreSown:   true,
		FirstBack:   true,
		ExtraTurn:   true,
		Solver:      true,
		Tablebase:   "mangala",
		Model:       "mangala",
		Calibration: env.Calibration{Slope: 0.2522, DrawBand: 0.3585},
		Balance:     env.Balance{Depth: 8, Margin: 1},
		// LevelRatings: written by the levels' tournament (docs/PLAYING.md,
		// "Levels").
		LevelRatings: levelRatings,
	}
	KaleFacts = env.Facts{
		Names:       env.Names{KK: "Мангала (кале)", RU: "Мангала (кале)", TR: "Kaleli Mangala", EN: "Mangala (kale)"},
		Words:       words,
		FirstBack:   true, // the cycle passes neither store: no extra turn
		Solver:      true,
		Model:       "mangala-kale",
		Calibration: env.Calibration{Slope: 0.1836, DrawBand: 0.3082},
		Balance:     env.Balance{Depth: 8, Margin: 1},
		// LevelRatings: kale's own tournament of the same levels.
		LevelRatings: kaleLevelRatings,
	}
	words = env.Words{Store: "store", Special: "castle", Mark: "K"} // mangala-kale's
)

var _ env.Sower = (*Board)(nil)

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

// levelRatings are the levels' measured ratings in classic mangala
// (docs/PLAYING.md, "Levels", whose table a test checks against them).
var levelRatings = env.LevelRatings{Anchor: "random",
	Elo: []float64{406, 457, 580, 672, 765, 868, 921, 968, 1038, 1081},
	Err: []float64{29, 32, 37, 41, 43, 48, 50, 51, 53, 54}}

// kaleLevelRatings are the levels' measured ratings in mangala-kale
// (docs/PLAYING.md, "Levels", whose table a test checks against them).
var kaleLevelRatings = env.LevelRatings{Anchor: "random",
	Elo: []float64{390, 448, 661, 803, 910, 1040, 1118, 1171, 1309, 1369},
	Err: []float64{34, 37, 42, 46, 48, 52, 55, 56, 58, 60}}
