package learn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// gemmRef is op(A)·op(B) in float64, the reference of the products.
func gemmRef(aT, bT bool, m, n, k int, a []float32, lda int, b []float32, ldb int) []float64 {
	out := make([]float64, m*n)
	for i := range m {
		for j := range n {
			s := 0.0
			for l := range k {
				ia, ib := i*lda+l, l*ldb+j
				if aT {
					ia = l*lda + i
				}
				if bT {
					ib = j*ldb + l
				}
				x, y := a[ia], b[ib]
				s += float64(x) * float64(y)
			}
			out[i*n+j] = s
		}
	}
	return out
}

func TestGemmMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	rnd := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(rng.NormFloat64())
		}
		return s
	}
	shapes := []struct{ m, n, k int }{
		{1, 1, 1}, {3, 5, 7}, {4, 16, 1}, {5, 17, 3}, {64, 9, 128}, {96, 1, 64}, {17, 33, 65},
		{100, 128, 40}, // split among goroutines (m·n·k >= gemmParallelWork)
	}
	for _, sh := range shapes {
		for _, tr := range []struct{ a, b blas.Transpose }{
			{blas.NoTrans, blas.NoTrans}, {blas.Trans, blas.NoTrans}, {blas.NoTrans, blas.Trans}, {blas.Trans, blas.Trans},
		} {
			for _, ab := range []struct{ alpha, beta float32 }{{1, 0}, {1, 1}, {-0.5, 0}, {-0.5, 2}} {
				name := fmt.Sprintf("%dx%dx%d/%c%c/a%g_b%g", sh.m, sh.n, sh.k, tr.a, tr.b, ab.alpha, ab.beta)
				t.Run(name, func(t *testing.T) {
					m, n, k := sh.m, sh.n, sh.k
					aT, bT := tr.a == blas.Trans, tr.b == blas.Trans
					lda, ldb, ldc := k+1, n+2, n+3 // padded rows
					ra, rb := m, k
					if aT {
						lda, ra = m+1, k
					}
					if bT {
						ldb, rb = k+2, n
					}
					a, b, c := rnd(ra*lda), rnd(rb*ldb), rnd(m*ldc)
					c0 := append([]float32(nil), c...)
					gemmBLAS{}.Sgemm(tr.a, tr.b, m, n, k, ab.alpha, a, lda, b, ldb, ab.beta, c, ldc)
					want := gemmRef(aT, bT, m, n, k, a, lda, b, ldb)
					for i := range m {
						for j := range ldc {
							got := c[i*ldc+j]
							if j >= n {
								if got != c0[i*ldc+j] {
									t.Fatalf("C[%d,%d] beyond n changed: %v -> %v", i, j, c0[i*ldc+j], got)
								}
								continue
							}
							w := float64(ab.beta)*float64(c0[i*ldc+j]) + float64(ab.alpha)*want[i*n+j]
							if d := math.Abs(float64(got) - w); d > 1e-4*(1+math.Sqrt(float64(k))) {
								t.Fatalf("C[%d,%d] = %v, want %v (diff %g)", i, j, got, w, d)
							}
						}
					}
				})
			}
		}
	}
}

// The cases Sgemm leaves to gonum behave as gonum's: bad arguments panic
// the same, alpha = 0 scales C by beta.
func TestGemmDelegates(t *testing.T) {
	c := []float32{1, 2, 3, 4}
	gemmBLAS{}.Sgemm(blas.NoTrans, blas.NoTrans, 2, 2, 2, 0, []float32{9, 9, 9, 9}, 2, []float32{9, 9, 9, 9}, 2, 0.5, c, 2)
	if c[0] != 0.5 || c[3] != 2 {
		t.Fatalf("alpha 0, beta 0.5: C = %v, want [0.5 1 1.5 2]", c)
	}
	for _, bad := range []func(b blas.Float32){
		func(b blas.Float32) {
			b.Sgemm(blas.NoTrans, blas.NoTrans, 2, 2, 2, 1, make([]float32, 3), 2, make([]float32, 4), 2, 0, make([]float32, 4), 2)
		},
		func(b blas.Float32) {
			b.Sgemm(blas.NoTrans, blas.NoTrans, 2, 2, 2, 1, make([]float32, 4), 1, make([]float32, 4), 2, 0, make([]float32, 4), 2)
		},
		func(b blas.Float32) {
			b.Sgemm('x', blas.NoTrans, 2, 2, 2, 1, make([]float32, 4), 2, make([]float32, 4), 2, 0, make([]float32, 4), 2)
		},
	} {
		want, got := panicOf(func() { bad(gonum.Implementation{}) }), panicOf(func() { bad(gemmBLAS{}) })
		if want == nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("panic %v, want gonum's %v", got, want)
		}
	}
}

func panicOf(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}

// The assembly kernel computes what the Go one does, to rounding.
func TestGemmKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range []int{1, 2, 7, 64, 257} {
		a, b := make([]float32, k*gemmMR), make([]float32, k*gemmNR)
		for i := range a {
			a[i] = float32(rng.NormFloat64())
		}
		for i := range b {
			b[i] = float32(rng.NormFloat64())
		}
		var got, want [gemmMR * gemmNR]float32
		got[0] = 99 // overwritten, not added to
		gemmKernel(k, a, b, &got)
		gemmKernelGo(k, a, b, &want)
		for i := range got {
			if d := math.Abs(float64(got[i] - want[i])); d > 1e-4*math.Sqrt(float64(k)) {
				t.Fatalf("k=%d: acc[%d] = %v, want %v", k, i, got[i], want[i])
			}
		}
	}
}

// Splitting the blocks among goroutines does not change a bit.
func TestGemmSameBitsWhateverGOMAXPROCS(t *testing.T) {
	m, n, k := 256, 128, 100
	rng := rand.New(rand.NewPCG(7, 8))
	a, b := make([]float32, m*k), make([]float32, k*n)
	for i := range a {
		a[i] = float32(rng.NormFloat64())
	}
	for i := range b {
		b[i] = float32(rng.NormFloat64())
	}
	run := func(procs int) []float32 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		c := make([]float32, m*n)
		gemmBLAS{}.Sgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, c, n)
		return c
	}
	one, four := run(1), run(4)
	for i := range one {
		if math.Float32bits(one[i]) != math.Float32bits(four[i]) {
			t.Fatalf("C[%d]: %v with 1 proc, %v with 4", i, one[i], four[i])
		}
	}
}
