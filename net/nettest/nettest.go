package nettest

import "math/rand/v2"

// Inputs returns n observation rows of inputLen features (about a third
// zero, the rest small counts, like stone encodings) and n random legal
// masks over actions, each with at least one legal action.
func Inputs(inputLen, actions, n int, rng *rand.Rand) (obs, mask []float32) {
	obs = make([]float32, n*inputLen)
	for i := range obs {
		if rng.IntN(3) != 0 {
			obs[i] = float32(rng.IntN(20)) / 10
		}
	}
	mask = make([]float32, n*actions)
	for r := 0; r < n; r++ {
		row := mask[r*actions : (r+1)*actions]
		for a := range row {
			if rng.IntN(2) == 0 {
				row[a] = 1
			}
		}
		row[rng.IntN(actions)] = 1
	}
	return obs, mask
}

// Normal sets every number of data to a normal draw of standard deviation
// sd: the non-zero biases that make every term of a forward pass count.
func Normal(rng *rand.Rand, data []float32, sd float64) {
	for i := range data {
		data[i] = float32(rng.NormFloat64() * sd)
	}
}
