//go:build !unix

package train

import "time"

// processCPU returns 0: this system's process CPU time is not read, so the
// per-CPU-second figures are 0.
func processCPU() time.Duration { return 0 }
