package togyz

import "kumalak/env"

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

// Observe writes the ObsLen features of the position, from the view of the
// player to move, into dst (which must be at least ObsLen long). It
// allocates nothing.
func (b *Board) Observe(dst []float32) {
	dst = dst[:ObsLen]
	clear(dst)
	m, o := b.turn, b.turn.Other()
	for k := 0; k < pitFeatures; k++ {
		v := b.pits[b.cycleIndex(k)]
		dst[obsCount+k] = float32(v) / lap
		dst[obsEmpty+k] = flag(v == 0)
		dst[obsOdd+k] = flag(v&1 == 1)
		dst[obsTwo+k] = flag(v == 2)
	}
	for k, p := range [2]env.Player{m, o} {
		if t := b.Tuzdyk(p); t != 0 {
			dst[obsOwnTuz+k*PitsPerSide+t-1] = 1
		}
		dst[obsMayTuz+k] = flag(b.tuz[p] < 0)
		dst[obsKazan+k] = float32(b.kazan[p]) / kazanScale
		dst[obsNeed+k] = b.need(p)
		dst[obsRow+k] = float32(b.rowSum(p)) / rowScale
		b.gains(p, dst[obsOwnGain+k*PitsPerSide:][:PitsPerSide])
	}
}

// cycleIndex maps feature pit k (mover's pits 0..8, then opponent's 9..17)
// to its cycle index.
func (b *Board) cycleIndex(k int) int {
	if b.turn == env.Black {
		k += PitsPerSide
	}
	return k % Cycle
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
// out from the counts (see gain) instead of sowing on a copy of the board:
// trial sowings were two thirds of Observe's time.
func (b *Board) gains(p env.Player, dst []float32) {
	base := int(p) * PitsPerSide
	for i := range dst {
		dst[i] = float32(b.gain(p, base+i)) / lap
	}
}

// gain returns the stones p's kazan gains at once if p sows the pit at
// cycle index c, as sow would add them: the stones sown into p's tuzdyk,
// then the even capture or the new tuzdyk at the last stone's pit.
func (b *Board) gain(p env.Player, c int) int {
	n := int(b.pits[c])
	if n == 0 {
		return 0
	}
	s := c // the first pit sown: the pit itself, or the next one for a single stone
	if n == 1 {
		s = int(next[c])
	}
	g := 0
	if t := int(b.tuz[p]); t >= 0 {
		g += b.sownCount(t, s, n)
	}
	last := (s + n - 1) % Cycle
	i := last - int(p.Other())*PitsPerSide // the last pit's number - 1 on the opponent's row
	if uint(i) >= PitsPerSide || int(b.tuz[p]) == last {
		return g
	}
	// The opponent's row holds no tuzdyk but p's, so the last pit keeps its stones.
	v := b.sownCount(last, s, n)
	switch {
	case v&1 == 0:
		g += v
	case v != 3 || b.tuz[p] >= 0 || i == PitsPerSide-1:
	case int(b.tuz[p.Other()])-int(p)*PitsPerSide == i: // opposite the opponent's tuzdyk (none: -1, never i)
	default:
		g += 3
	}
	return g
}

// sownCount returns pit j's count after n stones are sown one a pit from
// pit s on (whole laps add n/Cycle to every pit). j is on the opponent's
// row, so it is never the pit the stones were lifted from.
func (b *Board) sownCount(j, s, n int) int {
	v := int(b.pits[j]) + n/Cycle
	if (j-s+Cycle)%Cycle < n%Cycle {
		v++
	}
	return v
}

func flag(ok bool) float32 {
	if ok {
		return 1
	}
	return 0
}
