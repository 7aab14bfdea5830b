// Command kernelgen writes the amd64 assembly of net's SIMD inference
// kernels (kernel_amd64.s) and their Go declarations and dispatch
// (kernel_decl_amd64.go). Run it from the net folder through go generate:
//
//	go generate ./net
//
// The generated files are committed, so building needs no generation step.
//
// Each kernel computes one dense layer, y = b + res + x·w for rows rows of
// x, over tiles column tiles of C vectors, with the weights packed once at
// load tile by tile ([tile][n][C vectors], so a tile's weights are one
// contiguous run that stays in the first-level cache while every row of
// the batch passes it). For each tile it takes the rows in register blocks
// of 6 and one block of the remainder: it starts the R×C accumulators from
// the bias vector b (the same for every row) plus, when res is not nil, the
// rows of res (a residual input laid out like y), then holds them in
// registers for the whole inner loop over the shared dimension (register
// blocking; unrolled twice): per step it loads C vectors of one weight row,
// broadcasts one input of each of the R rows and issues R×C fused
// multiply-adds. Optionally it then applies ReLU and the subnormal flush:
// every output below the flush threshold becomes 0. y is only written,
// never read. The loops over tiles and rows are in the assembly too, so a
// layer is one call.
//
// The sparse kernels (sparseLayer, AVX2 only) compute the same layer over
// each row's non-zero inputs only, listed by nz256 (nz), with the same sums
// bit for bit. With AVX-512 they were no faster than the dense kernels at
// the densities of self-play (docs/notes/2026-12-05-sparse-kernels.md), so
// that level has none.
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

// maxRows is the tallest register block, in rows of the batch.
const maxRows = 6

// level is one instruction set's kernel family.
type level struct {
	name     string // Go name prefix: k512, k256
	doc      string
	reg      string // vector register prefix: Z, Y
	vecBytes int    // bytes per vector register
	tileVecs []int  // the column tiles, in vectors, one layer kernel each, widest first
	sparse   []int  // the column tiles of the sparse kernels, in vectors, widest first
}

// The register budget of a block of 6 rows and C vectors: 6×C
// accumulators, C weight vectors and two broadcast registers, within the
// 32 (AVX-512) or 16 (AVX2) vector registers: C = 4 (30) and C = 2 (16).
// After the loop the weight and broadcast registers hold the threshold and
// compare results.
var levels = []level{
	{name: "k512", doc: "AVX-512F", reg: "Z", vecBytes: 64, tileVecs: []int{4, 2, 1}},
	{name: "k256", doc: "AVX2 and FMA", reg: "Y", vecBytes: 32, tileVecs: []int{2}, sparse: []int{8, 4, 2}},
}

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

// The general registers of a layer kernel:
//
//	SI  x, the current row block     BX, R11, R12  x's stride ×1, ×3, ×5
//	R8  y, the current row block     R9, R13, R10  y's stride ×1, ×3, ×5
//	R14 res, the current row block (0: none)
//	DX  the current tile's packed weights, DI walking them, CX the count
//	AX  x walking the shared dimension in the loop; a scratch register
//
// The arguments b, y, res and tiles are advanced in their slots, tile by
// tile; left-8(SP) counts the rows of the tile still to do.

// layer writes the kernel of one column tile width: all the tiles of a
// layer, and for each all the rows in blocks of 6 and one remainder block.
func (l level) layer(b *bytes.Buffer, cols int) {
	name := fmt.Sprintf("%sc%d", l.name, cols)
	tb := cols * l.vecBytes // bytes of one packed weight row of a tile
	p := func(format string, args ...any) { fmt.Fprintf(b, "\t"+format+"\n", args...) }
	label := func(s string) { fmt.Fprintf(b, "%s_%s:\n", name, s) }
	fmt.Fprintf(b, "\n// func %s(%s)\n", name, args)
	fmt.Fprintf(b, "TEXT ·%s(SB), NOSPLIT, $8-88\n", name)
	p("MOVQ xs+8(FP), BX")
	p("MOVQ w+16(FP), DX")
	p("MOVQ ys+40(FP), R9")
	p("LEAQ (BX)(BX*2), R11")
	p("LEAQ (BX)(BX*4), R12")
	p("LEAQ (R9)(R9*2), R13")
	p("LEAQ (R9)(R9*4), R10")
	label("tile")
	p("MOVQ x+0(FP), SI")
	p("MOVQ y+32(FP), R8")
	p("MOVQ res+56(FP), R14")
	p("MOVQ rows+72(FP), AX")
	p("MOVQ AX, left-8(SP)")
	label("next")
	p("MOVQ left-8(SP), AX")
	p("CMPQ AX, $%d", maxRows)
	p("JGE %s_r%d", name, maxRows)
	for r := 1; r < maxRows; r++ {
		p("CMPQ AX, $%d", r)
		p("JEQ %s_r%d", name, r)
	}
	p("JMP %s_end", name)
	for r := maxRows; r >= 1; r-- {
		label(fmt.Sprintf("r%d", r))
		l.block(b, name, r, cols, tb)
		if r == maxRows {
			p("SUBQ $%d, left-8(SP)", maxRows)
			p("LEAQ (SI)(R11*2), SI")
			p("LEAQ (R8)(R13*2), R8")
			p("TESTQ R14, R14")
			p("JZ %s_next", name)
			p("LEAQ (R14)(R13*2), R14")
			p("JMP %s_next", name)
		} else {
			p("JMP %s_end", name)
		}
	}
	label("end")
	p("MOVQ n+24(FP), AX")
	p("IMULQ $%d, AX", tb)
	p("ADDQ AX, DX")
	p("ADDQ $%d, y+32(FP)", tb)
	p("ADDQ $%d, b+48(FP)", tb)
	p("MOVQ res+56(FP), AX")
	p("TESTQ AX, AX")
	p("JZ %s_nores", name)
	p("ADDQ $%d, res+56(FP)", tb)
	label("nores")
	p("DECQ tiles+80(FP)")
	p("JNZ %s_tile", name)
	p("VZEROUPPER")
	p("RET")
}

// block writes one register block of rows × cols: the accumulators start
// from the bias (and the residual), the loop over the shared dimension is
// unrolled twice, then the optional ReLU and flush, and the stores.
func (l level) block(b *bytes.Buffer, name string, rows, cols, tb int) {
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
	pre := fmt.Sprintf("%s_r%d", name, rows)
	label := func(s string) { fmt.Fprintf(b, "%s_%s:\n", pre, s) }
	p("MOVQ b+48(FP), AX")
	for c := 0; c < cols; c++ {
		p("VMOVUPS %d(AX), %s", c*l.vecBytes, acc(0, c))
	}
	for r := 1; r < rows; r++ {
		for c := 0; c < cols; c++ {
			p("VMOVAPS %s, %s", acc(0, c), acc(r, c))
		}
	}
	p("TESTQ R14, R14")
	p("JZ %s_init", pre)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			p("VADDPS %s, %s, %s", rowAddr(c*l.vecBytes, "R14", "R9", "R13", "R10", r), acc(r, c), acc(r, c))
		}
	}
	label("init")
	p("MOVQ SI, AX")
	p("MOVQ DX, DI")
	p("MOVQ n+24(FP), CX")
	// step is one k of the loop: the weights of row k of the tile at
	// k·tb(DI), input k of each row at 4k(AX).
	step := func(k int) {
		if rows == 1 {
			bc := v(bReg[0])
			p("VBROADCASTSS %d(AX), %s", 4*k, bc)
			for c := 0; c < cols; c++ {
				p("VFMADD231PS %d(DI), %s, %s", k*tb+c*l.vecBytes, bc, acc(0, c))
			}
			return
		}
		for c := 0; c < cols; c++ {
			p("VMOVUPS %d(DI), %s", k*tb+c*l.vecBytes, v(wReg+c))
		}
		for r := 0; r < rows; r++ {
			bc := v(bReg[r%2])
			p("VBROADCASTSS %s, %s", rowAddr(4*k, "AX", "BX", "R11", "R12", r), bc)
			for c := 0; c < cols; c++ {
				p("VFMADD231PS %s, %s, %s", v(wReg+c), bc, acc(r, c))
			}
		}
	}
	// An odd count does one step first; then pairs.
	p("TESTQ $1, CX")
	p("JZ %s_even", pre)
	step(0)
	p("ADDQ $4, AX")
	p("ADDQ $%d, DI", tb)
	label("even")
	p("SHRQ $1, CX")
	p("JZ %s_done", pre)
	p("PCALIGN $32")
	label("loop")
	step(0)
	step(1)
	p("ADDQ $8, AX")
	p("ADDQ $%d, DI", 2*tb)
	p("DECQ CX")
	p("JNZ %s_loop", pre)
	label("done")
	var accs []string
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			accs = append(accs, acc(r, c))
		}
	}
	l.flush(b, "flush+64(FP)", pre+"_store", thrReg, tmpReg, accs)
	label("store")
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			p("VMOVUPS %s, %s", acc(r, c), rowAddr(c*l.vecBytes, "R8", "R9", "R13", "R10", r))
		}
	}
}

// flush writes the optional ReLU and subnormal flush of the accumulators:
// when the argument flag is 0 it jumps to skip; otherwise every
// accumulator below the threshold becomes 0. Vector registers thr and tmp
// are free for it; AX is scratch.
func (l level) flush(b *bytes.Buffer, flag, skip string, thr, tmp int, accs []string) {
	v := func(i int) string { return fmt.Sprintf("%s%d", l.reg, i) }
	p := func(format string, args ...any) { fmt.Fprintf(b, "\t"+format+"\n", args...) }
	p("MOVQ %s, AX", flag)
	p("TESTQ AX, AX")
	p("JZ %s", skip)
	p("MOVL $0x%08x, AX", math.Float32bits(flushThreshold))
	if l.reg == "Z" {
		p("VPBROADCASTD AX, %s", v(thr))
	} else {
		// VMOVD, not MOVQ: a legacy-SSE instruction while the upper
		// halves of the accumulators are in use costs hundreds of cycles
		// (an SSE/AVX transition) on AMD Zen 3, a third of a 6×16 block.
		p("VMOVD AX, X%d", thr)
		p("VBROADCASTSS X%d, %s", thr, v(thr))
	}
	// Predicate 0x15 (not less than, unordered true) keeps x >= threshold
	// and NaN, as the portable kernel does.
	for _, a := range accs {
		if l.reg == "Z" {
			p("VCMPPS $0x15, %s, %s, K1", v(thr), a)
			p("VMOVAPS.Z %s, K1, %s", a, a)
		} else {
			p("VCMPPS $0x15, %s, %s, %s", v(thr), a, v(tmp))
			p("VANDPS %s, %s, %s", v(tmp), a, a)
		}
	}
}

// The sparse kernels compute the same layer as the dense ones, y = b + res
// + x·w for rows rows, but each row only over its non-zero inputs: the
// indices of those, in increasing order, are idx's row (is bytes a row,
// cnt[row] of them), written by nz256. The weights are packed tile by tile
// as for the dense kernels, here in tiles of up to 8 vectors (8 independent
// accumulator chains keep both FMA units busy). A row's accumulators start
// from b (and res) and take one fused multiply-add per non-zero input, in
// the order the dense kernel takes them, so the sums are the same bit for
// bit: a dense step with a zero input adds an exact zero. Per non-zero input
// the kernel loads its index, broadcasts the input and issues C FMAs with
// the weight row as memory operand; the loop is unrolled twice.
//
// General registers:
//
//	SI  x, the current row           BX  x's stride
//	R8  y, the current row           R9  y's stride
//	R14 res, the current row (0: none)
//	R11 idx, the current row         R12 idx's stride
//	R10 cnt, the current row         R13 rows left in the tile
//	DX  the current tile's weights   DI  walking idx, CX the count
//	AX  an input's index, then its weight row's offset; scratch
func (l level) sparseLayer(b *bytes.Buffer, cols int) {
	name := fmt.Sprintf("s%sc%d", l.name[1:], cols)
	p := func(format string, args ...any) { fmt.Fprintf(b, "\t"+format+"\n", args...) }
	v := func(i int) string { return fmt.Sprintf("%s%d", l.reg, i) }
	tb := cols * l.vecBytes
	shift := 0 // an input's weight row is tb = 1<<shift bytes
	for 1<<shift < tb {
		shift++
	}
	if 1<<shift != tb {
		panic("kernelgen: sparse tile width not a power of two")
	}
	scale := func(r string) { p("SHLQ $%d, %s", shift, r) }
	bc := [2]int{cols, cols + 1}
	if limit := 16 * l.vecBytes / 32; bc[1] >= limit {
		panic(fmt.Sprintf("kernelgen: %s sparse tile %d needs %d vector registers", l.name, cols, bc[1]+1))
	}
	label := func(s string) { fmt.Fprintf(b, "%s_%s:\n", name, s) }
	fmt.Fprintf(b, "\n// func %s(%s)\n", name, sparseArgs)
	fmt.Fprintf(b, "TEXT ·%s(SB), NOSPLIT, $0-112\n", name)
	p("MOVQ xs+8(FP), BX")
	p("MOVQ is+24(FP), R12")
	p("MOVQ w+40(FP), DX")
	p("MOVQ ys+64(FP), R9")
	label("tile")
	p("MOVQ x+0(FP), SI")
	p("MOVQ idx+16(FP), R11")
	p("MOVQ cnt+32(FP), R10")
	p("MOVQ y+56(FP), R8")
	p("MOVQ res+80(FP), R14")
	p("MOVQ rows+96(FP), R13")
	label("row")
	p("MOVQ b+72(FP), AX")
	for c := 0; c < cols; c++ {
		p("VMOVUPS %d(AX), %s", c*l.vecBytes, v(c))
	}
	p("TESTQ R14, R14")
	p("JZ %s_init", name)
	for c := 0; c < cols; c++ {
		p("VADDPS %d(R14), %s, %s", c*l.vecBytes, v(c), v(c))
	}
	label("init")
	p("MOVL (R10), CX")
	p("MOVQ R11, DI")
	step := func(k int, r int) {
		p("MOVBQZX %d(DI), AX", k)
		p("VBROADCASTSS (SI)(AX*4), %s", v(r))
		scale("AX")
		for c := 0; c < cols; c++ {
			p("VFMADD231PS %d(DX)(AX*1), %s, %s", c*l.vecBytes, v(r), v(c))
		}
	}
	p("TESTQ $1, CX")
	p("JZ %s_even", name)
	step(0, bc[0])
	p("INCQ DI")
	label("even")
	p("SHRQ $1, CX")
	p("JZ %s_done", name)
	p("PCALIGN $32")
	label("loop")
	step(0, bc[0])
	step(1, bc[1])
	p("ADDQ $2, DI")
	p("DECQ CX")
	p("JNZ %s_loop", name)
	label("done")
	accs := make([]string, cols)
	for c := range accs {
		accs[c] = v(c)
	}
	l.flush(b, "flush+88(FP)", name+"_store", bc[0], bc[1], accs)
	label("store")
	for c := 0; c < cols; c++ {
		p("VMOVUPS %s, %d(R8)", v(c), c*l.vecBytes)
	}
	p("ADDQ BX, SI")
	p("ADDQ R9, R8")
	p("ADDQ R12, R11")
	p("ADDQ $4, R10")
	p("TESTQ R14, R14")
	p("JZ %s_rownext", name)
	p("ADDQ R9, R14")
	label("rownext")
	p("DECQ R13")
	p("JNZ %s_row", name)
	p("MOVQ n+48(FP), AX")
	scale("AX")
	p("ADDQ AX, DX")
	p("ADDQ $%d, y+56(FP)", tb)
	p("ADDQ $%d, b+72(FP)", tb)
	p("MOVQ res+80(FP), AX")
	p("TESTQ AX, AX")
	p("JZ %s_nores", name)
	p("ADDQ $%d, res+80(FP)", tb)
	label("nores")
	p("DECQ tiles+104(FP)")
	p("JNZ %s_tile", name)
	p("VZEROUPPER")
	p("RET")
}

// nz writes nz256: for each of rows rows of x (n inputs, n >= 8) the
// indices of its non-zero inputs, in increasing order, into idx's row (is
// bytes apart, at least n+8 long: each group writes 8 bytes) and their
// number into cnt; it returns their sum over the rows. Eight inputs at a
// time: one compare against zero (NaN counts as non-zero) gives an 8-bit
// mask, and lut[mask] holds the set bits' positions as packed bytes, to
// which the group's first index is added in every byte; the count grows
// by the mask's popcount. The last n mod 8 inputs come from one load of
// the row's last 8 floats, whose mask lut[256+n mod 8] cuts to the new
// ones, so no load reads past the row. AVX2 only: it serves both levels.
//
// General registers: SI x's row, BX x's stride, DI idx's row, R9 is, R10
// cnt, R11 lut, R12 rows left, R13 the sum, AX walking the row, DX a mask,
// CX the row's count, R8 the groups left, R14 n mod 8. Vectors: Y0 zero,
// X3 the group's first index in each byte, X4 8 in each byte.
func nz(b *bytes.Buffer) {
	p := func(format string, args ...any) { fmt.Fprintf(b, "\t"+format+"\n", args...) }
	label := func(s string) { fmt.Fprintf(b, "nz256_%s:\n", s) }
	fmt.Fprintf(b, "\n// func nz256(%s) int\n", nzArgs)
	fmt.Fprintf(b, "TEXT ·nz256(SB), NOSPLIT, $0-72\n")
	p("MOVQ x+0(FP), SI")
	p("MOVQ xs+8(FP), BX")
	p("MOVQ rows+24(FP), R12")
	p("MOVQ idx+32(FP), DI")
	p("MOVQ is+40(FP), R9")
	p("MOVQ cnt+48(FP), R10")
	p("MOVQ lut+56(FP), R11")
	p("XORQ R13, R13")
	p("VXORPS Y0, Y0, Y0")
	p("MOVQ $0x08080808, AX")
	p("VMOVD AX, X4")
	p("VPBROADCASTD X4, X4")
	label("row")
	p("MOVQ SI, AX")
	p("XORQ CX, CX")
	p("VPXOR X3, X3, X3")
	p("MOVQ n+16(FP), R8")
	p("SHRQ $3, R8")
	label("group")
	p("VCMPPS $4, (AX), Y0, Y1")
	p("VMOVMSKPS Y1, DX")
	p("VMOVQ (R11)(DX*8), X2")
	p("VPADDB X3, X2, X2")
	p("VMOVQ X2, (DI)(CX*1)")
	p("POPCNTL DX, DX")
	p("ADDQ DX, CX")
	p("VPADDB X4, X3, X3")
	p("ADDQ $32, AX")
	p("DECQ R8")
	p("JNZ nz256_group")
	p("MOVQ n+16(FP), R14")
	p("ANDQ $7, R14")
	p("JZ nz256_rowdone")
	p("LEAQ -32(AX)(R14*4), DX")
	p("VCMPPS $4, (DX), Y0, Y1")
	p("VMOVMSKPS Y1, DX")
	p("ANDQ 2048(R11)(R14*8), DX")
	p("MOVQ n+16(FP), R8")
	p("SUBQ $8, R8")
	p("VMOVQ R8, X2")
	p("VPBROADCASTB X2, X2")
	p("VMOVQ (R11)(DX*8), X5")
	p("VPADDB X2, X5, X5")
	p("VMOVQ X5, (DI)(CX*1)")
	p("POPCNTL DX, DX")
	p("ADDQ DX, CX")
	label("rowdone")
	p("MOVL CX, (R10)")
	p("ADDQ CX, R13")
	p("ADDQ BX, SI")
	p("ADDQ R9, DI")
	p("ADDQ $4, R10")
	p("DECQ R12")
	p("JNZ nz256_row")
	p("MOVQ R13, ret+64(FP)")
	p("VZEROUPPER")
	p("RET")
}

const header = "// Code generated by net/internal/kernelgen; DO NOT EDIT.\n\n"

const args = "x *float32, xs uintptr, w *float32, n int, y *float32, ys uintptr, b, res *float32, flush uintptr, rows, tiles int"

const sparseArgs = "x *float32, xs uintptr, idx *uint8, is uintptr, cnt *uint32, w *float32, n int, y *float32, ys uintptr, b, res *float32, flush uintptr, rows, tiles int"

const nzArgs = "x *float32, xs uintptr, n, rows int, idx *uint8, is uintptr, cnt *uint32, lut *uint64"

func (l level) decls(b *bytes.Buffer) {
	for _, c := range l.tileVecs {
		fmt.Fprintf(b, "\n// %sc%d runs the %s layer kernel on column tiles %d vector(s) wide.\n", l.name, c, l.doc, c)
		fmt.Fprintf(b, "//\n//go:noescape\nfunc %sc%d(%s)\n", l.name, c, args)
	}
	fmt.Fprintf(b, "\n// %sTileVecs are the column tiles of the %s kernels, in vectors.\n", l.name, l.doc)
	fmt.Fprintf(b, "var %sTileVecs = []int%s\n", l.name, strings.Trim(fmt.Sprintf("%#v", l.tileVecs), "[]int"))
	fmt.Fprintf(b, "\n// %s runs the %s kernel of tiles of c vectors.\n", l.name, l.doc)
	fmt.Fprintf(b, "func %s(c int, %s) {\n\tswitch c {\n", l.name, args)
	for _, c := range l.tileVecs {
		fmt.Fprintf(b, "\tcase %d:\n\t\t%sc%d(x, xs, w, n, y, ys, b, res, flush, rows, tiles)\n", c, l.name, c)
	}
	fmt.Fprintf(b, "\tdefault:\n\t\tpanic(\"net: %s: no kernel for this tile\")\n\t}\n}\n", l.name)
	if len(l.sparse) == 0 {
		return
	}
	s := "s" + l.name[1:]
	for _, c := range l.sparse {
		fmt.Fprintf(b, "\n// %sc%d runs the %s sparse layer kernel on column tiles %d vector(s) wide.\n", s, c, l.doc, c)
		fmt.Fprintf(b, "//\n//go:noescape\nfunc %sc%d(%s)\n", s, c, sparseArgs)
	}
	fmt.Fprintf(b, "\n// %sTileVecs are the column tiles of the %s sparse kernels, in vectors.\n", s, l.doc)
	fmt.Fprintf(b, "var %sTileVecs = []int%s\n", s, strings.Trim(fmt.Sprintf("%#v", l.sparse), "[]int"))
	fmt.Fprintf(b, "\n// %s runs the %s sparse kernel of tiles of c vectors.\n", s, l.doc)
	fmt.Fprintf(b, "func %s(c int, %s) {\n\tswitch c {\n", s, sparseArgs)
	for _, c := range l.sparse {
		fmt.Fprintf(b, "\tcase %d:\n\t\t%sc%d(x, xs, idx, is, cnt, w, n, y, ys, b, res, flush, rows, tiles)\n", c, s, c)
	}
	fmt.Fprintf(b, "\tdefault:\n\t\tpanic(\"net: %s: no kernel for this tile\")\n\t}\n}\n", s)
}

// generate returns the assembly and the Go declarations.
func generate() (asm, decl []byte) {
	var s, g bytes.Buffer
	s.WriteString(header + "//go:build !purego\n\n#include \"textflag.h\"\n")
	g.WriteString(header + "//go:build !purego\n\npackage net\n")
	for _, l := range levels {
		for _, c := range l.tileVecs {
			l.layer(&s, c)
		}
		for _, c := range l.sparse {
			l.sparseLayer(&s, c)
		}
		l.decls(&g)
	}
	nz(&s)
	fmt.Fprintf(&g, "\n// nz256 writes the indices of each row's non-zero inputs (AVX2).\n//\n//go:noescape\nfunc nz256(%s) int\n", nzArgs)
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
