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

// blockRows is the largest register block of a level, in rows of the batch.
func (k kernelLevel) blockRows() int { return 6 }

// blockVecs is the largest register block of r rows, in vectors of output
// columns.
func (k kernelLevel) blockVecs(r int) int {
	if k == kernelAVX512 {
		return k512BlockVecs[r]
	}
	return k256BlockVecs[r]
}

// gemm writes b + res + x·w into an r-row, c-vector block of y (b is one
// row of c vectors, the same for every row; res, when not nil, has y's
// layout) and, when flush is 1, applies reluFlush to it; strides are in
// bytes, n is the shared dimension.
func (k kernelLevel) gemm(r, c int, x *float32, xs uintptr, w *float32, ws uintptr, n int, y *float32, ys uintptr, b, res *float32, flush uintptr) {
	if k == kernelAVX512 {
		k512(r, c, x, xs, w, ws, n, y, ys, b, res, flush)
		return
	}
	k256(r, c, x, xs, w, ws, n, y, ys, b, res, flush)
}
