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

// TestKernelChoice checks the rule: rows at most sparseShare non-zero go
// to the sparse kernels; a layer whose inputs are mostly non-zero lists
// them only one call in listEvery, and follows a change of its share.
func TestKernelChoice(t *testing.T) {
	const rows, in = 48, 100
	// decide is the choice apply makes for rows with nz non-zero inputs.
	decide := func(c *kernelChoice, nz int) (listed, sparse bool) {
		if !c.plan() {
			return false, false
		}
		return true, c.choose(rows, in, nz)
	}
	var c kernelChoice
	for i := range 200 {
		if listed, sparse := decide(&c, rows*in/2); !listed || !sparse {
			t.Fatalf("50%% non-zero, call %d: listed %v, sparse %v; want both", i, listed, sparse)
		}
	}
	if _, sparse := decide(&c, rows*in*71/100); sparse {
		t.Fatal("71% non-zero went to the sparse kernels")
	}
	// The share turns dense: after a few calls no more lists but one in
	// listEvery, and never the sparse kernels.
	lists := 0
	for i := range 640 {
		listed, sparse := decide(&c, rows*in*9/10)
		if sparse {
			t.Fatalf("90%% non-zero, call %d: sparse kernels", i)
		}
		if listed && i >= 20 {
			lists++
		}
	}
	if lists > 620/listEvery+1 {
		t.Errorf("90%% non-zero: %d of 620 calls listed their inputs, want about 1 in %d", lists, listEvery)
	}
	// And back: within a few lists the layer goes sparse again.
	for range 12 * listEvery {
		decide(&c, rows*in/3)
	}
	if listed, sparse := decide(&c, rows*in/3); !listed || !sparse {
		t.Fatalf("back to a third non-zero: listed %v, sparse %v; want both", listed, sparse)
	}
}
