package learn_test

import (
	"fmt"
	"math/rand/v2"

	"kumalak/data"
	"kumalak/net"
	"kumalak/net/learn"
)

// Training steps on one batch of 8 rows (4 features, 3 actions): the
// policy is pulled toward action 0, the value toward +1, and the loss
// falls. The trainer updates the net.Params it was given in place.
func Example() {
	p := net.NewParams(net.Config{InputLen: 4, Actions: 3, Width: 16, Blocks: 1, ValueHidden: 8})
	p.Init(rand.New(rand.NewPCG(1, 2)))
	cfg := learn.DefaultConfig()
	cfg.Batch, cfg.LR, cfg.WarmupSteps, cfg.Schedule = 8, 0.01, 0, learn.ScheduleConstant
	tr, err := learn.NewTrainer(p, cfg)
	if err != nil {
		panic(err)
	}
	defer tr.Close()
	b := &data.Batch{N: 8}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 8 {
		for range 4 {
			b.Obs = append(b.Obs, rng.Float32())
		}
		b.Mask = append(b.Mask, 1, 1, 1)
		b.Policy = append(b.Policy, 1, 0, 0)
		b.Value = append(b.Value, 1)
		b.Score = append(b.Score, 0)
	}
	first, err := tr.Step(b)
	if err != nil {
		panic(err)
	}
	last := first
	for range 50 {
		if last, err = tr.Step(b); err != nil {
			panic(err)
		}
	}
	fmt.Println("steps", tr.Steps(), "loss fell:", last.Total < first.Total/2)
	// Output:
	// steps 51 loss fell: true
}
