package agent

import (
	"slices"

	"kumalak/env"
	"kumalak/solve"
)

// The analysis of the tb agent: exact values in stones.

// Analysis describes the last move: the value of the position in stones
// of final store difference (Score), its result as Value and WDL when it
// is proven, each move's value, and the perfect line through the
// tablebase.
func (t *tbAgent) Analysis() Analysis { return t.ana }

// analyse fills the analysis of b, where a was chosen.
func (t *tbAgent) analyse(b env.State, a env.Action, nodes int64) {
	i := slices.IndexFunc(t.moves, func(m solve.MoveValue) bool { return m.Action == a })
	chosen := t.moves[i]
	t.ana.Score = float32(chosen.Lo+chosen.Hi) / 2
	t.ana.Value, t.ana.WDL, t.ana.HasWDL = t.outcome(chosen)
	t.ana.WinProb = ValueWinProb(t.ana.Value)
	if t.ana.HasWDL {
		t.ana.WinProb = t.ana.WDL[0] + t.ana.WDL[1]/2
	}
	t.ana.Nodes = nodes
	t.ana.PV = t.line(b, a)
	t.ana.Depth = len(t.ana.PV)
	t.ana.Moves = t.ana.Moves[:0]
	for _, m := range t.moves {
		v, _, _ := t.outcome(m)
		s := MoveStat{Action: m.Action, Value: v}
		if m.Action == a {
			s.Share = 1
		}
		t.ana.Moves = append(t.ana.Moves, s)
	}
	slices.SortStableFunc(t.ana.Moves, func(x, y MoveStat) int {
		switch {
		case x.Share != y.Share:
			return int(y.Share - x.Share)
		case x.Value > y.Value:
			return -1
		case x.Value < y.Value:
			return 1
		}
		return 0
	})
}

// outcome maps a move's bounds to a value in -1..1: the result when the
// bounds prove it (with certain WDL), else the calibrated chances of the
// bounds' middle, 0 for a game without a calibration.
func (t *tbAgent) outcome(m solve.MoveValue) (float32, [3]float32, bool) {
	switch {
	case m.Lo > 0:
		return 1, [3]float32{1, 0, 0}, true
	case m.Hi < 0:
		return -1, [3]float32{0, 0, 1}, true
	case m.Lo == 0 && m.Hi == 0:
		return 0, [3]float32{0, 1, 0}, true
	}
	if !t.calOK {
		return 0, [3]float32{}, false
	}
	w, d, l := t.cal.WDL(float64(m.Lo+m.Hi) / 2)
	return float32(w - l), [3]float32{float32(w), float32(d), float32(l)}, true
}

// line returns a followed by the perfect line through the tablebase,
// while its positions are in it.
func (t *tbAgent) line(b env.State, a env.Action) []env.Action {
	pv := append(t.ana.PV[:0], a)
	if t.tb == nil {
		return pv
	}
	w := t.walk
	w.CopyFrom(b)
	w.Apply(a)
	var buf [env.MaxActions]solve.MoveValue
	for len(pv) < maxPly && w.Result() == env.Ongoing {
		moves, ok := t.tb.MovesOf(w, buf[:0])
		if !ok {
			break
		}
		best := slices.MaxFunc(moves, func(x, y solve.MoveValue) int { return x.Lo - y.Lo })
		pv = append(pv, best.Action)
		w.Apply(best.Action)
	}
	return pv
}
