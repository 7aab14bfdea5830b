package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	"kumalak/data"
	"kumalak/net"
)

// trStepLR takes one step at progress p and returns its rate.
func trStepLR(t *testing.T, tr *Trainer, b *data.Batch, p float64) float64 {
	t.Helper()
	tr.SetProgress(p)
	want := tr.LearningRate()
	l, err := tr.Step(b)
	if err != nil {
		t.Fatal(err)
	}
	if l.LR != want {
		t.Fatalf("step %d: LearningRate() said %g, Step used %g", tr.Steps(), want, l.LR)
	}
	return l.LR
}

// TestScheduleWarmupAndRewarm follows the rate through the warm-up, the
// decay, an extension of the horizon (re-warm from the last rate) and a
// lost optimizer state (re-warm from 0).
func TestScheduleWarmupAndRewarm(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Batch, cfg.LR, cfg.MinLR, cfg.WarmupSteps = 4, 1e-2, 1e-4, 4
	tr := trMust(t, trParams(trTinyConfig, 1), cfg)
	b := trBatch(trTinyConfig, cfg.Batch, rand.New(rand.NewPCG(1, 1)))
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: rate %.9g, want %.9g", what, got, want)
		}
	}
	for k := 0; k < 4; k++ {
		near("warm-up", trStepLR(t, tr, b, 0), 1e-2*float64(k+1)/4)
	}
	near("half-way", trStepLR(t, tr, b, 0.5), cfg.Rate(0.5))
	near("end", trStepLR(t, tr, b, 1), 1e-4)
	near("past the end", trStepLR(t, tr, b, 1.5), 1e-4)
	// The horizon doubles: progress falls back to 1/2; the rate climbs
	// from 1e-4 to the schedule's over 4 steps, then follows it.
	target := cfg.Rate(0.5)
	for k := 0; k < 4; k++ {
		near("re-warm", trStepLR(t, tr, b, 0.5), 1e-4+(target-1e-4)*float64(k+1)/4)
	}
	near("after the re-warm", trStepLR(t, tr, b, 0.6), cfg.Rate(0.6))
	tr.SetSteps(100)
	for k := 0; k < 4; k++ {
		near("re-warm from fresh moments", trStepLR(t, tr, b, 0.6), cfg.Rate(0.6)*float64(k+1)/4)
	}
	if tr.Steps() != 104 || tr.opt.t != 4 {
		t.Errorf("steps %d, updates %d; want 104 and 4", tr.Steps(), tr.opt.t)
	}
}

// TestRestoreContinuesExactly trains n steps in one go and k steps, then a
// checkpoint through its file format, a new trainer from the saved weights
// and n-k more steps: the weights, score head and optimizer state must end
// bit-identical.
func TestRestoreContinuesExactly(t *testing.T) {
	c := net.Config{InputLen: 12, Actions: 5, Width: 32, Blocks: 1, ValueHidden: 8}
	cfg := DefaultConfig()
	cfg.Batch, cfg.ScoreWeight, cfg.WarmupSteps, cfg.WeightDecay = 16, 0.5, 3, 0.05
	const n, k = 10, 4
	rng := rand.New(rand.NewPCG(6, 6))
	var batches []*data.Batch
	for i := 0; i < n; i++ {
		batches = append(batches, trBatch(c, cfg.Batch, rng))
	}
	steps := func(tr *Trainer, from, to int) {
		for i := from; i < to; i++ {
			tr.SetProgress(float64(i) / n)
			if _, err := tr.Step(batches[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	whole := trMust(t, trParams(c, 6), cfg)
	steps(whole, 0, n)

	first := trMust(t, trParams(c, 6), cfg)
	steps(first, 0, k)
	enc, err := first.Checkpoint().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var ck Checkpoint
	if err := ck.UnmarshalBinary(enc); err != nil {
		t.Fatal(err)
	}
	resumed := trMust(t, first.Params(), cfg)
	if err := resumed.Restore(&ck); err != nil {
		t.Fatal(err)
	}
	steps(resumed, k, n)

	if !trSameBits(whole.Params(), resumed.Params()) {
		t.Error("resumed weights differ from the uninterrupted run's")
	}
	a, err1 := whole.Checkpoint().MarshalBinary()
	b, err2 := resumed.Checkpoint().MarshalBinary()
	if err1 != nil || err2 != nil || string(a) != string(b) {
		t.Errorf("resumed optimizer state differs from the uninterrupted run's (%v, %v)", err1, err2)
	}
}

func TestRestoreRefusesAnotherNetwork(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Batch, cfg.ScoreWeight = 2, 1
	tr := trMust(t, trParams(trTinyConfig, 1), cfg)
	other := trTinyConfig
	other.Width++
	ck := trMust(t, trParams(other, 1), cfg).Checkpoint()
	if err := tr.Restore(ck); err == nil {
		t.Error("Restore accepted the checkpoint of a wider network")
	}
	ck = tr.Checkpoint()
	ck.Tensors = ck.Tensors[1:]
	if err := tr.Restore(ck); err == nil {
		t.Error("Restore accepted a checkpoint without the first tensor")
	}

	// The score head may be switched off, or on, between runs.
	off := cfg
	off.ScoreWeight = 0
	plain := trMust(t, trParams(trTinyConfig, 1), off)
	if err := plain.Restore(tr.Checkpoint()); err != nil {
		t.Errorf("restoring with the score head switched off: %v", err)
	}
	if err := tr.Restore(plain.Checkpoint()); err != nil {
		t.Errorf("restoring with the score head switched on: %v", err)
	}
}
