package togyz

import "kumalak/env"

// Facts are what the rest of kumalak asks about togyz (env.Facts).
//
// Calibration: alpha-beta scores fitted from 1000 games, 32105 samples
// (see docs/ENGINE.md, "Scores and probabilities"; re-fit with `go test
// ./agent -run TestCalibrate -calibrate -v`).
//
// Balance (arena.Balance): scores of 200 openings of 4 random plies (seed
// 1) spread, from White's view, over the quartiles -2 / +7 / +14 stones at
// depth 8, the half nearest even within 9; with 162 stones to mangala's 48,
// togyz keeps |score| <= 3 at depth 6 (a search costs ~0.5 ms there).
var Facts = env.Facts{
	Names:       env.Names{KK: "Тоғызқұмалақ", RU: "Тогыз кумалак", TR: "Dokuz Kumalak", EN: "Togyz Kumalak"},
	Words:       env.Words{Store: "kazan", Special: "tuzdyk", Mark: "X"},
	FirstBack:   true, // the 18 pits only: the kazan is no place of the cycle
	Model:       "togyz",
	Calibration: env.Calibration{Slope: 0.1164, DrawBand: 0.1616},
	Balance:     env.Balance{Depth: 6, Margin: 3},
	Levels:      levels,
	// LevelRatings: written by the levels' tournament (docs/PLAYING.md, "Levels").
	LevelRatings: levelRatings,
}

// levels are the model agent's strength levels in togyz (agent.Level,
// docs/PLAYING.md, "Levels"), tuned by ladder tournaments: a wide margin costs much
// more here than in mangala, so togyz's weak levels search more.
var levels = []env.Level{
	{Sims: 3, Consider: 2, Margin: 0.8, Temp: 0.4},
	{Sims: 6, Consider: 3, Margin: 0.45, Temp: 0.22},
	{Sims: 14, Consider: 5, Margin: 0.28, Temp: 0.13},
	{Sims: 25, Consider: 6, Margin: 0.18, Temp: 0.08},
	{Sims: 42, Consider: 8, Margin: 0.12, Temp: 0.057},
	{Sims: 50, Consider: 8, Margin: 0.1, Temp: 0.05},
	{Sims: 100, Consider: 16, Margin: 0.05, Temp: 0.03, Solver: true},
	{Sims: 150, Consider: 16, Margin: 0.03, Temp: 0.015, Solver: true},
	{Sims: 250, Margin: 0.01, Temp: 0.005, Solver: true},
	{Sims: 400, Solver: true},
}

var _ env.Sower = (*Board)(nil)

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

// levelRatings are the levels' measured ratings in togyz (docs/PLAYING.md,
// "Levels", whose table a test checks against them).
var levelRatings = env.LevelRatings{Anchor: "ab:depth=6",
	Elo: []float64{-835, -696, -582, -448, -303, -121, 82, 213, 378, 518},
	Err: []float64{47, 44, 41, 37, 33, 22, 22, 26, 33, 38}}
