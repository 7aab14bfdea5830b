package togyz

import (
	"math/bits"

	"kumalak/env"
)

// Offsets of the feature groups in Observe's output; doc.go describes them.
const (
	obsCount    = 0   // 18: stones / 18, mover's pits 1..9 then opponent's
	obsEmpty    = 18  // 18: pit is empty
	obsOdd      = 36  // 18: pit holds an odd number
	obsTwo      = 54  // 18: pit holds exactly 2
	obsOwnTuz   = 72  // 9: mover's tuzdyk on opponent's pit 1..9
	obsOppTuz   = 81  // 9: opponent's tuzdyk on mover's pit 1..9
	obsMayTuz   = 90  // 2: mover, opponent have no tuzdyk yet
	obsKazan    = 92  // 2: kazan / 82, mover then opponent
	obsNeed     = 94  // 2: share of the stones in play still needed to reach 82
	obsRow      = 96  // 2: stones in the row / 81
	obsOwnGain  = 98  // 9: stones the mover's pit i would win at once / 18
	obsOppGain  = 107 // 9: the same for the opponent's pits, were it to move
	obsEnd      = 116
	pitFeatures = 2 * PitsPerSide
	lap         = float32(Cycle)
	rowScale    = float32(half)
	kazanScale  = float32(WinAt)
)

// ObsLen must equal obsEnd: either constant expression below is negative,
// and fails to compile, otherwise.
const (
	_ = uint(ObsLen - obsEnd)
	_ = uint(obsEnd - ObsLen)
)

// pitObs[v] holds the four features of a pit of v stones, as Observe
// writes them: v/18, v == 0, v odd, v == 2. gains reads its first column
// for the gain of g stones, g/18. Table lookups leave Observe no branch on
// the counts, which real positions would mispredict.
var pitObs = func() (t [256][4]float32) {
	for v := range t {
		t[v] = [4]float32{float32(v) / lap, flag(v == 0), flag(v&1 == 1), flag(v == 2)}
	}
	return t
}()

// Observe writes the ObsLen features of the position, from the view of the
// player to move, into dst (which must be at least ObsLen long). It
// allocates nothing.
func (b *Board) Observe(dst []float32) {
	d := (*[ObsLen]float32)(dst[:ObsLen])
	m, o := b.turn, b.turn.Other()
	own, opp := b.side(m), b.side(o)
	ownSum, oppSum := 0, 0
	for k := 0; k < PitsPerSide; k++ {
		v, w := own[k], opp[k]
		ownSum += int(v)
		oppSum += int(w)
		f, g := &pitObs[v], &pitObs[w]
		d[obsCount+k], d[obsEmpty+k], d[obsOdd+k], d[obsTwo+k] = f[0], f[1], f[2], f[3]
		d[obsCount+PitsPerSide+k], d[obsEmpty+PitsPerSide+k], d[obsOdd+PitsPerSide+k], d[obsTwo+PitsPerSide+k] = g[0], g[1], g[2], g[3]
	}
	clear(d[obsOwnTuz:obsMayTuz])
	for k, p := range [2]env.Player{m, o} {
		if t := b.Tuzdyk(p); t != 0 {
			d[obsOwnTuz+k*PitsPerSide+t-1] = 1
		}
		d[obsMayTuz+k] = flag(b.tuz[p] < 0)
		d[obsKazan+k] = float32(b.kazan[p]) / kazanScale
		d[obsNeed+k] = b.need(p)
		b.gains(p, d[obsOwnGain+k*PitsPerSide:][:PitsPerSide])
	}
	d[obsRow] = float32(ownSum) / rowScale
	d[obsRow+1] = float32(oppSum) / rowScale
}

// need returns the share of the stones still in the pits that p needs to
// reach 82, clamped to [0, 1]: 0 when p has won, 1 when p can't win.
func (b *Board) need(p env.Player) float32 {
	want := WinAt - int(b.kazan[p])
	left := Stones - int(b.kazan[0]) - int(b.kazan[1])
	switch {
	case want <= 0:
		return 0
	case want >= left:
		return 1
	}
	return float32(want) / float32(left)
}

// gains writes, for each of p's pits, the stones p's kazan would gain at
// once by playing it now (captures, a new tuzdyk, stones sown into p's
// tuzdyk), divided by 18; 0 for an empty pit.
//
// Observe runs at every leaf of every search, so gains works each sowing
// out from the counts instead of sowing on a copy of the board (trial
// sowings were two thirds of Observe's time), as sow would add them: the
// stones sown into p's tuzdyk, then the even capture or the new tuzdyk at
// the last stone's pit. Which conditions hold changes from pit to pit in no
// pattern a branch predictor learns, so they are computed as 0/1 integers
// (see lt and eq) rather than branched on, and what depends on the count
// alone (the laps, how far the sowing reaches, the last pit) comes from
// tables (sowing, lastSown).
func (b *Board) gains(p env.Player, out []float32) {
	dst := (*[PitsPerSide]float32)(out)
	base := int(p) * PitsPerSide
	oppBase := int(p.Other()) * PitsPerSide
	t := int(b.tuz[p]) // p's tuzdyk, or -1
	// Masks over cycle indices, for the pit the last stone lands in. take:
	// the opponent's pits other than p's tuzdyk (a capture or a new
	// tuzdyk is possible there). mayTuz: where 3 stones make p's tuzdyk
	// (p has none; not the ninth pit; not opposite the opponent's).
	take := uint32(1<<PitsPerSide-1) << oppBase
	var mayTuz uint32
	if t >= 0 {
		take &^= 1 << uint(t)
	} else {
		mayTuz = uint32(1<<(PitsPerSide-1)-1) << oppBase
		if o := int(b.tuz[p.Other()]); o >= 0 {
			mayTuz &^= 1 << uint(o-base+oppBase) // the opponent's tuzdyk is on p's row, opposite pit o-base
		}
	}
	row := (*[PitsPerSide]uint8)(b.pits[base : base+PitsPerSide])
	for k := range dst {
		c := base + k
		n := row[k]
		sw := &sowing[n]
		g := 0
		if t >= 0 { // the same for every pit: predicted
			g = int(sw.laps) + lt(ahead(c, t), int(sw.span))
		}
		last := lastSown[c+int(sw.span)]
		sh := uint(last) & 31 // last is 0..17: the mask keeps the shifts plain
		// The last pit's count after the sowing. When it is on the
		// opponent's row it is not the pit the stones were lifted from,
		// and no tuzdyk but p's is there.
		v := int(b.pits[last]) + int(sw.atLast)
		w := v & (v&1 - 1) // an even count is taken
		w += 3 * (eq(v, 3) & int(mayTuz>>sh&1))
		w &= -int(take >> sh & 1)
		g = (g + w) & -int(sw.some)
		dst[k] = pitObs[uint8(g)][0]
	}
}

// sowing[n] is what a sowing of n stones from a pit c does, counted from
// c: sowing starts at c itself (at the next pit for a single stone), and
// the pits ahead(c, j) < span of c get one stone beyond the laps' laps
// each (span is n%Cycle, plus 1 for a single stone). The last stone lands
// span-1 pits after c (lastSown[c+span]), which gets atLast stones in all:
// laps plus 1, or laps alone when n is a whole number of laps. some is 0
// for an empty pit, else 1.
var sowing = func() (t [256]struct{ laps, span, atLast, some uint8 }) {
	for n := range t {
		q, r := n/Cycle, n%Cycle
		t[n].laps, t[n].span, t[n].atLast = uint8(q), uint8(r), uint8(q)
		if r > 0 {
			t[n].atLast++
		}
		if n == 1 {
			t[n].span = 2
		}
		if n > 0 {
			t[n].some = 1
		}
	}
	return t
}()

// lastSown[c+span] is the cycle index of the pit span-1 pits after c
// (c-1 for span 0): where the last stone of a sowing from c lands.
var lastSown = func() (t [2 * Cycle]uint8) {
	for i := range t {
		t[i] = uint8((i - 1 + Cycle) % Cycle)
	}
	return t
}()

// ahead returns how many pits after s the pit j comes in sowing order,
// 0..Cycle-1 (s and j are cycle indices).
func ahead(s, j int) int {
	d := j - s
	return d + Cycle&(d>>signShift)
}

// signShift shifts an int's sign bit down to bit 0.
const signShift = bits.UintSize - 1

// lt returns 1 when a < b, else 0, without a branch (a-b must not
// overflow).
func lt(a, b int) int { return int(uint(a-b) >> signShift) }

// eq returns 1 when a == b, else 0, without a branch.
func eq(a, b int) int {
	d := a - b
	return int(uint(d|-d)>>signShift) ^ 1
}

func flag(ok bool) float32 {
	if ok {
		return 1
	}
	return 0
}
