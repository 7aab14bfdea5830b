//go:build amd64 && !purego

package net

// softmax16 writes into out the masked softmax of one row of a <= 16
// actions (AVX-512F; see softmax_amd64.s): lg must have 16 readable floats,
// mask and out a.
//
//go:noescape
func softmax16(lg, mask, out *float32, a int)

// softmax16avx2 is softmax16 in AVX2 and FMA (softmax_avx2_amd64.s).
//
//go:noescape
func softmax16avx2(lg, mask, out *float32, a int)
