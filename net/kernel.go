package net

import (
	"fmt"
	"math"
	"os"
	"strings"
	"unsafe"
)

// FlushThreshold is the magnitude below which weights and activations are
// flushed to zero on their way into inference. Multiplying by a subnormal
// float (below about 1.2e-38) is one to two orders of magnitude slower on
// x86 CPUs, and Go cannot switch the CPU's flush-to-zero mode on; values
// this small change no output of a network whose activations are of order
// one, so flushing them costs no accuracy.
const FlushThreshold = 1e-30

// FlushSubnormals sets every entry of x whose magnitude is below
// FlushThreshold (subnormals included) to zero and returns how many
// non-zero entries it changed. NaN and infinities are left alone. Training
// code calls it after each step; NewInfer and Load apply it themselves.
func FlushSubnormals(x []float32) int {
	n := 0
	for i, v := range x {
		if v != 0 && v > -FlushThreshold && v < FlushThreshold {
			x[i] = 0
			n++
		}
	}
	return n
}

// FlushSubnormals flushes every tensor of p (see the function of that name)
// and returns how many entries it changed.
func (p *Params) FlushSubnormals() int {
	n := 0
	for _, t := range p.Tensors {
		n += FlushSubnormals(t.Data)
	}
	return n
}

// kernelLevel names one implementation of the dense layers.
type kernelLevel int

const (
	kernelPortable kernelLevel = iota // plain Go and gonum's level-1 BLAS
	kernelAVX2                        // AVX2 + FMA assembly, register-blocked
	kernelAVX512                      // AVX-512F assembly, register-blocked
)

var kernelNames = [...]string{kernelPortable: "portable", kernelAVX2: "avx2", kernelAVX512: "avx512"}

func (k kernelLevel) String() string { return kernelNames[k] }

// kernelEnv is the environment variable that forces a kernel level.
const kernelEnv = "KUMALAK_KERNEL"

// activeKernel is the level NewInfer uses, chosen once at start-up: the
// best one this CPU supports, unless KUMALAK_KERNEL names another.
var activeKernel, kernelErr = selectKernel(os.Getenv(kernelEnv), supportedKernels())

// selectKernel returns the level named by want ("" = the best supported
// one, the last of supported), or the best one and an error when want is
// unknown or not supported by this CPU.
func selectKernel(want string, supported []kernelLevel) (kernelLevel, error) {
	best := supported[len(supported)-1]
	want = strings.ToLower(strings.TrimSpace(want))
	if want == "" {
		return best, nil
	}
	for _, k := range supported {
		if k.String() == want {
			return k, nil
		}
	}
	for k := range kernelNames {
		if kernelNames[k] == want {
			return best, fmt.Errorf("net: %s=%s: this CPU does not support it, using %s", kernelEnv, want, best)
		}
	}
	return best, fmt.Errorf("net: %s=%q: not one of portable, avx2, avx512; using %s", kernelEnv, want, best)
}

// Kernel returns the name of the inference kernel in use ("portable",
// "avx2" or "avx512") and, when the KUMALAK_KERNEL environment variable
// asked for one that cannot be used, the error saying so.
func Kernel() (string, error) { return activeKernel.String(), kernelErr }

// alignedFloats returns n zeroed float32s starting on a 64-byte boundary,
// so that no vector load of a weight row straddles two cache lines.
func alignedFloats(n int) []float32 {
	s := make([]float32, n+16)
	off := int(uintptr(unsafe.Pointer(&s[0]))%64) / 4
	if off != 0 {
		off = 16 - off
	}
	return s[off : off+n : off+n]
}

// flushBits is FlushThreshold's bits, which order positive float32s as
// integers.
var flushBits = int64(math.Float32bits(FlushThreshold))

// reluFlush sets to zero every entry of x that is below FlushThreshold: the
// negative ones (ReLU) and the positive ones too small to matter (see
// FlushThreshold). NaN is kept. It compares the float bits as integers, so
// it has no branch to mispredict: about half of the entries are negative,
// in no predictable pattern.
func reluFlush(x []float32) {
	thr := flushBits
	for i, v := range x {
		b := math.Float32bits(v)
		keep := int64(int32(b)) - thr // negative for v < FlushThreshold (sign bit set: negative)
		x[i] = math.Float32frombits(b &^ uint32(keep>>63))
	}
}

// KernelName is Kernel's name, followed by the reason in parentheses
// when the environment asked for a kernel that cannot be used.
func KernelName() string {
	k, err := Kernel()
	if err != nil {
		return fmt.Sprintf("%s (%v)", k, err)
	}
	return k
}
