package agent

import (
	"fmt"
	"math"

	"kumalak/env"
)

// LevelScale is the measured rating of every level of one game, on the
// game's Elo scale (docs/PLAYING.md, "Levels": the tournament that measured them).
type LevelScale struct {
	Anchor string            // the player rated 0
	Elo    [MaxLevel]float64 // level n's rating at Elo[n-1], strictly increasing
	Err    [MaxLevel]float64 // half-width of each rating's 95% interval
}

// LevelScaleOf returns the measured levels of the game, its facts'
// LevelRatings (in its folder, beside the table docs/PLAYING.md shows),
// and whether they were measured.
func LevelScaleOf(game string) (LevelScale, bool) {
	spec, err := env.Lookup(game)
	if err != nil {
		return LevelScale{}, false
	}
	r := spec.Facts.LevelRatings
	if r.Anchor == "" || len(r.Elo) != MaxLevel || len(r.Err) != MaxLevel {
		return LevelScale{}, false
	}
	s := LevelScale{Anchor: r.Anchor}
	copy(s.Elo[:], r.Elo)
	copy(s.Err[:], r.Err)
	return s, true
}

// LevelAtElo returns the search that plays at rating elo in the game:
// the level rated elo, or between two levels' ratings their searches
// interpolated (simulations geometrically, margin and temperature
// linearly, the moves considered and the solver of the nearer level). The
// ratings between levels are interpolated, not measured.
func LevelAtElo(game string, elo float64) (Level, error) {
	s, ok := LevelScaleOf(game)
	if !ok {
		return Level{}, fmt.Errorf("elo=%g: the levels of %s are not measured (use level=)", elo, game)
	}
	return levelAtElo(game, s, levelsOf(game), elo)
}

// levelAtElo is LevelAtElo on the scale s of the levels lv.
func levelAtElo(game string, s LevelScale, lv *[MaxLevel]Level, elo float64) (Level, error) {
	lo, hi := s.Elo[0], s.Elo[MaxLevel-1]
	if !(elo >= math.Round(lo) && elo <= math.Round(hi)) {
		return Level{}, fmt.Errorf("elo=%g out of range %.0f..%.0f (%s's levels 1..%d, %s = 0)", elo, lo, hi, game, MaxLevel, s.Anchor)
	}
	elo = min(max(elo, lo), hi)
	k := 0
	for k < MaxLevel-2 && elo > s.Elo[k+1] {
		k++
	}
	f := (elo - s.Elo[k]) / (s.Elo[k+1] - s.Elo[k])
	return interpolate(lv[k], lv[k+1], f), nil
}

// interpolate returns the search a fraction f of the way from a to b.
func interpolate(a, b Level, f float64) Level {
	switch {
	case f <= 0:
		return a
	case f >= 1:
		return b
	}
	near := a
	if f >= 0.5 {
		near = b
	}
	lerp := func(x, y float32) float32 { return x + float32(f)*(y-x) }
	return Level{
		Sims:     int(math.Round(math.Exp(math.Log(float64(a.Sims)) + f*(math.Log(float64(b.Sims))-math.Log(float64(a.Sims)))))),
		Consider: near.Consider,
		Margin:   lerp(a.Margin, b.Margin),
		Temp:     lerp(a.Temp, b.Temp),
		Solver:   near.Solver,
	}
}
