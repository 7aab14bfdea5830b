package agent

import (
	"fmt"
	"slices"

	"kumalak/env"
)

// The options and reports of the alpha-beta search: the table's size,
// MultiPV, and the analysis of a search with its calibrated values.

// setHash replaces the table by one of mib MiB, none for 0.
func (s *alphaBeta) setHash(mib int) {
	s.tt, s.mib = nil, mib
	if mib > 0 {
		s.tt = newTable(mib)
	}
}

// SetHash replaces the transposition table by one of mib MiB (0: none),
// in 0..MaxHash.
func (s *alphaBeta) SetHash(mib int) error {
	if mib < 0 || mib > MaxHash {
		return fmt.Errorf("ab: hash %d MiB out of range 0..%d", mib, MaxHash)
	}
	if _, ok := s.walk.(env.Hasher); !ok && mib > 0 {
		return fmt.Errorf("ab: hash needs a game with hashes (env.Hasher); %s has none", s.spec.Name)
	}
	if mib != s.mib { // the new table is made by the next search
		s.tt, s.mib = nil, mib
	}
	return nil
}

// Hash returns the transposition table's size in MiB.
func (s *alphaBeta) Hash() int { return s.mib }

// HashRange returns the sizes SetHash takes: 0 (no table) to MaxHash.
func (s *alphaBeta) HashRange() (lo, hi int) { return 0, MaxHash }

// SetMultiPV sets the lines to report, in 1..MaxMultiPV: the n best root
// moves are then searched exactly, each with its line.
func (s *alphaBeta) SetMultiPV(n int) error {
	if n < 1 || n > MaxMultiPV {
		return fmt.Errorf("ab: multipv %d out of range 1..%d", n, MaxMultiPV)
	}
	s.multi = n
	return nil
}

// MaxHash bounds the transposition table, in MiB; MaxMultiPV the lines
// reported.
const (
	MaxHash    = 4096
	MaxMultiPV = 16
)

// extendPV lengthens the line of a completed iteration of depth d through
// the table's moves where a table hit cut it short, so that the line
// shown is as deep as the search.
func (s *alphaBeta) extendPV(root env.State, d int) {
	if s.tt == nil || len(s.ana.PV) == 0 || len(s.ana.PV) >= d {
		return
	}
	w := s.walk
	w.CopyFrom(root)
	for _, a := range s.ana.PV {
		w.Apply(a)
	}
	for len(s.ana.PV) < d && len(s.ana.PV) < maxPly && w.Result() == env.Ongoing {
		m, ok := s.tt.move(w.(env.Hasher).Hash())
		s.legalBuf = w.Legal(s.legalBuf[:0])
		if !ok || !slices.Contains(s.legalBuf, env.Action(m)) {
			return
		}
		s.ana.PV = append(s.ana.PV, env.Action(m))
		w.Apply(env.Action(m))
	}
}

// finishAnalysis fills the value and per-move figures of the analysis.
func (s *alphaBeta) finishAnalysis() {
	r := &s.plies[0]
	s.ana.Nodes, s.ana.SelDepth = s.nodes, s.selDepth
	s.ana.HashFull = 0
	if s.tt != nil {
		s.ana.HashFull = s.tt.full()
	}
	s.ana.WDL, s.ana.HasWDL = s.toWDL(s.smooth)
	s.ana.Value = s.ana.WDL[0] - s.ana.WDL[2] // as toValue
	s.ana.Score, s.ana.Mate = s.toScore(s.smooth)
	s.ana.WinProb = winProbOf(s.ana.WDL, s.ana.HasWDL)
	s.fillLines()
	s.ana.Moves = s.ana.Moves[:0]
	for _, i := range r.order[:len(r.moves)] {
		m := MoveStat{Action: r.moves[i], Value: s.toValue(s.scores[i])}
		if r.moves[i] == s.ana.PV[0] {
			m.Share, m.Value = 1, s.ana.Value
		}
		s.ana.Moves = append(s.ana.Moves, m)
	}
}

// fillLines fills Analysis.Lines with the best multi root moves of the
// last iteration, when more than one line is asked for.
func (s *alphaBeta) fillLines() {
	s.ana.Lines = s.ana.Lines[:0]
	if s.multi <= 1 {
		s.ana.Lines = nil
		return
	}
	r := &s.plies[0]
	for _, i := range r.order[:len(r.moves)] {
		if len(s.ana.Lines) == s.multi || len(s.rootPV[i]) == 0 {
			break
		}
		wdl, ok := s.toWDL(s.scores[i])
		l := Line{PV: s.rootPV[i], Value: wdl[0] - wdl[2], WinProb: winProbOf(wdl, ok)}
		if r.moves[i] == s.ana.PV[0] {
			l.PV = s.ana.PV
		}
		l.Score, l.Mate = s.toScore(s.scores[i])
		s.ana.Lines = append(s.ana.Lines, l)
	}
}

// toScore returns a score in stones, or the plies to a proven result.
func (s *alphaBeta) toScore(v int32) (float32, int) {
	switch {
	case v >= winBound:
		return 0, int(winScore - v)
	case v <= -winBound:
		return 0, -int(winScore + v)
	}
	return float32(v) / stoneUnit, 0
}

// toWDL maps a score to the calibrated chances of a win, a draw and a
// loss; false for a game without a calibration.
func (s *alphaBeta) toWDL(v int32) ([3]float32, bool) {
	switch {
	case v >= winBound:
		return [3]float32{1, 0, 0}, true
	case v <= -winBound:
		return [3]float32{0, 0, 1}, true
	case !s.calOK:
		return [3]float32{}, false
	}
	w, d, l := s.cal.WDL(float64(v) / stoneUnit)
	return [3]float32{float32(w), float32(d), float32(l)}, true
}

// toValue maps a score to -1..1: ±1 for a proven result, else the
// calibrated win − loss; 0 for a game without a calibration.
func (s *alphaBeta) toValue(v int32) float32 {
	wdl, _ := s.toWDL(v)
	return wdl[0] - wdl[2]
}

// winProbOf maps the chances toWDL gives to win + draw/2; 0.5 for a game
// without a calibration (!ok), whose searches show no probability (HasWDL).
func winProbOf(wdl [3]float32, ok bool) float32 {
	if !ok {
		return 0.5
	}
	return wdl[0] + wdl[1]/2
}
