//go:build !purego

#include "textflag.h"

// lanes are the lane numbers 0..15, to compare with a.
DATA lanes<>+0(SB)/4, $0
DATA lanes<>+4(SB)/4, $1
DATA lanes<>+8(SB)/4, $2
DATA lanes<>+12(SB)/4, $3
DATA lanes<>+16(SB)/4, $4
DATA lanes<>+20(SB)/4, $5
DATA lanes<>+24(SB)/4, $6
DATA lanes<>+28(SB)/4, $7
DATA lanes<>+32(SB)/4, $8
DATA lanes<>+36(SB)/4, $9
DATA lanes<>+40(SB)/4, $10
DATA lanes<>+44(SB)/4, $11
DATA lanes<>+48(SB)/4, $12
DATA lanes<>+52(SB)/4, $13
DATA lanes<>+56(SB)/4, $14
DATA lanes<>+60(SB)/4, $15
GLOBL lanes<>(SB), RODATA|NOPTR, $64

// func softmax16avx2(lg, mask, out *float32, a int)
//
// softmax16 in AVX2 and FMA: two 8-lane halves, the lanes past a masked
// off (VMASKMOVPS neither reads mask nor writes out there). Constants go
// through VMOVD, not a legacy-SSE MOVQ (see kernelgen).
TEXT ·softmax16avx2(SB), NOSPLIT, $0-32
	MOVQ lg+0(FP), SI
	MOVQ mask+8(FP), DI
	MOVQ out+16(FP), DX
	MOVQ a+24(FP), CX
	VMOVDQU lanes<>+0(SB), Y0
	VMOVDQU lanes<>+32(SB), Y1
	VMOVD CX, X2
	VPBROADCASTD X2, Y2
	VPCMPGTD Y0, Y2, Y3          // lanes 0..7 below a
	VPCMPGTD Y1, Y2, Y4          // lanes 8..15 below a
	VMASKMOVPS (DI), Y3, Y5      // mask, 0 past a
	VMASKMOVPS 32(DI), Y4, Y6
	VMOVUPS (SI), Y7             // z
	VMOVUPS 32(SI), Y8
	VXORPS Y15, Y15, Y15
	VCMPPS $4, Y15, Y5, Y5       // legal: mask != 0, NaN included
	VCMPPS $4, Y15, Y6, Y6
	VCMPPS $7, Y7, Y7, Y9        // z not NaN
	VANDPS Y5, Y9, Y9
	VCMPPS $7, Y8, Y8, Y10
	VANDPS Y6, Y10, Y10
	MOVL $0xff800000, AX         // -Inf
	VMOVD AX, X13
	VBROADCASTSS X13, Y13
	VBLENDVPS Y9, Y7, Y13, Y9    // z where legal and not NaN, -Inf elsewhere
	VBLENDVPS Y10, Y8, Y13, Y10
	VMAXPS Y10, Y9, Y9           // max over all lanes, into every lane
	VPERM2F128 $0x01, Y9, Y9, Y10
	VMAXPS Y10, Y9, Y9
	VPERMILPS $0x4e, Y9, Y10
	VMAXPS Y10, Y9, Y9
	VPERMILPS $0xb1, Y9, Y10
	VMAXPS Y10, Y9, Y9           // top
	VCMPPS $0x0e, Y13, Y9, Y10   // top > -Inf
	VMOVMSKPS Y10, AX
	TESTL AX, AX
	JZ zero
	VSUBPS Y9, Y7, Y7            // d = z - top
	VSUBPS Y9, Y8, Y8
	MOVL $0xc2ae999a, AX         // expNegMin, -87.3
	VMOVD AX, X9
	VBROADCASTSS X9, Y9
	VCMPPS $5, Y9, Y7, Y10       // legal and !(d < expNegMin)
	VANDPS Y5, Y10, Y5
	VCMPPS $5, Y9, Y8, Y10
	VANDPS Y6, Y10, Y6
	MOVL $0x3fb8aa3b, AX         // log2e
	VMOVD AX, X0
	VBROADCASTSS X0, Y0
	VMULPS Y0, Y7, Y9
	VROUNDPS $0, Y9, Y9          // k = round(d·log2e)
	VMULPS Y0, Y8, Y10
	VROUNDPS $0, Y10, Y10
	MOVL $0x3f318000, AX         // ln2hi
	VMOVD AX, X0
	VBROADCASTSS X0, Y0
	VFNMADD231PS Y0, Y9, Y7      // r = d - k·ln2hi
	VFNMADD231PS Y0, Y10, Y8
	MOVL $0xb95e8083, AX         // ln2lo
	VMOVD AX, X0
	VBROADCASTSS X0, Y0
	VFNMADD231PS Y0, Y9, Y7      //     - k·ln2lo
	VFNMADD231PS Y0, Y10, Y8
	MOVL $0x39506967, AX         // 1.9875691500e-4
	VMOVD AX, X11
	VBROADCASTSS X11, Y11
	VMOVAPS Y11, Y12
	MOVL $0x3ab743ce, AX         // 1.3981999507e-3
	VMOVD AX, X0
	VBROADCASTSS X0, Y0
	VFMADD213PS Y0, Y7, Y11
	VFMADD213PS Y0, Y8, Y12
	MOVL $0x3c088908, AX         // 8.3334519073e-3
	VMOVD AX, X0
	VBROADCASTSS X0, Y0
	VFMADD213PS Y0, Y7, Y11
	VFMADD213PS Y0, Y8, Y12
	MOVL $0x3d2aa9c1, AX         // 4.1665795894e-2
	VMOVD AX, X0
	VBROADCASTSS X0, Y0
	VFMADD213PS Y0, Y7, Y11
	VFMADD213PS Y0, Y8, Y12
	MOVL $0x3e2aaaaa, AX         // 1.6666665459e-1
	VMOVD AX, X0
	VBROADCASTSS X0, Y0
	VFMADD213PS Y0, Y7, Y11
	VFMADD213PS Y0, Y8, Y12
	MOVL $0x3f000000, AX         // 5.0000001201e-1
	VMOVD AX, X0
	VBROADCASTSS X0, Y0
	VFMADD213PS Y0, Y7, Y11
	VFMADD213PS Y0, Y8, Y12      // y
	VMULPS Y7, Y7, Y13           // r·r
	VFMADD213PS Y7, Y13, Y11     // y·r·r + r
	VMULPS Y8, Y8, Y14
	VFMADD213PS Y8, Y14, Y12
	MOVL $0x3f800000, AX         // 1
	VMOVD AX, X0
	VBROADCASTSS X0, Y0
	VADDPS Y0, Y11, Y11          // e**r
	VADDPS Y0, Y12, Y12
	VCVTPS2DQ Y9, Y9             // 2**k from the bits: k >= -126 where it counts
	VCVTPS2DQ Y10, Y10
	MOVL $127, AX
	VMOVD AX, X13
	VPBROADCASTD X13, Y13
	VPADDD Y13, Y9, Y9
	VPADDD Y13, Y10, Y10
	VPSLLD $23, Y9, Y9
	VPSLLD $23, Y10, Y10
	VMULPS Y9, Y11, Y11          // e**d = e**r · 2**k
	VMULPS Y10, Y12, Y12
	VANDPS Y5, Y11, Y11          // the terms: 0 where illegal or below expNegMin
	VANDPS Y6, Y12, Y12
	VADDPS Y12, Y11, Y9          // sum over all lanes, into every lane
	VPERM2F128 $0x01, Y9, Y9, Y10
	VADDPS Y10, Y9, Y9
	VPERMILPS $0x4e, Y9, Y10
	VADDPS Y10, Y9, Y9
	VPERMILPS $0xb1, Y9, Y10
	VADDPS Y10, Y9, Y9           // sum >= 1 (the top term is 1), or NaN
	VDIVPS Y9, Y0, Y9            // 1 / sum
	VMULPS Y9, Y11, Y11
	VMULPS Y9, Y12, Y12
	VMASKMOVPS Y11, Y3, (DX)
	VMASKMOVPS Y12, Y4, 32(DX)
	VZEROUPPER
	RET
zero:
	VMASKMOVPS Y15, Y3, (DX)
	VMASKMOVPS Y15, Y4, 32(DX)
	VZEROUPPER
	RET
