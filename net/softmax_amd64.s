//go:build !purego

#include "textflag.h"

// func softmax16(lg, mask, out *float32, a int)
//
// The masked softmax of one row of a <= 16 actions in AVX-512F, as
// maskedSoftmax computes it: lg has 16 readable floats (a padded logits
// row), mask and out a floats. Lanes past a are neither read from mask nor
// written to out.
TEXT ·softmax16(SB), NOSPLIT, $0-32
	MOVQ lg+0(FP), SI
	MOVQ mask+8(FP), DI
	MOVQ out+16(FP), DX
	MOVQ a+24(FP), CX
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
	KMOVW AX, K1                  // K1: lanes 0..a-1
	VMOVUPS (SI), Z0              // z
	VMOVUPS.Z (DI), K1, Z1        // mask, 0 past a
	VXORPS Z2, Z2, Z2
	VCMPPS $4, Z2, Z1, K1, K2     // K2: legal (mask != 0, NaN included)
	VCMPPS $7, Z0, Z0, K2, K3     // K3: legal and z not NaN
	MOVL $0xff800000, AX
	VPBROADCASTD AX, Z5           // -Inf
	VMOVAPS Z5, Z3
	VMOVAPS Z0, K3, Z3            // z on K3, -Inf elsewhere
	VSHUFF32X4 $0x4e, Z3, Z3, Z4  // max over all lanes, into every lane
	VMAXPS Z4, Z3, Z3
	VSHUFF32X4 $0xb1, Z3, Z3, Z4
	VMAXPS Z4, Z3, Z3
	VPERMILPS $0x4e, Z3, Z4
	VMAXPS Z4, Z3, Z3
	VPERMILPS $0xb1, Z3, Z4
	VMAXPS Z4, Z3, Z3             // top
	VCMPPS $0x0e, Z5, Z3, K4      // top > -Inf
	KORTESTW K4, K4
	JZ   zero
	VSUBPS Z3, Z0, Z6             // d = z - top
	MOVL $0xc2ae999a, AX          // expNegMin, -87.3
	VPBROADCASTD AX, Z7
	VCMPPS $5, Z7, Z6, K2, K5     // K5: legal and !(d < expNegMin)
	MOVL $0x3fb8aa3b, AX          // log2e
	VPBROADCASTD AX, Z8
	VMULPS Z8, Z6, Z9
	VRNDSCALEPS $0, Z9, Z9        // k = round(d·log2e)
	MOVL $0x3f318000, AX          // ln2hi
	VPBROADCASTD AX, Z8
	VFNMADD231PS Z8, Z9, Z6       // r = d - k·ln2hi
	MOVL $0xb95e8083, AX          // ln2lo
	VPBROADCASTD AX, Z8
	VFNMADD231PS Z8, Z9, Z6       //     - k·ln2lo
	MOVL $0x39506967, AX          // 1.9875691500e-4
	VPBROADCASTD AX, Z10
	MOVL $0x3ab743ce, AX          // 1.3981999507e-3
	VPBROADCASTD AX, Z8
	VFMADD213PS Z8, Z6, Z10
	MOVL $0x3c088908, AX          // 8.3334519073e-3
	VPBROADCASTD AX, Z8
	VFMADD213PS Z8, Z6, Z10
	MOVL $0x3d2aa9c1, AX          // 4.1665795894e-2
	VPBROADCASTD AX, Z8
	VFMADD213PS Z8, Z6, Z10
	MOVL $0x3e2aaaaa, AX          // 1.6666665459e-1
	VPBROADCASTD AX, Z8
	VFMADD213PS Z8, Z6, Z10
	MOVL $0x3f000000, AX          // 5.0000001201e-1
	VPBROADCASTD AX, Z8
	VFMADD213PS Z8, Z6, Z10       // y
	VMULPS Z6, Z6, Z11            // r·r
	VFMADD213PS Z6, Z11, Z10      // y·r·r + r
	MOVL $0x3f800000, AX          // 1
	VPBROADCASTD AX, Z12
	VADDPS Z12, Z10, Z10          // e**r
	VSCALEFPS Z9, Z10, Z10        // e**d = e**r · 2**k
	VMOVAPS.Z Z10, K5, Z13        // the terms: 0 where illegal or below expNegMin
	VSHUFF32X4 $0x4e, Z13, Z13, Z4 // sum over all lanes, into every lane
	VADDPS Z4, Z13, Z14
	VSHUFF32X4 $0xb1, Z14, Z14, Z4
	VADDPS Z4, Z14, Z14
	VPERMILPS $0x4e, Z14, Z4
	VADDPS Z4, Z14, Z14
	VPERMILPS $0xb1, Z14, Z4
	VADDPS Z4, Z14, Z14           // sum >= 1 (the top term is 1), or NaN
	VDIVPS Z14, Z12, Z14          // 1 / sum
	VMULPS Z14, Z13, Z13
	VMOVUPS Z13, K1, (DX)
	VZEROUPPER
	RET
zero:
	VMOVUPS Z2, K1, (DX)
	VZEROUPPER
	RET
