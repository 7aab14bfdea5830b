//go:build !amd64 || purego

package net

// supportedKernels lists the kernel levels of this platform: the portable
// one only.
func supportedKernels() []kernelLevel { return []kernelLevel{kernelPortable} }

func (k kernelLevel) vecFloats() int  { return 8 }
func (k kernelLevel) tileVecs() []int { return []int{1} }

func (k kernelLevel) layer(c int, x *float32, xs uintptr, w *float32, n int, y *float32, ys uintptr, b, res *float32, flush uintptr, rows, tiles int) {
	panic("net: no SIMD kernel on this platform")
}

func (k kernelLevel) sparseVecs() []int { return nil }

func (k kernelLevel) sparse(c int, x *float32, xs uintptr, idx *uint8, is uintptr, cnt *uint32, w *float32, n int, y *float32, ys uintptr, b, res *float32, flush uintptr, rows, tiles int) {
	panic("net: no SIMD kernel on this platform")
}

func nonZeros(x *float32, xs uintptr, n, rows int, idx *uint8, is uintptr, cnt *uint32) int {
	panic("net: no SIMD kernel on this platform")
}

func softmax16(lg, mask, out *float32, a int) { panic("net: no SIMD softmax on this platform") }

func softmax16avx2(lg, mask, out *float32, a int) { panic("net: no SIMD softmax on this platform") }
