package solve

import (
	"math/rand/v2"
	"testing"

	"kumalak/env"
	"kumalak/env/mangala"
)

// checkPlay compares Pits.Play with the rules engine for every legal move
// of p with each colour to move.
func checkPlay(t *testing.T, p Pits) {
	t.Helper()
	if _, over := p.Terminal(); over {
		return
	}
	for who := env.White; who <= env.Black; who++ {
		b := boardOf(t, p, who, false)
		for i := 0; i < rowPits; i++ {
			if p[i] == 0 {
				continue
			}
			c := *b
			c.Apply(env.Action(i))
			got := p.Play(i)
			gain, extra := gainOf(b, &c)
			want := FromBoard(&c)
			if got.Pits != want || got.Gain != gain || got.Extra != extra || got.Over != (c.Result() != env.Ongoing) {
				t.Fatalf("%s plays %d: got %+v, engine gives %v gain %d extra %v (%s)", b, i+1, got, want, gain, extra, &c)
			}
		}
	}
}

func TestPlayMatchesEngine(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		checkPlay(t, randomPits(rng, 1+rng.IntN(mangala.Stones)))
	}
	// Laps: a pit of 13 or more stones passes every place.
	checkPlay(t, Pits{0, 0, 0, 0, 0, 30, 1, 0, 0, 0, 0, 0})
	checkPlay(t, Pits{27, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})
}

func FuzzPlay(f *testing.F) {
	f.Add([]byte{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4})
	f.Add([]byte{0, 0, 0, 0, 0, 14, 0, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		var p Pits
		s := 0
		for k := 0; k < nPits && k < len(b); k++ {
			v := min(int(b[k]), mangala.Stones-s)
			p[k], s = uint8(v), s+v
		}
		checkPlay(t, p)
	})
}
