package train

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/klauspost/cpuid/v2"

	"kumalak/net"
)

// Machine describes this computer for model cards and benchmark figures:
// the processor's brand, its logical cores and the network kernel that
// inference runs, e.g. "AMD EPYC (x86-64-v3), 2 cores, avx2 kernels".
func Machine() string {
	brand := strings.TrimSpace(cpuid.CPU.BrandName)
	if brand == "" {
		brand = runtime.GOARCH + " processor"
	}
	k, err := net.Kernel()
	if err != nil {
		k = "portable"
	}
	if lv := cpuid.CPU.X64Level(); lv > 0 {
		brand += fmt.Sprintf(" (x86-64-v%d)", lv)
	}
	return fmt.Sprintf("%s, %d cores, %s kernels", brand, runtime.NumCPU(), k)
}
