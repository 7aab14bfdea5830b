package net

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sparseInputs returns rows×stride floats, the first in of each row
// non-zero with probability density (a tenth of those exactly 1, as the
// observations' flags are), the padding and the rest zero; some entries
// are -0, which counts as zero.
func sparseInputs(rng *rand.Rand, rows, in, stride int, density float64) []float32 {
	x := make([]float32, rows*stride)
	for r := range rows {
		for i := range in {
			switch u := rng.Float64(); {
			case u < density/10:
				x[r*stride+i] = 1
			case u < density:
				x[r*stride+i] = float32(rng.NormFloat64())
			case u < density+0.05:
				x[r*stride+i] = float32(math.Copysign(0, -1))
			}
		}
	}
	return x
}

func TestNonZeros(t *testing.T) {
	if len(simdLevels()) == 0 {
		t.Skip("no SIMD kernel on this CPU")
	}
	rng := rand.New(rand.NewPCG(5, 5))
	nz := newNzRows()
	for _, in := range []int{8, 9, 15, 16, 17, 31, 101, 116, 128, 255, 256} {
		for _, d := range []float64{0, 0.05, 0.5, 1} {
			for _, rows := range []int{1, 2, 7, simdChunk} {
				stride := in + rng.IntN(3)
				x := sparseInputs(rng, rows, in, stride, d)
				if d == 1 && in > 20 {
					x[3] = float32(math.NaN()) // NaN counts as non-zero
				}
				all := nonZeros(&x[0], uintptr(stride*4), in, rows, &nz.idx[0], uintptr(nz.stride), &nz.cnt[0])
				sum := 0
				for r := range rows {
					var want []uint8
					for i := range in {
						if v := x[r*stride+i]; v != 0 || v != v {
							want = append(want, uint8(i))
						}
					}
					got := nz.idx[r*nz.stride:][:nz.cnt[r]]
					if string(got) != string(want) {
						t.Fatalf("in %d density %v rows %d, row %d: indices %v, want %v", in, d, rows, r, got, want)
					}
					sum += len(want)
				}
				if all != sum {
					t.Fatalf("in %d density %v rows %d: total %d, want %d", in, d, rows, all, sum)
				}
			}
		}
	}
}

// TestSparseMatchesDense checks that the sparse kernels give the dense
// kernels' outputs exactly (zeros of either sign equal), over every tile
// width, with and without a residual and ReLU, and that apply, whichever
// kernels it chooses, does too.
func TestSparseMatchesDense(t *testing.T) {
	levels := simdLevels()
	if len(levels) == 0 {
		t.Skip("no SIMD kernel on this CPU")
	}
	rng := rand.New(rand.NewPCG(6, 6))
	for _, k := range levels {
		for _, shape := range [][2]int{{8, 1}, {8, 16}, {9, 17}, {116, 128}, {128, 128}, {128, 9}, {128, 64}, {64, 1}, {101, 200}, {256, 130}, {33, 48}, {40, 96}} {
			in, out := shape[0], shape[1]
			p := &Params{}
			w := &Tensor{Name: "w", Shape: []int{in, out}, Data: make([]float32, in*out)}
			b := &Tensor{Name: "b", Shape: []int{out}, Data: make([]float32, out)}
			for i := range w.Data {
				w.Data[i] = float32(rng.NormFloat64())
			}
			for i := range b.Data {
				b.Data[i] = float32(rng.NormFloat64())
			}
			p.byName = map[string]*Tensor{"w": w, "b": b}
			l := newSimdLayer(p, k, "w", "b")
			nz := newNzRows()
			for _, d := range []float64{0, 0.1, 0.4, 0.7, 0.95} {
				for _, n := range []int{1, 2, 5, 6, 7, 13, simdChunk} {
					xs := in + 3
					x := sparseInputs(rng, n, in, xs, d)
					res := make([]float32, n*l.outPad)
					for i := range res {
						res[i] = float32(rng.NormFloat64())
					}
					for _, c := range []struct {
						relu bool
						res  []float32
					}{{false, nil}, {true, nil}, {true, res}, {false, res}} {
						want := make([]float32, n*l.outPad)
						l.run(k, nil, false, n, x, xs, c.res, want, c.relu)
						for _, how := range []string{"sparse", "chosen"} {
							got := make([]float32, n*l.outPad)
							switch {
							case how == "chosen":
								l.apply(k, nz, n, x, xs, c.res, got, c.relu)
							case l.sw == nil: // no sparse form (too few outputs)
								continue
							default:
								l.list(nz, n, x, xs)
								l.run(k, nz, true, n, x, xs, c.res, got, c.relu)
							}
							for i := range want {
								if got[i] != want[i] && !(got[i] != got[i] && want[i] != want[i]) {
									t.Fatalf("%s %s %dx%d density %v batch %d relu %v res %v, row %d col %d: %v, dense %v",
										how, k, in, out, d, n, c.relu, c.res != nil, i/l.outPad, i%l.outPad, got[i], want[i])
								}
							}
						}
					}
				}
			}
		}
	}
}

// decide is the choice apply makes for rows with nz non-zero inputs of
// rows×in.
func decide(c *kernelChoice, rows, in, nz int) bool {
	list, sure := c.plan(in)
	return list && c.choose(rows, in, nz, sure)
}

func TestKernelChoice(t *testing.T) {
	const rows, in = 48, 128
	half := rows * in / 2
	cases := []struct {
		name          string
		dense, sparse float64 // true costs: ns a row, ns a non-zero input
		nz            int
		wantSparse    bool
	}{
		{"sparse cheaper", 100, 1, half, true},
		{"dense cheaper", 100, 2, half, false},
		{"few non-zero, unmeasured", 100, 100, rows * in / 5, true},
		{"almost all non-zero, unmeasured", 1, 0.001, rows * in * 95 / 100, false},
	}
	for _, tc := range cases {
		var c kernelChoice
		picks := 0
		const calls = 320
		for range calls {
			sparse := decide(&c, rows, in, tc.nz)
			if sparse == tc.wantSparse {
				picks++
			}
			ns := tc.dense * rows
			if sparse {
				ns = tc.sparse * float64(tc.nz)
			}
			c.observe(sparse, rows, tc.nz, ns)
		}
		// The right kernel every time but the explorations (1 in 16) and
		// the first call or two, which measure.
		if min := calls - calls/exploreEvery - 2; picks < min {
			t.Errorf("%s: the %v kernels %d times of %d, want at least %d", tc.name, map[bool]string{true: "sparse", false: "dense"}[tc.wantSparse], picks, calls, min)
		}
	}
	// Settled on the dense kernels, a call lists nothing but when it
	// explores.
	var d kernelChoice
	lists := 0
	for range 320 {
		list, sure := d.plan(in)
		sparse := false
		if list {
			lists++
			sparse = d.choose(rows, in, half, sure)
		}
		d.observe(sparse, rows, half, map[bool]float64{false: 100 * rows, true: 2 * float64(half)}[sparse])
	}
	if lists > 320/exploreEvery+3 {
		t.Errorf("dense kernels cheaper: %d calls of 320 listed their inputs", lists)
	}
	// A change of costs (the machine's load, the network's density) turns
	// the choice around; a call the scheduler interrupted does not.
	var c kernelChoice
	for range 64 {
		s := decide(&c, rows, in, half)
		c.observe(s, rows, half, map[bool]float64{false: 100 * rows, true: 1 * float64(half)}[s])
	}
	if !decide(&c, rows, in, half) && c.calls%exploreEvery != 0 {
		t.Fatal("sparse kernels not chosen at half their cost")
	}
	c.observe(true, rows, half, 1e9)
	if c.sparse > 1.5 {
		t.Fatalf("one interrupted call moved the sparse cost to %v ns a non-zero input", c.sparse)
	}
	for range 64 {
		s := decide(&c, rows, in, half)
		c.observe(s, rows, half, map[bool]float64{false: 100 * rows, true: 4 * float64(half)}[s])
	}
	if c.sparse*float64(half) <= c.dense*rows {
		t.Fatalf("sparse cost %v ns a non-zero input, dense %v a row, after the sparse calls became 4 ns a non-zero input", c.sparse, c.dense)
	}
	sparse := 0
	for range 32 {
		if decide(&c, rows, in, half) {
			sparse++
		}
	}
	if sparse > 2 {
		t.Fatalf("sparse kernels chosen %d times of 32 at twice the dense cost", sparse)
	}
}
