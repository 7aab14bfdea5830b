//go:build goexperiment.simd && amd64

package net

import (
	"simd/archsimd"
	"testing"
)

// This file holds the measurement behind the choice of assembly over Go
// 1.26's experimental simd/archsimd package for the kernels: the same
// 6-row × 4-vector AVX-512 block written both ways, on one 128×128 layer
// and 48 rows. It builds only with GOEXPERIMENT=simd:
//
//	GOEXPERIMENT=simd go test ./net -run '^$' -bench KernelMeans -benchtime 20000x -cpu 1

// archR6C4 is a 6-row block of k512c4 (without the flush) in archsimd: y[6][64] +=
// x[6][n]·w[n][64], rows of x, w and y of stride xs, ws and ys floats.
func archR6C4(x []float32, xs int, w []float32, ws int, n int, y []float32, ys int) {
	var a [24]archsimd.Float32x16
	for r := 0; r < 6; r++ {
		for c := 0; c < 4; c++ {
			a[r*4+c] = archsimd.LoadFloat32x16Slice(y[r*ys+c*16:])
		}
	}
	a0, a1, a2, a3, a4, a5, a6, a7 := a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
	a8, a9, a10, a11, a12, a13, a14, a15 := a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]
	a16, a17, a18, a19, a20, a21, a22, a23 := a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23]
	for i := 0; i < n; i++ {
		wr := w[i*ws : i*ws+64]
		w0 := archsimd.LoadFloat32x16Slice(wr[0:])
		w1 := archsimd.LoadFloat32x16Slice(wr[16:])
		w2 := archsimd.LoadFloat32x16Slice(wr[32:])
		w3 := archsimd.LoadFloat32x16Slice(wr[48:])
		b := archsimd.BroadcastFloat32x16(x[i])
		a0, a1, a2, a3 = w0.MulAdd(b, a0), w1.MulAdd(b, a1), w2.MulAdd(b, a2), w3.MulAdd(b, a3)
		b = archsimd.BroadcastFloat32x16(x[xs+i])
		a4, a5, a6, a7 = w0.MulAdd(b, a4), w1.MulAdd(b, a5), w2.MulAdd(b, a6), w3.MulAdd(b, a7)
		b = archsimd.BroadcastFloat32x16(x[2*xs+i])
		a8, a9, a10, a11 = w0.MulAdd(b, a8), w1.MulAdd(b, a9), w2.MulAdd(b, a10), w3.MulAdd(b, a11)
		b = archsimd.BroadcastFloat32x16(x[3*xs+i])
		a12, a13, a14, a15 = w0.MulAdd(b, a12), w1.MulAdd(b, a13), w2.MulAdd(b, a14), w3.MulAdd(b, a15)
		b = archsimd.BroadcastFloat32x16(x[4*xs+i])
		a16, a17, a18, a19 = w0.MulAdd(b, a16), w1.MulAdd(b, a17), w2.MulAdd(b, a18), w3.MulAdd(b, a19)
		b = archsimd.BroadcastFloat32x16(x[5*xs+i])
		a20, a21, a22, a23 = w0.MulAdd(b, a20), w1.MulAdd(b, a21), w2.MulAdd(b, a22), w3.MulAdd(b, a23)
	}
	a = [24]archsimd.Float32x16{a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23}
	for r := 0; r < 6; r++ {
		for c := 0; c < 4; c++ {
			a[r*4+c].StoreSlice(y[r*ys+c*16:])
		}
	}
}

func BenchmarkKernelMeans(b *testing.B) {
	const in, out, rows = 128, 128, 48
	x := alignedFloats(rows * in)
	w := alignedFloats(in * out)
	y := alignedFloats(rows * out)
	for i := range x {
		x[i] = float32(i%7) * 0.1
	}
	for i := range w {
		w[i] = float32(i%5) * 0.01
	}
	bias := alignedFloats(out)
	b.Run("asm", func(b *testing.B) {
		for b.Loop() {
			// w read as packed tiles of 64 columns, as the layer kernels take it
			k512c4(&x[0], in*4, &w[0], in, &y[0], out*4, &bias[0], nil, 0, rows, out/64)
		}
		b.ReportMetric(float64(b.N*rows*in*out*2)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
	b.Run("archsimd", func(b *testing.B) {
		for b.Loop() {
			for j := 0; j < out; j += 64 {
				for r := 0; r < rows; r += 6 {
					archR6C4(x[r*in:], in, w[j*in:], 64, in, y[r*out+j:], out)
				}
			}
		}
		b.ReportMetric(float64(b.N*rows*in*out*2)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
}
