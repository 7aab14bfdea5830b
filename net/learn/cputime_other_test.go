//go:build !unix

package learn

// processCPU is not measured here: the benchmarks report no per-CPU figure.
func processCPU() float64 { return 0 }
