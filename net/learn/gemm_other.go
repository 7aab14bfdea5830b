//go:build !amd64 || purego

package learn

// haveGemmKernel is false without the assembly kernel: gorgonia keeps
// gonum's Sgemm.
const haveGemmKernel = false

// gemmKernel runs the micro-kernel (in Go: only tests call it here).
func gemmKernel(k int, a, b []float32, acc *[gemmMR * gemmNR]float32) {
	gemmKernelGo(k, a, b, acc)
}
