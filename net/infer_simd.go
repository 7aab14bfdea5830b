package net

import (
	"fmt"
	"math"
)

// simdChunk is the most rows the SIMD path takes through the whole network
// at once: a multiple of the row block, small enough that a chunk's
// activations stay in the first cache levels.
const simdChunk = 48

// simdPad is the multiple to which the SIMD path pads every layer's output
// width (one AVX-512 vector), so its kernels see whole vectors only.
const simdPad = 16

// simdNet is the SIMD form of a network: weights [in][outPad] with zero
// padding columns, 64-byte aligned, and activations with padded rows.
type simdNet struct {
	k                      kernelLevel
	softmax16              bool // the policy rows go through softmax16 or softmax16avx2 (at most 16 actions)
	in                     simdLayer
	blocks                 []simdBlock
	policy, value1, value2 simdLayer

	h, t, u []float32 // simdChunk × padded Width
	vh      []float32 // simdChunk × padded ValueHidden
	lg      []float32 // simdChunk × padded Actions
	v       []float32 // simdChunk × simdPad
}

type simdBlock struct{ fc1, fc2 simdLayer }

// simdLayer is one dense layer y = x·w + b, w packed for the kernels of
// one level: the padded columns cut into tiles (segs), and each tile's
// weights stored [in][tile width], one tile after the other.
type simdLayer struct {
	in, out, outPad int
	w, b            []float32
	segs            []simdSeg
}

// simdSeg is a run of tiles of the same width, c vectors.
type simdSeg struct{ c, tiles int }

func padWidth(n int) int { return (n + simdPad - 1) / simdPad * simdPad }

func newSimdNet(p *Params, k kernelLevel) *simdNet {
	c := p.Config
	wp := padWidth(c.Width)
	s := &simdNet{
		k:         k,
		softmax16: c.Actions <= simdPad,
		in:        newSimdLayer(p, k, "in.w", "in.b"),
		policy:    newSimdLayer(p, k, "policy.w", "policy.b"),
		value1:    newSimdLayer(p, k, "value.w1", "value.b1"),
		value2:    newSimdLayer(p, k, "value.w2", "value.b2"),
		h:         alignedFloats(simdChunk * wp),
		t:         alignedFloats(simdChunk * wp),
		u:         alignedFloats(simdChunk * wp),
		vh:        alignedFloats(simdChunk * padWidth(c.ValueHidden)),
		lg:        alignedFloats(simdChunk * padWidth(c.Actions)),
		v:         alignedFloats(simdChunk * simdPad),
	}
	for b := 0; b < c.Blocks; b++ {
		s.blocks = append(s.blocks, simdBlock{
			fc1: newSimdLayer(p, k, fmt.Sprintf("b%d.fc1.w", b), fmt.Sprintf("b%d.fc1.b", b)),
			fc2: newSimdLayer(p, k, fmt.Sprintf("b%d.fc2.w", b), fmt.Sprintf("b%d.fc2.b", b)),
		})
	}
	return s
}

// newSimdLayer copies a layer into the packed layout of level k and
// flushes its subnormal weights. The padded width is cut greedily into the
// widest tiles of k that fit.
func newSimdLayer(p *Params, k kernelLevel, wName, bName string) simdLayer {
	w, b := p.Get(wName), p.Get(bName)
	in, out := w.Shape[0], w.Shape[1]
	l := simdLayer{in: in, out: out, outPad: padWidth(out)}
	vec := k.vecFloats()
	for left := l.outPad / vec; left > 0; {
		for _, c := range k.tileVecs() {
			if c <= left {
				l.segs = append(l.segs, simdSeg{c: c, tiles: left / c})
				left -= left / c * c
				break
			}
		}
	}
	l.w = alignedFloats(in * l.outPad)
	pos, j0 := 0, 0
	for _, sg := range l.segs {
		tw := sg.c * vec
		for range sg.tiles {
			for i := 0; i < in; i++ {
				for j := j0; j < min(j0+tw, out); j++ {
					l.w[pos+i*tw+j-j0] = w.Data[i*out+j]
				}
			}
			pos += in * tw
			j0 += tw
		}
	}
	l.b = alignedFloats(l.outPad)
	copy(l.b, b.Data)
	FlushSubnormals(l.w)
	FlushSubnormals(l.b)
	return l
}

// forwardChunk runs len(values) rows (at most simdChunk) of obs, writing
// their policy rows into out as Infer.forward does, and their values.
func (s *simdNet) forwardChunk(c Config, obs, mask []float32, out [][]float32, values []float32) {
	n := len(values)
	wp := padWidth(c.Width)
	h, t, u := s.h[:n*wp], s.t[:n*wp], s.u[:n*wp]
	s.in.apply(s.k, n, obs, c.InputLen, nil, h, true)
	for i := range s.blocks {
		bl := &s.blocks[i]
		bl.fc1.apply(s.k, n, h, wp, nil, t, true)
		bl.fc2.apply(s.k, n, t, wp, h, u, true)
		h, u = u, h
	}
	ap := s.policy.outPad
	s.policy.apply(s.k, n, h, wp, nil, s.lg[:n*ap], false)
	if s.softmax16 && mask != nil {
		a := c.Actions
		_ = s.lg[n*ap-1]
		_ = mask[n*a-1]
		if s.k == kernelAVX512 {
			for r, o := range out {
				softmax16(&s.lg[r*ap], &mask[r*a], &o[:a][0], a)
			}
		} else {
			for r, o := range out {
				softmax16avx2(&s.lg[r*ap], &mask[r*a], &o[:a][0], a)
			}
		}
	} else {
		writePolicy(s.lg[:n*ap], ap, mask, out)
	}
	vp := s.value1.outPad
	vh := s.vh[:n*vp]
	s.value1.apply(s.k, n, h, wp, nil, vh, true)
	s.value2.apply(s.k, n, vh, vp, nil, s.v[:n*simdPad], false)
	for r := range values {
		values[r] = float32(math.Tanh(float64(s.v[r*simdPad])))
	}
}

// apply computes y = x·w + b (+ res when res is non-nil) for n rows, then
// reluFlush when relu is set. x has rows of stride xs floats (at least
// l.in used); y and res have rows of l.outPad. The kernels start from the
// bias and the residual themselves, so y is only written. One kernel call
// per run of same-width tiles does all the rows.
func (l *simdLayer) apply(k kernelLevel, n int, x []float32, xs int, res, y []float32, relu bool) {
	op := l.outPad
	// The kernels read x rows [0, n) up to l.in, res rows [0, n) and write
	// y rows [0, n): these checks keep them inside the slices.
	_ = x[(n-1)*xs+l.in-1]
	_ = y[n*op-1]
	if res != nil {
		_ = res[n*op-1]
	}
	var flush uintptr
	if relu {
		flush = 1
	}
	vec := k.vecFloats()
	j, wo := 0, 0
	for _, sg := range l.segs {
		var rp *float32
		if res != nil {
			rp = &res[j]
		}
		k.layer(sg.c, &x[0], uintptr(xs*4), &l.w[wo], l.in, &y[j], uintptr(op*4), &l.b[j], rp, flush, n, sg.tiles)
		j += sg.c * vec * sg.tiles
		wo += l.in * sg.c * vec * sg.tiles
	}
}
