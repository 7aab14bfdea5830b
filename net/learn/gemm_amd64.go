//go:build amd64 && !purego

package learn

import "golang.org/x/sys/cpu"

// haveGemmKernel reports whether the AVX2 and FMA micro-kernel runs here.
var haveGemmKernel = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// gemmKernelAVX2 is gemmKernelGo with AVX2 and FMA: the 4×16 block lives in
// eight YMM registers over the k steps.
//
//go:noescape
func gemmKernelAVX2(k int, a, b *float32, acc *[gemmMR * gemmNR]float32)

// gemmKernel runs the micro-kernel.
// a and b are a row and a column panel of k steps.
func gemmKernel(k int, a, b []float32, acc *[gemmMR * gemmNR]float32) {
	_, _ = a[k*gemmMR-1], b[k*gemmNR-1]
	gemmKernelAVX2(k, &a[0], &b[0], acc)
}
