package togyz

import (
	"math"
	"math/rand/v2"
	"testing"

	"kumalak/env"
)

// observeRef is Observe written plainly, one feature at a time, as it was
// before Observe was tuned; Observe must agree with it bit for bit.
func observeRef(b *Board, dst []float32) {
	dst = dst[:ObsLen]
	clear(dst)
	m, o := b.turn, b.turn.Other()
	for k := 0; k < pitFeatures; k++ {
		c := k
		if b.turn == env.Black {
			c += PitsPerSide
		}
		v := b.pits[c%Cycle]
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
		gainsBySowing(b, p, dst[obsOwnGain+k*PitsPerSide:][:PitsPerSide])
	}
}

// TestObserveAgainstReference compares Observe with observeRef on every
// position of random games and on random boards (large pits, tuzdyks of
// every kind), into a buffer holding garbage first: Observe must write
// every feature.
func TestObserveAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	got, want := make([]float32, ObsLen+1), make([]float32, ObsLen)
	check := func(b *Board) {
		t.Helper()
		for i := range got {
			got[i] = float32(math.NaN())
		}
		got[ObsLen] = 7
		b.Observe(got)
		observeRef(b, want)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("feature %d: %v, want %v, for\n%s", i, got[i], want[i], b.Draw())
			}
		}
		if got[ObsLen] != 7 {
			t.Fatalf("Observe wrote past ObsLen")
		}
	}
	for g := 0; g < 300; g++ {
		b := New()
		for moves := b.Legal(nil); len(moves) > 0; moves = b.Legal(moves[:0]) {
			check(b)
			b.Apply(moves[rng.IntN(len(moves))])
		}
		check(b)
	}
	for range 20000 {
		b := randomBoard(rng)
		check(&b)
	}
}

// gamePositions returns the positions of n random games, for benchmarks
// that should see the branches of real play rather than one position.
func gamePositions(n int) []Board {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []Board
	for range n {
		b := New()
		for moves := b.Legal(nil); len(moves) > 0; moves = b.Legal(moves[:0]) {
			out = append(out, *b)
			b.Apply(moves[rng.IntN(len(moves))])
		}
	}
	return out
}

// BenchmarkObserveGames runs Observe over the positions of 20 random games
// in turn.
func BenchmarkObserveGames(b *testing.B) {
	pos := gamePositions(20)
	obs := make([]float32, ObsLen)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		pos[i].Observe(obs)
		if i++; i == len(pos) {
			i = 0
		}
	}
}

// BenchmarkApplyGames plays one legal move (the first) on each position of
// 20 random games in turn.
func BenchmarkApplyGames(b *testing.B) {
	pos := gamePositions(20)
	var moves [PitsPerSide]env.Action
	first := make([]env.Action, len(pos))
	for i := range pos {
		first[i] = pos[i].Legal(moves[:0])[0]
	}
	b.ReportAllocs()
	var st Board
	i := 0
	for b.Loop() {
		st = pos[i]
		st.Apply(first[i])
		if i++; i == len(pos) {
			i = 0
		}
	}
}
