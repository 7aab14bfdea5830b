package cluster_test

import (
	"fmt"

	"kumalak/cluster"
	"kumalak/data"
)

// A worker sends its samples as batches: one message each on the run's
// subject, checked by the trainer against the run and its layout.
func Example() {
	lay := data.Layout{Game: "toy", ObsVersion: "toy/1", ObsLen: 2, NumActions: 2}
	b := &cluster.Batch{ID: "w1.s1.1", Run: "run1", Worker: "w1", Layout: lay, Network: 3, Games: 1}
	b.Samples = []data.Sample{{Obs: []float32{1, 0}, Legal: 0b11, Policy: []float32{0.5, 0.5}, Outcome: 1}}
	msg, err := cluster.EncodeBatch(b)
	if err != nil {
		panic(err)
	}
	got, err := cluster.DecodeBatch(msg)
	if err != nil {
		panic(err)
	}
	fmt.Println(cluster.Subject(got.Run, got.Worker), got.ID, "network", got.Network, "samples", len(got.Samples))
	fmt.Println("for run1:", got.Check("run1", lay) == nil)
	fmt.Println("for run2:", got.Check("run2", lay) == nil)
	// Output:
	// kumalak.samples.run1.w1 w1.s1.1 network 3 samples 1
	// for run1: true
	// for run2: false
}
