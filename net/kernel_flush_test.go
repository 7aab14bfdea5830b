package net

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"kumalak/net/nettest"
)

func TestFlushSubnormals(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	minSub := math.Float32frombits(1)
	cases := []struct {
		in, want float32
		flushed  bool
	}{
		{0, 0, false},
		{1, 1, false},
		{-2.5, -2.5, false},
		{minSub, 0, true},
		{-minSub, 0, true},
		{1e-39, 0, true},
		{-1e-38, 0, true},
		{1e-31, 0, true},
		{-9.9e-31, 0, true},
		{1e-30, 1e-30, false},
		{-1e-30, -1e-30, false},
		{1e-29, 1e-29, false},
		{inf, inf, false},
		{-inf, -inf, false},
	}
	x := make([]float32, len(cases))
	want := 0
	for i, c := range cases {
		x[i] = c.in
		if c.flushed {
			want++
		}
	}
	if got := FlushSubnormals(x); got != want {
		t.Errorf("FlushSubnormals changed %d entries, want %d", got, want)
	}
	for i, c := range cases {
		if x[i] != c.want {
			t.Errorf("FlushSubnormals(%g) = %g, want %g", c.in, x[i], c.want)
		}
	}
	n := []float32{nan}
	if FlushSubnormals(n) != 0 || !math.IsNaN(float64(n[0])) {
		t.Errorf("FlushSubnormals changed NaN to %v", n[0])
	}
}

// TestFlushThresholdInKernels checks that the assembly compares against
// FlushThreshold (kernelgen holds its own copy of the constant).
func TestFlushThresholdInKernels(t *testing.T) {
	b, err := os.ReadFile("kernel_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("MOVL $0x%08x, AX", math.Float32bits(FlushThreshold))
	if !strings.Contains(string(b), want) || strings.Count(string(b), "MOVL $") != strings.Count(string(b), want) {
		t.Errorf("kernel_amd64.s does not load the threshold with %q everywhere: run go generate ./net", want)
	}
}

func TestReluFlush(t *testing.T) {
	nan := float32(math.NaN())
	in := []float32{-1, float32(math.Copysign(0, -1)), 0, math.Float32frombits(1), 1e-35, 9.9e-31, 1e-30, 3, float32(math.Inf(1)), float32(math.Inf(-1)), -1e-40}
	want := []float32{0, 0, 0, 0, 0, 0, 1e-30, 3, float32(math.Inf(1)), 0, 0}
	reluFlush(in)
	for i := range in {
		if in[i] != want[i] || math.Signbit(float64(in[i])) {
			t.Errorf("entry %d: %v, want %v", i, in[i], want[i])
		}
	}
	n := []float32{nan}
	if reluFlush(n); !math.IsNaN(float64(n[0])) {
		t.Errorf("reluFlush(NaN) = %v", n[0])
	}
}

// subnormalParams returns a clean network and a copy in which a fraction
// frac of the weight entries hold subnormals or tiny normal floats below
// FlushThreshold, as the weights of dead units become after long training;
// in the clean network those entries are zero.
func subnormalParams(c Config, frac float64, seed uint64) (clean, dirty *Params, injected int) {
	rng := rand.New(rand.NewPCG(seed, 11))
	clean = infTestParams(c, seed)
	dirty = clean.Clone()
	for ti, t := range dirty.Tensors {
		if len(t.Shape) != 2 {
			continue
		}
		for i := range t.Data {
			if rng.Float64() >= frac {
				continue
			}
			v := float32(rng.Float64() * 1e-38) // subnormal or tiny normal
			if rng.IntN(4) == 0 {
				v = float32(rng.Float64() * 1e-31)
			}
			if rng.IntN(2) == 0 {
				v = -v
			}
			t.Data[i], clean.Tensors[ti].Data[i] = v, 0
			if v != 0 {
				injected++
			}
		}
	}
	return clean, dirty, injected
}

func TestInferSubnormalWeights(t *testing.T) {
	c := DefaultConfig(101, 9)
	clean, dirty, injected := subnormalParams(c, 0.05, 3)
	if injected < 1000 {
		t.Fatalf("only %d subnormal weights injected", injected)
	}
	const n = 64
	obs, mask := nettest.Inputs(c.InputLen, c.Actions, n, rand.New(rand.NewPCG(4, 4)))
	for _, k := range supportedKernels() {
		fc, fd := newInfer(clean, n, k), newInfer(dirty, n, k)
		pc, pd := make([]float32, n*c.Actions), make([]float32, n*c.Actions)
		vc, vd := make([]float32, n), make([]float32, n)
		fc.Run(obs, mask, pc, vc)
		fd.Run(obs, mask, pd, vd)
		for r := 0; r < n; r++ {
			_, want := refForward(dirty, obs[r*c.InputLen:(r+1)*c.InputLen]) // unflushed, float64
			if !closeTo(vd[r], vc[r], 1e-6) || math.Abs(float64(vd[r])-want) > 1e-5 {
				t.Fatalf("%s row %d: value %v with subnormal weights, %v clean, %v exact", k, r, vd[r], vc[r], want)
			}
			for a := 0; a < c.Actions; a++ {
				if i := r*c.Actions + a; !closeTo(pd[i], pc[i], 1e-6) {
					t.Fatalf("%s row %d action %d: prior %v with subnormal weights, %v clean", k, r, a, pd[i], pc[i])
				}
			}
		}
	}
}

func TestLoadFlushesSubnormals(t *testing.T) {
	c := DefaultConfig(101, 9)
	_, dirty, injected := subnormalParams(c, 0.02, 5)
	m := kmodelTestModel(c)
	m.Params = dirty
	got := kmodelRoundTrip(t, m)
	if n := got.Params.FlushSubnormals(); n != 0 {
		t.Fatalf("a loaded model still had %d entries below the flush threshold", n)
	}
	if n := dirty.FlushSubnormals(); n != injected {
		t.Fatalf("Params.FlushSubnormals flushed %d entries, want %d", n, injected)
	}
	for i, tn := range got.Params.Tensors {
		for j, v := range tn.Data {
			if v != dirty.Tensors[i].Data[j] {
				t.Fatalf("%s[%d]: loaded %v, want %v", tn.Name, j, v, dirty.Tensors[i].Data[j])
			}
		}
	}
}
