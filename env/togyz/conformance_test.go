package togyz

import (
	"math"
	"math/rand/v2"
	"testing"

	"kumalak/env"
	"kumalak/env/envtest"
)

func TestConformance(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	envtest.Run(t, Spec, games, 1)
}

func TestAllocs(t *testing.T) {
	envtest.Allocs(t, Spec)
	b := mustParse(t, perftPositions[0])
	var c Board
	var sink uint64
	funcs := map[string]func(){
		"Hash":       func() { sink += b.Hash() },
		"Perft":      func() { sink += b.Perft(3) },
		"CopyFrom":   func() { c.CopyFrom(b) },
		"Check":      func() { _ = b.Check(3) },
		"ApplyNoted": func() { c = *b; c.ApplyNoted(0) },
	}
	for name, f := range funcs {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
}

var fuzzSeeds = []string{
	startPos,
	"0,12,0,0,5,9,10,0,1/20,2,0,0,4,7,0,3,1 33 55 4 3 b",
	"0,0,0,0,0,0,0,0,0/5,0,0,0,0,0,0,0,0 78 79 - - w",
	"0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 81 81 4 6 b",
	"0,0,0,0,0,0,0,0,162/0,0,0,0,0,0,0,0,0 0 0 - - w",
	"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - 3 w",
	"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - -",
	"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,-9 0 18 - - w",
	"",
}

func FuzzParse(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, uint64(i))
	}
	for _, c := range ruleCases {
		f.Add(c.before, uint64(c.pit))
	}
	f.Fuzz(func(t *testing.T, s string, seed uint64) {
		envtest.Fuzz(t, Spec, s, seed)
		b, err := Parse(s)
		if err != nil {
			return
		}
		if fast, naive := b.Perft(3), naivePerft(naiveParse(b.String()), 3); fast != naive {
			t.Fatalf("perft(3) %d, naive %d, for\n%s", fast, naive, b.Draw())
		}
	})
}

// mirror returns b seen from the other seat: rows, kazans, tuzdyks and the
// turn swapped.
func mirror(b *Board) Board {
	m := Board{turn: b.turn.Other()}
	for i := range b.pits {
		m.pits[(i+PitsPerSide)%Cycle] = b.pits[i]
	}
	m.kazan = [2]uint8{b.kazan[1], b.kazan[0]}
	for p, t := range b.tuz {
		m.tuz[1-p] = -1
		if t >= 0 {
			m.tuz[1-p] = int8((int(t) + PitsPerSide) % Cycle)
		}
	}
	return m
}

func TestObserveMirror(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a, c := make([]float32, ObsLen), make([]float32, ObsLen)
	for g := 0; g < 30; g++ {
		b := New()
		for len(b.Legal(nil)) > 0 {
			m := mirror(b)
			b.Observe(a)
			m.Observe(c)
			for i := range a {
				if a[i] != c[i] || math.IsNaN(float64(a[i])) {
					t.Fatalf("feature %d: %v, mirrored %v, for\n%s", i, a[i], c[i], b.Draw())
				}
			}
			moves := b.Legal(nil)
			b.Apply(moves[rng.IntN(len(moves))])
		}
	}
}

func TestObserveStart(t *testing.T) {
	obs := make([]float32, ObsLen)
	New().Observe(obs)
	want := make([]float32, ObsLen)
	for k := 0; k < 18; k++ {
		want[obsCount+k] = 0.5
		want[obsOdd+k] = 1
	}
	want[obsMayTuz], want[obsMayTuz+1] = 1, 1
	want[obsNeed], want[obsNeed+1] = 82.0/162, 82.0/162
	want[obsRow], want[obsRow+1] = 1, 1
	for i := 1; i < 9; i++ { // pit 1 ends on the own pit 9; others capture 10
		want[obsOwnGain+i] = 10.0 / 18
		want[obsOppGain+i] = 10.0 / 18
	}
	for i := range want {
		if math.Abs(float64(obs[i]-want[i])) > 1e-6 {
			t.Errorf("feature %d = %v, want %v", i, obs[i], want[i])
		}
	}
}

// TestObserveTuzdyks checks the tuzdyk, kazan and gain features of a
// position with black to move, worked out by hand.
func TestObserveTuzdyks(t *testing.T) {
	b := mustParse(t, "0,12,0,0,5,9,10,0,1/20,2,0,0,4,7,0,3,1 33 55 4 3 b")
	obs := make([]float32, ObsLen)
	b.Observe(obs)
	want := map[int]float32{
		obsCount + 0:    20.0 / 18, // black's pit 1
		obsCount + 9:    0,         // white's pit 1
		obsCount + 10:   12.0 / 18, // white's pit 2
		obsEmpty + 2:    1,         // black's 3
		obsOdd + 12:     0,         // white's 4 (black's tuzdyk, empty)
		obsTwo + 1:      1,         // black's 2
		obsOwnTuz + 2:   1,         // black's tuzdyk on white's 3
		obsOwnTuz + 3:   0,
		obsOppTuz + 3:   1, // white's tuzdyk on black's 4
		obsMayTuz:       0,
		obsMayTuz + 1:   0,
		obsKazan:        55.0 / 82,
		obsKazan + 1:    33.0 / 82,
		obsNeed:         27.0 / 74,
		obsNeed + 1:     49.0 / 74,
		obsRow:          37.0 / 81,
		obsRow + 1:      37.0 / 81,
		obsOwnGain + 0:  1.0 / 18, // a lap: one stone into black's tuzdyk
		obsOwnGain + 1:  0,
		obsOwnGain + 5:  1.0 / 18, // last stone into black's tuzdyk
		obsOwnGain + 8:  0,
		obsOppGain + 1:  1.0 / 18, // last stone into white's tuzdyk
		obsOppGain + 5:  1.0 / 18, // through white's tuzdyk, ends on 5
		obsOppGain + 6:  1.0 / 18,
		obsOppGain + 8:  0,
		obsOppGain + 0:  0,        // empty
		obsOwnGain + 4:  0,        // own side
		obsOppGain + 4:  0,        // own side
		obsCount + 17:   1.0 / 18, // white's pit 9
		obsEmpty + 17:   0,
		obsEmpty + 11:   1, // white's pit 3 is black's tuzdyk
		obsOppTuz + 8:   0,
		obsOwnTuz + 8:   0,
		obsOdd + 0:      0,
		obsOdd + 4:      0,
		obsOdd + 13:     1, // white's 5
		obsTwo + 16 - 9: 0,
	}
	for i, v := range want {
		if math.Abs(float64(obs[i]-v)) > 1e-6 {
			t.Errorf("feature %d = %v, want %v\n%s", i, obs[i], v, b.Draw())
		}
	}
}

func TestHash(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	seen := map[uint64]string{}
	for g := 0; g < 100; g++ {
		b := New()
		for len(b.Legal(nil)) > 0 {
			s := b.String()
			h := b.Hash()
			if prev, ok := seen[h]; ok && prev != s {
				t.Fatalf("hash collision: %s and %s", prev, s)
			}
			seen[h] = s
			if mustParse(t, s).Hash() != h {
				t.Fatalf("equal positions hash differently: %s", s)
			}
			moves := b.Legal(nil)
			b.Apply(moves[rng.IntN(len(moves))])
		}
	}
	w, bl := New(), New()
	bl.turn = env.Black
	if w.Hash() == bl.Hash() {
		t.Error("the hash ignores the player to move")
	}
}
