package data

import (
	"math/rand/v2"
	"testing"
)

// testLayout is shaped like togyz: 9 actions, a few dozen features.
var testLayout = Layout{Game: "togyz", ObsVersion: "togyz/1", ObsLen: 40, NumActions: 9}

// makeSamples returns n samples of layout l whose ids are first..first+n-1:
// Obs[0] holds the id, the rest is random but fixed by the seed.
func makeSamples(rng *rand.Rand, l Layout, first, n int) []Sample {
	out := make([]Sample, n)
	for i := range out {
		s := &out[i]
		s.Obs = make([]float32, l.ObsLen)
		s.Obs[0] = float32(first + i)
		for k := 1; k < l.ObsLen; k++ {
			s.Obs[k] = float32(rng.IntN(20)) / 162
		}
		s.Policy = make([]float32, l.NumActions)
		for a := range l.NumActions {
			if rng.IntN(3) > 0 {
				s.Legal |= 1 << uint(a)
				s.Policy[a] = rng.Float32()
			}
		}
		s.Outcome = float32(rng.IntN(3) - 1)
		s.RootValue = rng.Float32()*2 - 1
		s.Score = float32(rng.IntN(41)-20) / 162
		s.Ply = uint16(first + i)
	}
	return out
}

// id returns the id makeSamples gave s.
func id(s *Sample) int { return int(s.Obs[0]) }

func checkSamples(t *testing.T, got, want []Sample) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d samples, want %d", len(got), len(want))
	}
	for i := range got {
		if !got[i].Equal(&want[i]) {
			t.Fatalf("sample %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

// windowSamples copies out every sample of w, oldest first.
func windowSamples(w *Window) []Sample {
	out := make([]Sample, w.Len())
	for i := range out {
		w.At(i, &out[i])
	}
	return out
}
