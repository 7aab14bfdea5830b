//go:build amd64 && !purego

package net

//go:generate go run ./internal/kernelgen

import "golang.org/x/sys/cpu"

// supportedKernels lists the kernel levels this CPU and OS support, from
// the portable one up to the best.
func supportedKernels() []kernelLevel {
	l := []kernelLevel{kernelPortable}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasPOPCNT { // nz256 counts with POPCNT
		l = append(l, kernelAVX2)
		if cpu.X86.HasAVX512F {
			l = append(l, kernelAVX512)
		}
	}
	return l
}

// vecFloats is the number of float32 lanes of a level's vector register.
func (k kernelLevel) vecFloats() int {
	if k == kernelAVX512 {
		return 16
	}
	return 8
}

// tileVecs lists the column tiles of a level's layer kernels, in vectors,
// widest first.
func (k kernelLevel) tileVecs() []int {
	if k == kernelAVX512 {
		return k512TileVecs
	}
	return k256TileVecs
}

// layer writes b + res + x·w into rows rows of y over tiles column tiles
// of c vectors (w packed tile by tile, each [n][c vectors]; b one row of
// the tiles' columns, the same for every row; res, when not nil, laid out
// like y) and, when flush is 1, applies reluFlush to it; strides are in
// bytes, n is the shared dimension.
func (k kernelLevel) layer(c int, x *float32, xs uintptr, w *float32, n int, y *float32, ys uintptr, b, res *float32, flush uintptr, rows, tiles int) {
	if k == kernelAVX512 {
		k512(c, x, xs, w, n, y, ys, b, res, flush, rows, tiles)
		return
	}
	k256(c, x, xs, w, n, y, ys, b, res, flush, rows, tiles)
}

// sparseVecs lists the column tiles of a level's sparse kernels, in
// vectors, widest first: none for AVX-512, whose dense kernels were as
// fast at the densities of self-play.
func (k kernelLevel) sparseVecs() []int {
	if k == kernelAVX2 {
		return s256TileVecs
	}
	return nil
}

// sparse is layer over the non-zero inputs only: idx holds each row's
// non-zero indices (is bytes a row, cnt[row] of them, from nonZeros), w is
// packed in the tiles of sparseVecs. The sums are those of layer, bit for
// bit.
func (k kernelLevel) sparse(c int, x *float32, xs uintptr, idx *uint8, is uintptr, cnt *uint32, w *float32, n int, y *float32, ys uintptr, b, res *float32, flush uintptr, rows, tiles int) {
	if k != kernelAVX2 {
		panic("net: no sparse kernels at this level")
	}
	s256(c, x, xs, idx, is, cnt, w, n, y, ys, b, res, flush, rows, tiles)
}

// nonZeros writes the indices of the non-zero entries of each of rows
// rows of x (stride xs bytes, n >= 8 entries) into idx's rows (is >= n+8
// bytes apart) and their count into cnt, and returns the total.
func nonZeros(x *float32, xs uintptr, n, rows int, idx *uint8, is uintptr, cnt *uint32) int {
	return nz256(x, xs, n, rows, idx, is, cnt, &nzLUT[0])
}

// nzLUT is nz256's table: entry m (m < 256) holds the positions of m's set
// bits as bytes, lowest first; entry 256+r (r = 1..7) keeps the top r bits
// of a mask, the new inputs of a row's last, overlapping group of 8.
var nzLUT = func() (t [264]uint64) {
	for m := range 256 {
		k := 0
		for i := range 8 {
			if m&(1<<i) != 0 {
				t[m] |= uint64(i) << (8 * k)
				k++
			}
		}
	}
	for r := 1; r < 8; r++ {
		t[256+r] = 0xff << (8 - r) & 0xff
	}
	return t
}()
