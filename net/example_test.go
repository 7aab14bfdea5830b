package net_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"kumalak/net"
)

// A network for a game with 4 features and 3 actions: Infer evaluates rows
// directly; a Batcher gathers the rows of many callers (self-play games,
// each an mcts.Evaluator user) into one run and answers the same.
func Example() {
	p := net.NewParams(net.Config{InputLen: 4, Actions: 3, Width: 16, Blocks: 1, ValueHidden: 8})
	p.Init(rand.New(rand.NewPCG(1, 2)))

	obs := []float32{0.5, 0, 1, 0}
	mask := []float32{1, 0, 1} // action 1 is illegal
	priors, value := make([]float32, 3), make([]float32, 1)
	net.NewInfer(p, 1).Run(obs, mask, priors, value)
	fmt.Printf("illegal prior %.0f, legal priors sum to %.2f, value in [-1, 1]: %v\n",
		priors[1], priors[0]+priors[2], math.Abs(float64(value[0])) <= 1)

	b := net.NewBatcher(p, net.DefaultBatcherConfig())
	defer b.Close()
	bp, bv := make([]float32, 3), make([]float32, 1)
	if err := b.Evaluate(obs, mask, bp, bv); err != nil {
		panic(err)
	}
	fmt.Println("batcher agrees:", close32(bp, priors) && close32(bv, value))
	// Output:
	// illegal prior 0, legal priors sum to 1.00, value in [-1, 1]: true
	// batcher agrees: true
}

func close32(a, b []float32) bool {
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-5 {
			return false
		}
	}
	return true
}
