package net

import (
	"fmt"
	"math"
	"os"
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

	nz *nzRows // the non-zero inputs of a layer's rows; nil: dense kernels only
}

// nzRows holds, for each row of a chunk, the indices of its non-zero
// inputs to a layer (nonZeros), for the sparse kernels.
type nzRows struct {
	idx    []uint8  // simdChunk rows of stride bytes
	cnt    []uint32 // simdChunk
	stride int
}

// newNzRows returns room for the non-zero inputs of simdChunk rows of up
// to sparseMax inputs.
func newNzRows() *nzRows {
	st := sparseMax + 8
	return &nzRows{idx: make([]uint8, simdChunk*st), cnt: make([]uint32, simdChunk), stride: st}
}

// A layer's rows go through the sparse kernels when at most sparseShare
// of their inputs are non-zero. Per non-zero input the sparse kernels
// cost 1.2-1.7 times what the dense kernel costs per input (one load per
// fused multiply-add, where the dense kernel reuses each weight vector for
// 6 rows), by the CPU and what else runs on it (BenchmarkSparseLayer), so
// they break even between about 55% and 75% non-zero; in self-play this
// threshold gave a higher and steadier rate than timing both kernels as
// they ran and taking the cheaper (docs/notes/2026-12-05-sparse-kernels.md).
const sparseShare = 0.7

// kernelChoice decides from a layer's share of non-zero inputs (a running
// mean, weight 1/8, of the shares its lists found) whether to list the
// inputs of its next rows: a layer whose inputs are mostly non-zero goes
// to the dense kernels without the listing, which costs a few percent of
// a dense pass, and lists one call in listEvery to follow its share (the
// network's density changes as it trains). The outputs are the same
// either way, bit for bit.
type kernelChoice struct {
	density float64 // 0 before the first list
	calls   uint32
}

// listEvery is how often a layer whose inputs went dense lists them
// anyway, to measure their share.
const listEvery = 64

// plan reports whether to list the inputs of the layer's next rows.
func (c *kernelChoice) plan() bool {
	c.calls++
	return c.density == 0 || c.density <= sparseShare || c.calls%listEvery == 0
}

// choose records the share of listed rows, nz non-zero inputs of rows×in,
// and reports whether they go to the sparse kernels.
func (c *kernelChoice) choose(rows, in, nz int) bool {
	d := float64(nz) / float64(rows*in)
	if c.density == 0 {
		c.density = d
	} else {
		c.density += (d - c.density) / 8
	}
	return d <= sparseShare
}

// sparseMin and sparseMax bound the layer inputs the sparse kernels take:
// nonZeros reads 8 at a time and indexes them in a byte.
const (
	sparseMin = 8
	sparseMax = 256
)

// sparseMinOut is the fewest outputs of a layer with a sparse form: below
// it (the value head's last layer) listing the inputs costs more than the
// sparse kernel saves.
const sparseMinOut = 9

// sparseEnv is the environment variable that turns the sparse kernels off
// ("off"), to compare.
const sparseEnv = "KUMALAK_SPARSE"

// sparseOn is whether new SIMD networks use the sparse kernels.
var sparseOn = os.Getenv(sparseEnv) != "off"

type simdBlock struct{ fc1, fc2 simdLayer }

// simdLayer is one dense layer y = x·w + b, w packed for the kernels of
// one level: the padded columns cut into tiles (segs), and each tile's
// weights stored [in][tile width], one tile after the other.
type simdLayer struct {
	in, out, outPad int
	w, b            []float32
	segs            []simdSeg
	sw              []float32 // w packed for the sparse kernels; nil: too few or too many inputs
	ssegs           []simdSeg
	choice          kernelChoice
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
	if sparseOn && len(k.sparseVecs()) > 0 {
		s.nz = newNzRows()
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
	l.segs = cutTiles(l.outPad/vec, k.tileVecs())
	l.w = packTiles(w.Data, in, out, l.outPad, vec, l.segs)
	if in >= sparseMin && in <= sparseMax && out >= sparseMinOut && len(k.sparseVecs()) > 0 {
		l.ssegs = cutTiles(l.outPad/vec, k.sparseVecs())
		l.sw = packTiles(w.Data, in, out, l.outPad, vec, l.ssegs)
	}
	l.b = alignedFloats(l.outPad)
	copy(l.b, b.Data)
	FlushSubnormals(l.b)
	return l
}

// cutTiles cuts a width of vecs vectors greedily into the widest tiles of
// widths (widest first) that fit.
func cutTiles(vecs int, widths []int) []simdSeg {
	var segs []simdSeg
	for left := vecs; left > 0; {
		for _, c := range widths {
			if c <= left {
				segs = append(segs, simdSeg{c: c, tiles: left / c})
				left -= left / c * c
				break
			}
		}
	}
	return segs
}

// packTiles copies the in×out weights w into tiles of segs (padded width
// outPad, vec floats a vector), each tile [in][tile width], one after the
// other, with their subnormals flushed.
func packTiles(w []float32, in, out, outPad, vec int, segs []simdSeg) []float32 {
	p := alignedFloats(in * outPad)
	pos, j0 := 0, 0
	for _, sg := range segs {
		tw := sg.c * vec
		for range sg.tiles {
			for i := 0; i < in; i++ {
				for j := j0; j < min(j0+tw, out); j++ {
					p[pos+i*tw+j-j0] = w[i*out+j]
				}
			}
			pos += in * tw
			j0 += tw
		}
	}
	FlushSubnormals(p)
	return p
}

// forwardChunk runs len(values) rows (at most simdChunk) of obs, writing
// their policy rows into out as Infer.forward does, and their values.
func (s *simdNet) forwardChunk(c Config, obs, mask []float32, out [][]float32, values []float32) {
	n := len(values)
	wp := padWidth(c.Width)
	h, t, u := s.h[:n*wp], s.t[:n*wp], s.u[:n*wp]
	nz := s.nz
	s.in.apply(s.k, nz, n, obs, c.InputLen, nil, h, true)
	for i := range s.blocks {
		bl := &s.blocks[i]
		bl.fc1.apply(s.k, nz, n, h, wp, nil, t, true)
		bl.fc2.apply(s.k, nz, n, t, wp, h, u, true)
		h, u = u, h
	}
	ap := s.policy.outPad
	// The policy and the value head read the same rows: one list serves
	// both, made when either plans it.
	all := -1
	pList := nz != nil && s.policy.sw != nil && s.policy.choice.plan()
	vList := nz != nil && s.value1.sw != nil && s.value1.choice.plan()
	switch {
	case pList:
		all = s.policy.list(nz, n, h, wp)
	case vList:
		all = s.value1.list(nz, n, h, wp)
	}
	s.policy.applyListed(s.k, nz, all, n, h, wp, nil, s.lg[:n*ap], false)
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
	s.value1.applyListed(s.k, nz, all, n, h, wp, nil, vh, true)
	s.value2.apply(s.k, nz, n, vh, vp, nil, s.v[:n*simdPad], false)
	for r := range values {
		values[r] = float32(math.Tanh(float64(s.v[r*simdPad])))
	}
}

// apply computes y = x·w + b (+ res when res is non-nil) for n rows, then
// reluFlush when relu is set. x has rows of stride xs floats (at least
// l.in used); y and res have rows of l.outPad. The kernels start from the
// bias and the residual themselves, so y is only written. One kernel call
// per run of same-width tiles does all the rows. When nz is not nil and
// the layer has a sparse form, it first lists the rows' non-zero inputs
// (the inputs after a ReLU, and most observations, are mostly zeros), and
// the layer's kernelChoice sends the rows to the sparse kernels or the
// dense ones.
func (l *simdLayer) apply(k kernelLevel, nz *nzRows, n int, x []float32, xs int, res, y []float32, relu bool) {
	all := -1
	if nz != nil && l.sw != nil && l.choice.plan() {
		all = l.list(nz, n, x, xs)
	}
	l.applyListed(k, nz, all, n, x, xs, res, y, relu)
}

// list writes the indices of the non-zero inputs of x's n rows (stride xs
// floats) into nz and returns their number, or -1, listing nothing, when
// nz is nil or the layer has no sparse form.
func (l *simdLayer) list(nz *nzRows, n int, x []float32, xs int) int {
	if nz == nil || l.sw == nil {
		return -1
	}
	_ = x[(n-1)*xs+l.in-1]
	_ = nz.idx[n*nz.stride-1]
	_ = nz.cnt[n-1]
	if nz.stride < l.in+8 {
		panic("net: sparse index rows too short")
	}
	return nonZeros(&x[0], uintptr(xs*4), l.in, n, &nz.idx[0], uintptr(nz.stride), &nz.cnt[0])
}

// applyListed is apply with x's non-zero inputs already in nz, all of
// them (list's result; -1: none listed, so the dense kernels).
func (l *simdLayer) applyListed(k kernelLevel, nz *nzRows, all, n int, x []float32, xs int, res, y []float32, relu bool) {
	sparse := all >= 0 && l.sw != nil && l.choice.choose(n, l.in, all)
	l.run(k, nz, sparse, n, x, xs, res, y, relu)
}

// run is apply on the dense kernels, or on the sparse ones with x's
// non-zero inputs listed in nz.
func (l *simdLayer) run(k kernelLevel, nz *nzRows, sparse bool, n int, x []float32, xs int, res, y []float32, relu bool) {
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
	segs, w := l.segs, l.w
	if sparse {
		segs, w = l.ssegs, l.sw
		_ = nz.idx[n*nz.stride-1]
		_ = nz.cnt[n-1]
	}
	j, wo := 0, 0
	for _, sg := range segs {
		var rp *float32
		if res != nil {
			rp = &res[j]
		}
		if sparse {
			k.sparse(sg.c, &x[0], uintptr(xs*4), &nz.idx[0], uintptr(nz.stride), &nz.cnt[0], &w[wo], l.in, &y[j], uintptr(op*4), &l.b[j], rp, flush, n, sg.tiles)
		} else {
			k.layer(sg.c, &x[0], uintptr(xs*4), &w[wo], l.in, &y[j], uintptr(op*4), &l.b[j], rp, flush, n, sg.tiles)
		}
		j += sg.c * vec * sg.tiles
		wo += l.in * sg.c * vec * sg.tiles
	}
}
