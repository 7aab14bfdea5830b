// Command kernelgen writes the amd64 assembly of net's SIMD inference
// kernels (kernel_amd64.s) and their Go declarations and dispatch
// (kernel_decl_amd64.go). Run it from the net folder through go generate:
//
//	go generate ./net
//
// The generated files are committed, so building needs no generation step.
//
// Each kernel writes b + res + x·w into a block of R output rows and C
// vectors of output columns: it starts the R×C accumulators from the bias
// vector b (the same for every row) plus, when res is not nil, the rows of
// res (a residual input laid out like y), then holds them in registers for
// the whole inner loop over the shared dimension (register blocking): per
// step it loads C vectors of one weight row, broadcasts one input of each
// of the R rows and issues R×C fused multiply-adds. Optionally it then
// applies ReLU and the subnormal flush: every output below the flush
// threshold becomes 0. y is only written, never read.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
)

// flushThreshold must equal net.FlushThreshold.
const flushThreshold = 1e-30

// level is one instruction set's kernel family.
type level struct {
	name     string // Go name prefix: k512, k256
	doc      string
	reg      string // vector register prefix: Z, Y
	vecBytes int    // bytes per vector register
	maxC     []int  // largest column block, in vectors, of each row block 1..6
}

// The register budget of a block of R rows and C vectors: R×C accumulators,
// C weight vectors (none for R = 1) and two broadcast registers, within the
// 32 (AVX-512) or 16 (AVX2) vector registers. After the loop the weight and
// broadcast registers hold the threshold and compare results.
var levels = []level{
	{name: "k512", doc: "AVX-512F", reg: "Z", vecBytes: 64, maxC: []int{0, 8, 8, 6, 5, 4, 4}},
	{name: "k256", doc: "AVX2 and FMA", reg: "Y", vecBytes: 32, maxC: []int{0, 8, 4, 3, 2, 2, 2}},
}

func (l level) maxR() int { return len(l.maxC) - 1 }

// rowAddr is the addressing of row r's element relative to a base register,
// with the stride s, 3s and 5s held in registers (scale 1, 2, 4 only).
func rowAddr(off int, base, s, s3, s5 string, r int) string {
	switch r {
	case 0:
		return fmt.Sprintf("%d(%s)", off, base)
	case 1:
		return fmt.Sprintf("%d(%s)(%s*1)", off, base, s)
	case 2:
		return fmt.Sprintf("%d(%s)(%s*2)", off, base, s)
	case 3:
		return fmt.Sprintf("%d(%s)(%s*1)", off, base, s3)
	case 4:
		return fmt.Sprintf("%d(%s)(%s*4)", off, base, s)
	case 5:
		return fmt.Sprintf("%d(%s)(%s*1)", off, base, s5)
	}
	panic("kernelgen: row block above 6")
}

func (l level) kernel(b *bytes.Buffer, rows, cols int) {
	v := func(i int) string { return fmt.Sprintf("%s%d", l.reg, i) }
	acc := func(r, c int) string { return v(r*cols + c) }
	wReg := rows * cols // first weight register
	bReg := [2]int{wReg + cols, wReg + cols + 1}
	if rows == 1 {
		bReg = [2]int{wReg, wReg + 1}
	}
	thrReg, tmpReg := bReg[0], bReg[1] // free after the loop
	if limit := 16 * l.vecBytes / 32; bReg[1] >= limit {
		panic(fmt.Sprintf("kernelgen: %s block %dx%d needs %d vector registers", l.name, rows, cols, bReg[1]+1))
	}
	p := func(format string, args ...any) { fmt.Fprintf(b, "\t"+format+"\n", args...) }
	fmt.Fprintf(b, "\n// func %sr%dc%d(%s)\n", l.name, rows, cols, args)
	fmt.Fprintf(b, "TEXT ·%sr%dc%d(SB), NOSPLIT, $0-80\n", l.name, rows, cols)
	p("MOVQ x+0(FP), SI")
	p("MOVQ xs+8(FP), BX")
	p("MOVQ w+16(FP), DI")
	p("MOVQ ws+24(FP), DX")
	p("MOVQ n+32(FP), CX")
	p("MOVQ y+40(FP), R8")
	p("MOVQ ys+48(FP), R9")
	p("LEAQ (BX)(BX*2), R11")
	p("LEAQ (BX)(BX*4), R12")
	p("LEAQ (R9)(R9*2), R13")
	p("LEAQ (R9)(R9*4), R10")
	yAddr := func(r, c int) string { return rowAddr(c*l.vecBytes, "R8", "R9", "R13", "R10", r) }
	// The accumulators start from the bias (AX), plus the residual rows
	// (AX again, laid out like y) when res is not nil.
	resAddr := func(r, c int) string { return rowAddr(c*l.vecBytes, "AX", "R9", "R13", "R10", r) }
	p("MOVQ b+56(FP), AX")
	for c := 0; c < cols; c++ {
		p("VMOVUPS %d(AX), %s", c*l.vecBytes, acc(0, c))
	}
	for r := 1; r < rows; r++ {
		for c := 0; c < cols; c++ {
			p("VMOVAPS %s, %s", acc(0, c), acc(r, c))
		}
	}
	p("MOVQ res+64(FP), AX")
	p("TESTQ AX, AX")
	p("JZ loop_%sr%dc%d", l.name, rows, cols)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			p("VADDPS %s, %s, %s", resAddr(r, c), acc(r, c), acc(r, c))
		}
	}
	fmt.Fprintf(b, "loop_%sr%dc%d:\n", l.name, rows, cols)
	if rows == 1 {
		bc := v(bReg[0])
		p("VBROADCASTSS (SI), %s", bc)
		for c := 0; c < cols; c++ {
			p("VFMADD231PS %d(DI), %s, %s", c*l.vecBytes, bc, acc(0, c))
		}
	} else {
		for c := 0; c < cols; c++ {
			p("VMOVUPS %d(DI), %s", c*l.vecBytes, v(wReg+c))
		}
		for r := 0; r < rows; r++ {
			bc := v(bReg[r%2])
			p("VBROADCASTSS %s, %s", rowAddr(0, "SI", "BX", "R11", "R12", r), bc)
			for c := 0; c < cols; c++ {
				p("VFMADD231PS %s, %s, %s", v(wReg+c), bc, acc(r, c))
			}
		}
	}
	p("ADDQ $4, SI")
	p("ADDQ DX, DI")
	p("DECQ CX")
	p("JNZ loop_%sr%dc%d", l.name, rows, cols)
	p("MOVQ flush+72(FP), AX")
	p("TESTQ AX, AX")
	p("JZ store_%sr%dc%d", l.name, rows, cols)
	p("MOVL $0x%08x, AX", math.Float32bits(flushThreshold))
	if l.reg == "Z" {
		p("VPBROADCASTD AX, %s", v(thrReg))
	} else {
		// VMOVD, not MOVQ: a legacy-SSE instruction while the upper
		// halves of the accumulators are in use costs hundreds of cycles
		// (an SSE/AVX transition) on AMD Zen 3, a third of a 6×16 block.
		p("VMOVD AX, X%d", thrReg)
		p("VBROADCASTSS X%d, %s", thrReg, v(thrReg))
	}
	// Predicate 0x15 (not less than, unordered true) keeps x >= threshold
	// and NaN, as the portable kernel does.
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if l.reg == "Z" {
				p("VCMPPS $0x15, %s, %s, K1", v(thrReg), acc(r, c))
				p("VMOVAPS.Z %s, K1, %s", acc(r, c), acc(r, c))
			} else {
				p("VCMPPS $0x15, %s, %s, %s", v(thrReg), acc(r, c), v(tmpReg))
				p("VANDPS %s, %s, %s", v(tmpReg), acc(r, c), acc(r, c))
			}
		}
	}
	fmt.Fprintf(b, "store_%sr%dc%d:\n", l.name, rows, cols)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			p("VMOVUPS %s, %s", acc(r, c), yAddr(r, c))
		}
	}
	p("VZEROUPPER")
	p("RET")
}

const header = "// Code generated by net/internal/kernelgen; DO NOT EDIT.\n\n"

const args = "x *float32, xs uintptr, w *float32, ws uintptr, n int, y *float32, ys uintptr, b, res *float32, flush uintptr"

func (l level) decls(b *bytes.Buffer) {
	for r := 1; r <= l.maxR(); r++ {
		for c := 1; c <= l.maxC[r]; c++ {
			fmt.Fprintf(b, "\n//go:noescape\nfunc %sr%dc%d(%s)\n", l.name, r, c, args)
		}
	}
	fmt.Fprintf(b, "\n// %sBlockVecs is the largest column block, in vectors, of each row block.\n", l.name)
	fmt.Fprintf(b, "var %sBlockVecs = [...]int%s\n", l.name, strings.Trim(fmt.Sprintf("%#v", l.maxC), "[]int"))
	fmt.Fprintf(b, "\n// %s runs the %s kernel for a block of r rows (1..%d) and c vectors\n", l.name, l.doc, l.maxR())
	fmt.Fprintf(b, "// of columns (1..%sBlockVecs[r]).\n", l.name)
	fmt.Fprintf(b, "func %s(r, c int, %s) {\n\tswitch r*16 + c {\n", l.name, args)
	for r := 1; r <= l.maxR(); r++ {
		for c := 1; c <= l.maxC[r]; c++ {
			fmt.Fprintf(b, "\tcase %d:\n\t\t%sr%dc%d(x, xs, w, ws, n, y, ys, b, res, flush)\n", r*16+c, l.name, r, c)
		}
	}
	fmt.Fprintf(b, "\tdefault:\n\t\tpanic(\"net: %s: no kernel for this block\")\n\t}\n}\n", l.name)
}

// generate returns the assembly and the Go declarations.
func generate() (asm, decl []byte) {
	var s, g bytes.Buffer
	s.WriteString(header + "//go:build !purego\n\n#include \"textflag.h\"\n")
	g.WriteString(header + "//go:build !purego\n\npackage net\n")
	for _, l := range levels {
		for r := 1; r <= l.maxR(); r++ {
			for c := 1; c <= l.maxC[r]; c++ {
				l.kernel(&s, r, c)
			}
		}
		l.decls(&g)
	}
	return s.Bytes(), g.Bytes()
}

func main() {
	asmOut := flag.String("asm", "kernel_amd64.s", "assembly output")
	goOut := flag.String("go", "kernel_decl_amd64.go", "Go declarations output")
	flag.Parse()
	asm, decl := generate()
	for _, f := range []struct {
		path string
		b    []byte
	}{{*asmOut, asm}, {*goOut, decl}} {
		if err := os.WriteFile(f.path, f.b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "kernelgen:", err)
			os.Exit(1)
		}
	}
}
