package learn

import (
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"
)

// The training graph's matrix products go through gorgonia's BLAS door
// (gorgonia.Use), which defaults to gonum's pure-Go Sgemm: SSE dot and
// axpy loops, 72% of a training step's CPU (docs/notes/2026-12-02-training-throughput.md,
// "Where the time goes"). gemmBLAS is gonum's implementation with Sgemm replaced,
// where the CPU has AVX2 and FMA, by a packed, register-blocked product: a
// micro-kernel keeps a 4×16 block of C in eight vector registers over the
// whole shared dimension, from operands packed into contiguous panels
// (zero-padded to whole panels), so every C element is one fused sum in a
// fixed order of k. The blocks are shared among goroutines, each block
// computed whole by one of them, so the result does not depend on
// GOMAXPROCS. Everything else (the float64 routines, gradient checks) stays
// gonum's.
type gemmBLAS struct{ gonum.Implementation }

// useGemm installs gemmBLAS once, when the CPU has the kernel.
var useGemm = sync.OnceFunc(func() {
	if haveGemmKernel {
		G.Use(gemmBLAS{})
	}
})

// Micro-kernel block: gemmMR rows by gemmNR columns of C.
const (
	gemmMR = 4
	gemmNR = 16
)

// gemmParallelWork is the size m·n·k from which the blocks are split among
// goroutines (below it, starting them costs more than it saves).
const gemmParallelWork = 1 << 18

// gemmBufs recycles the packed panels.
var gemmBufs = sync.Pool{New: func() any { return new([]float32) }}

// Sgemm computes C = alpha·op(A)·op(B) + beta·C for row-major matrices,
// op(A) m×k and op(B) k×n, as gonum's does (and through it for the cases it
// leaves to gonum: bad arguments, which gonum panics on, and the products
// with nothing to multiply).
func (g gemmBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	aT, bT := tA == blas.Trans || tA == blas.ConjTrans, tB == blas.Trans || tB == blas.ConjTrans
	if !gemmArgsOK(tA, tB, aT, bT, m, n, k, lda, ldb, ldc, len(a), len(b), len(c)) || alpha == 0 || k == 0 {
		g.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	mp, np := (m+gemmMR-1)/gemmMR, (n+gemmNR-1)/gemmNR
	bufA, bufB := gemmBufs.Get().(*[]float32), gemmBufs.Get().(*[]float32)
	defer gemmBufs.Put(bufA)
	defer gemmBufs.Put(bufB)
	pa, pb := grow(bufA, mp*gemmMR*k), grow(bufB, np*gemmNR*k)
	packA(pa, a, lda, aT, m, k)
	packB(pb, b, ldb, bT, k, n)
	run := func(lo, hi int) { // row panels [lo, hi)
		var acc [gemmMR * gemmNR]float32
		for q := range np {
			panelB := pb[q*gemmNR*k : (q+1)*gemmNR*k]
			c0, c1 := q*gemmNR, min((q+1)*gemmNR, n)
			for p := lo; p < hi; p++ {
				gemmKernel(k, pa[p*gemmMR*k:(p+1)*gemmMR*k], panelB, &acc)
				r0, r1 := p*gemmMR, min((p+1)*gemmMR, m)
				for i := r0; i < r1; i++ {
					row, src := c[i*ldc+c0:i*ldc+c1], acc[(i-r0)*gemmNR:]
					src = src[:len(row)]
					switch {
					case alpha == 1 && beta == 0: // a product (gorgonia's MatMul)
						copy(row, src)
					case alpha == 1 && beta == 1: // a product added to (a gradient)
						for j, x := range src {
							row[j] += x
						}
					case beta == 0:
						for j, x := range src {
							row[j] = alpha * x
						}
					default:
						for j, x := range src {
							row[j] = beta*row[j] + alpha*x
						}
					}
				}
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), mp)
	if workers < 2 || m*n*k < gemmParallelWork {
		run(0, mp)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { run(w*mp/workers, (w+1)*mp/workers) })
	}
	wg.Wait()
}

// gemmArgsOK reports whether Sgemm's arguments are the ordinary ones that
// gemmBLAS computes itself: valid transposes, positive sizes, leading
// dimensions and slices long enough.
func gemmArgsOK(tA, tB blas.Transpose, aT, bT bool, m, n, k, lda, ldb, ldc, la, lb, lc int) bool {
	valid := func(t blas.Transpose) bool { return t == blas.NoTrans || t == blas.Trans || t == blas.ConjTrans }
	if !valid(tA) || !valid(tB) || m <= 0 || n <= 0 || k <= 0 || ldc < n {
		return false
	}
	ra, ca := m, k // A as stored
	if aT {
		ra, ca = k, m
	}
	rb, cb := k, n
	if bT {
		rb, cb = n, k
	}
	return lda >= ca && ldb >= cb && la >= (ra-1)*lda+ca && lb >= (rb-1)*ldb+cb && lc >= (m-1)*ldc+n
}

// grow returns (*buf)[:n], reallocating when it is too short.
func grow(buf *[]float32, n int) []float32 {
	if cap(*buf) < n {
		*buf = make([]float32, n)
	}
	return (*buf)[:n]
}

// packA writes op(A) (m×k) as row panels of gemmMR rows: panel p holds, for
// each l in [0, k), the gemmMR values op(A)[p·MR+i, l], zero beyond row m.
func packA(dst, a []float32, lda int, aT bool, m, k int) {
	for p := 0; p*gemmMR < m; p++ {
		d := dst[p*gemmMR*k : (p+1)*gemmMR*k]
		if r0, w := p*gemmMR, min(gemmMR, m-p*gemmMR); aT && w == gemmMR {
			for l := range k { // op(A)[r0+i, l] = a[l*lda + r0+i]: four in a row
				src, dd := a[l*lda+r0:l*lda+r0+gemmMR], d[l*gemmMR:(l+1)*gemmMR]
				dd[0], dd[1], dd[2], dd[3] = src[0], src[1], src[2], src[3]
			}
			continue
		}
		for i := range gemmMR {
			r := p*gemmMR + i
			if r >= m {
				for l := range k {
					d[l*gemmMR+i] = 0
				}
				continue
			}
			if aT { // op(A)[r, l] = a[l*lda + r]
				for l := range k {
					d[l*gemmMR+i] = a[l*lda+r]
				}
			} else {
				for l, x := range a[r*lda : r*lda+k] {
					d[l*gemmMR+i] = x
				}
			}
		}
	}
}

// packB writes op(B) (k×n) as column panels of gemmNR columns: panel q
// holds, for each l in [0, k), the gemmNR values op(B)[l, q·NR+j], zero
// beyond column n.
func packB(dst, b []float32, ldb int, bT bool, k, n int) {
	for q := 0; q*gemmNR < n; q++ {
		d := dst[q*gemmNR*k : (q+1)*gemmNR*k]
		c0, w := q*gemmNR, min(gemmNR, n-q*gemmNR)
		if bT { // op(B)[l, j] = b[j*ldb + l]
			for j := range gemmNR {
				if j >= w {
					for l := range k {
						d[l*gemmNR+j] = 0
					}
					continue
				}
				for l, x := range b[(c0+j)*ldb : (c0+j)*ldb+k] {
					d[l*gemmNR+j] = x
				}
			}
			continue
		}
		for l := range k {
			row := d[l*gemmNR : (l+1)*gemmNR]
			clear(row[copy(row, b[l*ldb+c0:l*ldb+c0+w]):])
		}
	}
}

// gemmKernelGo is the micro-kernel in Go: acc[i·NR+j] = Σ_l a[l·MR+i]·b[l·NR+j]
// over k packed columns of a row panel a and rows of a column panel b.
func gemmKernelGo(k int, pa, pb []float32, acc *[gemmMR * gemmNR]float32) {
	*acc = [gemmMR * gemmNR]float32{}
	for l := range k {
		ar, br := pa[l*gemmMR:(l+1)*gemmMR], pb[l*gemmNR:(l+1)*gemmNR]
		for i, x := range ar {
			row := acc[i*gemmNR : (i+1)*gemmNR]
			for j, y := range br {
				row[j] += x * y
			}
		}
	}
}
