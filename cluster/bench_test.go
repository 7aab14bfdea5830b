package cluster

import (
	"context"
	"testing"

	"kumalak/net"
	"kumalak/selfplay"
)

// BenchmarkBatchCodec measures encoding and decoding a batch of 256 togyz
// self-play samples (the worker's default batch, from games of a small
// random network); the bytes per sample on the wire are reported.
func BenchmarkBatchCodec(b *testing.B) {
	spec, err := envSpec("togyz")
	if err != nil {
		b.Fatal(err)
	}
	lay := layoutOf(spec)
	batch := &Batch{ID: "w.s.1", Run: "r", Worker: "w", Layout: lay}
	ev := net.NewBatcher(tinyModel(lay, 1).Params, net.DefaultBatcherConfig())
	defer ev.Close()
	sp := selfplay.DefaultConfig()
	sp.Games, sp.FullSims, sp.CheapSims, sp.FullFraction = 4, 16, 4, 1
	for seed := uint64(1); len(batch.Samples) < 256; seed++ {
		if _, err := selfplay.Run(context.Background(), spec, ev, sp, 4, seed, func(g selfplay.GameResult) {
			batch.Samples = append(batch.Samples, g.Samples...)
		}); err != nil {
			b.Fatal(err)
		}
	}
	batch.Samples = batch.Samples[:256]
	msg, err := EncodeBatch(batch)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := EncodeBatch(batch); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(256*b.N)/b.Elapsed().Seconds(), "samples/s")
		b.ReportMetric(float64(len(msg))/256, "bytes/sample")
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := DecodeBatch(msg); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(256*b.N)/b.Elapsed().Seconds(), "samples/s")
	})
}
