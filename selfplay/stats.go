package selfplay

import (
	"fmt"
	"time"

	"kumalak/env"
)

// Stats sums up a run's finished games.
type Stats struct {
	Games     int           // games finished
	Samples   int           // samples produced
	Plies     int           // plies of the finished games
	Positions int64         // simulations searched, abandoned games included
	Forced    int           // moves of the finished games played at once (the only legal move)
	Elapsed   time.Duration // wall time of the run

	WhiteWins, BlackWins, Draws int // results, resignations and capped games included

	Resigned int // games ended by resignation
	Capped   int // games stopped at MaxPlies and scored by the stores

	ResignOff    int // games played with resignation disabled
	WouldResign  int // of those, games where a player met the resign condition
	FalseResigns int // of those, games that player went on to win or draw
}

func (s *Stats) add(g *GameResult) {
	s.Games++
	s.Samples += len(g.Samples)
	s.Plies += g.Plies()
	s.Forced += g.Forced
	switch g.Result {
	case env.WhiteWins:
		s.WhiteWins++
	case env.BlackWins:
		s.BlackWins++
	default:
		s.Draws++
	}
	s.Resigned += b2i(g.Resigned)
	s.Capped += b2i(g.Capped)
	s.ResignOff += b2i(g.ResignOff)
	s.WouldResign += b2i(g.WouldResign)
	s.FalseResigns += b2i(g.FalseResign)
}

// GamesPerSec returns finished games per second of wall time.
func (s Stats) GamesPerSec() float64 { return rate(int64(s.Games), s.Elapsed) }

// PositionsPerSec returns simulations per second of wall time.
func (s Stats) PositionsPerSec() float64 { return rate(s.Positions, s.Elapsed) }

// SimsPerSample returns the simulations spent per recorded sample: the
// cost of a training target, cheap searches included.
func (s Stats) SimsPerSample() float64 {
	if s.Samples == 0 {
		return 0
	}
	return float64(s.Positions) / float64(s.Samples)
}

// MeanLength returns the mean game length in plies.
func (s Stats) MeanLength() float64 {
	if s.Games == 0 {
		return 0
	}
	return float64(s.Plies) / float64(s.Games)
}

// FalseResignRate returns the fraction of resign-off games in which the
// player who would have resigned did not lose; 0 when there were none.
func (s Stats) FalseResignRate() float64 {
	if s.WouldResign == 0 {
		return 0
	}
	return float64(s.FalseResigns) / float64(s.WouldResign)
}

// String returns a one-line summary.
func (s Stats) String() string {
	return fmt.Sprintf("%d games (%.2f/s), %d samples (%.0f sims each), %.1f plies/game, %.0f pos/s, W/B/D %d/%d/%d, resigned %d, false resign %d/%d, capped %d",
		s.Games, s.GamesPerSec(), s.Samples, s.SimsPerSample(), s.MeanLength(), s.PositionsPerSec(),
		s.WhiteWins, s.BlackWins, s.Draws, s.Resigned, s.FalseResigns, s.WouldResign, s.Capped)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
