package data_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"kumalak/data"
)

// Self-play writes samples to checksummed shards; training loads them into
// a replay window and draws batches from it.
func Example() {
	lay := data.Layout{Game: "toy", ObsVersion: "toy/1", ObsLen: 4, NumActions: 2}
	samples := make([]data.Sample, 3)
	for i := range samples {
		samples[i] = data.Sample{
			Obs:     []float32{float32(i), 0, 1, 0},
			Legal:   0b11, // both actions legal
			Policy:  []float32{0.75, 0.25},
			Outcome: 1,
			Ply:     uint16(i),
		}
	}
	dir, err := os.MkdirTemp("", "data-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, data.ShardName(0))
	if err := data.WriteShard(path, data.Header{Layout: lay}, samples); err != nil {
		panic(err)
	}
	h, back, err := data.ReadShard(path)
	if err != nil {
		panic(err)
	}
	fmt.Println(filepath.Base(path), h.Count, "samples, the same:", back[2].Equal(&samples[2]))

	cfg := data.DefaultWindowConfig()
	cfg.MinSamples = 10
	w, err := data.NewWindow(cfg, lay)
	if err != nil {
		panic(err)
	}
	w.Add(back)
	b := data.NewBatch(lay, 2)
	w.FillBatch(rand.New(rand.NewPCG(1, 2)), b)
	fmt.Println("window", w.Len(), "batch rows", b.N, "policy", b.Policy[:2])
	// Output:
	// shard-000000.kshard 3 samples, the same: true
	// window 3 batch rows 2 policy [0.75 0.25]
}
