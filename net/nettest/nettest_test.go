package nettest

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestInputs(t *testing.T) {
	cases := []struct{ inputLen, actions, n int }{{1, 1, 1}, {11, 6, 37}, {40, 9, 200}}
	for _, c := range cases {
		obs, mask := Inputs(c.inputLen, c.actions, c.n, rand.New(rand.NewPCG(1, 2)))
		if len(obs) != c.inputLen*c.n || len(mask) != c.actions*c.n {
			t.Fatalf("%+v: %d features, %d mask entries", c, len(obs), len(mask))
		}
		for _, v := range obs {
			if v < 0 || v > 1.9 || v*10 != float32(math.Round(float64(v*10))) {
				t.Fatalf("%+v: feature %v is not a count/10 in [0, 1.9]", c, v)
			}
		}
		for r := 0; r < c.n; r++ {
			legal := 0
			for _, m := range mask[r*c.actions : (r+1)*c.actions] {
				if m != 0 && m != 1 {
					t.Fatalf("%+v: mask entry %v", c, m)
				}
				legal += int(m)
			}
			if legal == 0 {
				t.Fatalf("%+v: row %d has no legal action", c, r)
			}
		}
	}
}

func TestNormal(t *testing.T) {
	data := make([]float32, 10000)
	Normal(rand.New(rand.NewPCG(3, 4)), data, 0.1)
	var sum, sq float64
	for _, v := range data {
		sum += float64(v)
		sq += float64(v) * float64(v)
	}
	mean := sum / float64(len(data))
	sd := math.Sqrt(sq/float64(len(data)) - mean*mean)
	if math.Abs(mean) > 0.01 || math.Abs(sd-0.1) > 0.01 {
		t.Errorf("mean %g, sd %g; want about 0 and 0.1", mean, sd)
	}
}
