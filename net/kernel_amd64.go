//go:build amd64 && !purego

package net

//go:generate go run ./internal/kernelgen

import "golang.org/x/sys/cpu"

// supportedKernels lists the kernel levels this CPU and OS support, from
// the portable one up to the best.
func supportedKernels() []kernelLevel {
	l := []kernelLevel{kernelPortable}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
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
