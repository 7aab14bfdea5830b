//go:build unix

package train

import (
	"syscall"
	"time"
)

// processCPU returns the user and system CPU time of the whole process so
// far, or 0 if the system does not say.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
