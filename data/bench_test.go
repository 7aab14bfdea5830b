package data

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

const benchShard = 4096 // samples per shard in the benchmarks

// BenchmarkWriteShard reports samples/s and the file bytes per sample.
func BenchmarkWriteShard(b *testing.B) {
	samples := makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, benchShard)
	path := filepath.Join(b.TempDir(), ShardName(1))
	b.ResetTimer()
	for range b.N {
		if err := WriteShard(path, testHeader(), samples); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N*benchShard)/b.Elapsed().Seconds(), "samples/s")
	b.ReportMetric(float64(fi.Size())/benchShard, "filebytes/sample")
	b.ReportMetric(float64(RecordSize(testLayout.ObsLen, testLayout.NumActions)), "rawbytes/sample")
}

// BenchmarkEncodeShard is BenchmarkWriteShard without the file system.
func BenchmarkEncodeShard(b *testing.B) {
	samples := makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, benchShard)
	b.ReportAllocs()
	for range b.N {
		h := testHeader()
		if _, err := encodeShard(&h, samples); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*benchShard)/b.Elapsed().Seconds(), "samples/s")
}

func BenchmarkReadShard(b *testing.B) {
	samples := makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, benchShard)
	path := filepath.Join(b.TempDir(), ShardName(1))
	if err := WriteShard(path, testHeader(), samples); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, _, err := ReadShard(path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*benchShard)/b.Elapsed().Seconds(), "samples/s")
}

func BenchmarkFillBatch(b *testing.B) {
	cfg := DefaultWindowConfig()
	w, err := NewWindow(cfg, testLayout)
	if err != nil {
		b.Fatal(err)
	}
	w.Add(makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 100_000))
	batch := NewBatch(testLayout, 256)
	rng := rand.New(rand.NewPCG(2, 2))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		w.FillBatch(rng, batch)
	}
	b.ReportMetric(float64(b.N*batch.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkAdd(b *testing.B) {
	w, err := NewWindow(WindowConfig{MinSamples: 10_000, Exponent: 1, Growth: 0, MaxSamples: 10_000}, testLayout)
	if err != nil {
		b.Fatal(err)
	}
	samples := makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 256)
	w.Add(makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 20_000))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		w.Add(samples)
	}
	b.ReportMetric(float64(b.N*len(samples))/b.Elapsed().Seconds(), "samples/s")
}
