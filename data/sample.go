package data

import "slices"

// Sample is one training position from self-play. Every value is from the
// view of the player to move in that position (the "mover"), which in
// mangala is not always the opposite of the previous position's mover.
type Sample struct {
	Obs       []float32 // observation, Header.ObsLen features
	Legal     uint64    // bit a set when action a was legal (NumActions <= 64)
	Policy    []float32 // search visit distribution over actions; sums to 1, 0 on illegal actions
	Outcome   float32   // final game result for the mover: +1 win, 0 draw, -1 loss
	RootValue float32   // the search's value of the position for the mover, in [-1, 1]
	Score     float32   // final store difference (mover minus opponent) divided by the game's stones
	Ply       uint16    // plies played before this position
}

// Equal reports whether s and o hold the same numbers.
func (s *Sample) Equal(o *Sample) bool {
	return slices.Equal(s.Obs, o.Obs) && slices.Equal(s.Policy, o.Policy) && s.Legal == o.Legal &&
		s.Outcome == o.Outcome && s.RootValue == o.RootValue && s.Score == o.Score && s.Ply == o.Ply
}

// Mask writes the legal mask as 1 (legal) / 0 (illegal) into dst[:n].
func (s *Sample) Mask(dst []float32, n int) {
	for a := 0; a < n; a++ {
		dst[a] = float32(s.Legal >> uint(a) & 1)
	}
}
