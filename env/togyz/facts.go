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
