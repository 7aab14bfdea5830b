package net

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"kumalak/net/nettest"
)

// kernelTestConfigs are the default network and odd shapes that exercise
// every tail of the kernels: widths that are not a multiple of a vector,
// single units, wide layers with partial column tiles.
var kernelTestConfigs = []Config{
	DefaultConfig(101, 9),
	DefaultConfig(40, 6),
	{InputLen: 1, Actions: 1, Width: 1, Blocks: 1, ValueHidden: 1},
	{InputLen: 7, Actions: 40, Width: 33, Blocks: 0, ValueHidden: 5},
	{InputLen: 64, Actions: 17, Width: 200, Blocks: 2, ValueHidden: 70},
	{InputLen: 13, Actions: 256, Width: 48, Blocks: 1, ValueHidden: 16},
}

// kernelTestBatches are the batch sizes compared: for the default network
// (all true) every size from 1 to 256; for the others every size up to 50
// (all row-block and chunk remainders), then the edges of the larger chunks.
// Under the race detector, which slows the portable kernel most, every size
// up to 13 and the chunk edges only.
func kernelTestBatches(all bool) []int {
	var b []int
	if all && !raceEnabled {
		for n := 1; n <= 256; n++ {
			b = append(b, n)
		}
		return b
	}
	for n := 1; n <= 50; n++ {
		if !raceEnabled || n <= 13 || n >= 47 {
			b = append(b, n)
		}
	}
	if raceEnabled {
		return append(b, 97, 256)
	}
	return append(b, 63, 64, 65, 95, 96, 97, 127, 128, 129, 191, 255, 256)
}

// simdLevels returns the SIMD levels this CPU supports.
func simdLevels() []kernelLevel { return supportedKernels()[1:] }

// closeTo reports whether got is within tol of want, relative to
// max(1, |want|).
func closeTo(got, want float32, tol float64) bool {
	return math.Abs(float64(got)-float64(want)) <= tol*math.Max(1, math.Abs(float64(want)))
}

func TestKernelsMatchPortable(t *testing.T) {
	levels := simdLevels()
	if len(levels) == 0 {
		t.Skip("no SIMD kernel on this CPU")
	}
	const maxN = 256
	for ci, c := range kernelTestConfigs {
		p := infTestParams(c, uint64(ci)+100)
		obs, mask := nettest.Inputs(c.InputLen, c.Actions, maxN, rand.New(rand.NewPCG(uint64(ci), 3)))
		ref := newInfer(p, maxN, kernelPortable)
		wantL, wantP, wantV := make([]float32, maxN*c.Actions), make([]float32, maxN*c.Actions), make([]float32, maxN)
		gotL, gotP, gotV := make([]float32, maxN*c.Actions), make([]float32, maxN*c.Actions), make([]float32, maxN)
		for _, k := range levels {
			f := newInfer(p, maxN, k)
			for _, n := range kernelTestBatches(ci == 0) {
				o, m, a := obs[:n*c.InputLen], mask[:n*c.Actions], n*c.Actions
				ref.Logits(o, wantL[:a], wantV[:n])
				f.Logits(o, gotL[:a], gotV[:n])
				ref.Run(o, m, wantP[:a], wantV[:n])
				f.Run(o, m, gotP[:a], gotV[:n])
				for i := 0; i < a; i++ {
					if !closeTo(gotL[i], wantL[i], 1e-5) || !closeTo(gotP[i], wantP[i], 1e-5) {
						t.Fatalf("%s, config %d, batch %d, row %d action %d: logit %v prior %v; portable %v, %v",
							k, ci, n, i/c.Actions, i%c.Actions, gotL[i], gotP[i], wantL[i], wantP[i])
					}
				}
				for r := 0; r < n; r++ {
					if !closeTo(gotV[r], wantV[r], 1e-5) {
						t.Fatalf("%s, config %d, batch %d, row %d: value %v, portable %v", k, ci, n, r, gotV[r], wantV[r])
					}
				}
			}
		}
	}
}

// TestKernelLayerFlush checks one SIMD layer against float64 arithmetic,
// with outputs placed on both sides of the flush threshold: below it (and
// negative) they must come out 0 with ReLU on, unchanged with it off.
func TestKernelLayerFlush(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, k := range simdLevels() {
		for _, shape := range [][2]int{{1, 1}, {5, 16}, {13, 37}, {64, 130}} {
			in, out := shape[0], shape[1]
			const n = 11
			p := &Params{}
			w := &Tensor{Name: "w", Shape: []int{in, out}, Data: make([]float32, in*out)}
			b := &Tensor{Name: "b", Shape: []int{out}, Data: make([]float32, out)}
			tiny := []float32{1e-35, -1e-35, 5e-31, 2e-30, 1e-20, -3, 0.5, 1e-40}
			for j := range out {
				b.Data[j] = tiny[j%len(tiny)]
			}
			for i := range w.Data {
				if j := i % out; j%3 == 0 { // every third column: random weights
					w.Data[i] = float32(rng.NormFloat64())
				}
			}
			p.byName = map[string]*Tensor{"w": w, "b": b}
			l := newSimdLayer(p, k, "w", "b")
			x := make([]float32, n*in)
			for i := range x {
				if i%3 == 0 { // a third non-zero: the sparse kernels take it
					x[i] = float32(rng.NormFloat64())
				}
			}
			for _, c := range []struct {
				relu bool
				nz   *nzRows
			}{{false, nil}, {true, nil}, {false, newNzRows()}, {true, newNzRows()}} {
				relu := c.relu
				y := make([]float32, n*l.outPad)
				l.apply(k, c.nz, n, x, in, nil, y, relu)
				for r := 0; r < n; r++ {
					for j := 0; j < out; j++ {
						want := float64(l.b[j])
						for i := 0; i < in; i++ {
							want += float64(x[r*in+i]) * float64(w.Data[i*out+j])
						}
						if relu && want < FlushThreshold {
							want = 0
						}
						if got := y[r*l.outPad+j]; !closeTo(got, float32(want), 1e-5) || (relu && want == 0 && got != 0) {
							t.Fatalf("%s %dx%d relu=%v row %d col %d: %v, want %v", k, in, out, relu, r, j, got, want)
						}
					}
				}
			}
		}
	}
}

func TestKernelAllocs(t *testing.T) {
	c := DefaultConfig(101, 9)
	p := infTestParams(c, 1)
	for _, k := range supportedKernels() {
		f := newInfer(p, 256, k)
		for _, n := range []int{1, 7, 64, 256} {
			obs, mask := nettest.Inputs(c.InputLen, c.Actions, n, rand.New(rand.NewPCG(1, 1)))
			priors, values := make([]float32, n*c.Actions), make([]float32, n)
			if a := testing.AllocsPerRun(10, func() { f.Run(obs, mask, priors, values) }); a != 0 {
				t.Errorf("%s, batch %d: %v allocs per Run, want 0", k, n, a)
			}
		}
	}
}

func TestSelectKernel(t *testing.T) {
	all := []kernelLevel{kernelPortable, kernelAVX2, kernelAVX512}
	cases := []struct {
		want      string
		supported []kernelLevel
		got       kernelLevel
		err       bool
	}{
		{"", all, kernelAVX512, false},
		{"", all[:1], kernelPortable, false},
		{"portable", all, kernelPortable, false},
		{" AVX2 ", all, kernelAVX2, false},
		{"avx512", all, kernelAVX512, false},
		{"avx512", all[:2], kernelAVX2, true},
		{"sse", all, kernelAVX512, true},
	}
	for _, tc := range cases {
		got, err := selectKernel(tc.want, tc.supported)
		if got != tc.got || (err != nil) != tc.err {
			t.Errorf("selectKernel(%q, %v) = %v, %v; want %v, error %v", tc.want, tc.supported, got, err, tc.got, tc.err)
		}
	}
	if name, err := Kernel(); err == nil && name != activeKernel.String() {
		t.Errorf("Kernel() = %q, active %v", name, activeKernel)
	}
}

func TestAlignedFloats(t *testing.T) {
	for n := 1; n < 40; n++ {
		s := alignedFloats(n)
		if len(s) != n || cap(s) != n || addrOf(s)%64 != 0 {
			t.Fatalf("alignedFloats(%d): len %d cap %d address %#x", n, len(s), cap(s), addrOf(s))
		}
	}
}

func addrOf(s []float32) uintptr { return uintptr(unsafe.Pointer(&s[0])) }
