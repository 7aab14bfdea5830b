//go:build !linux

package net

import "time"

// threadCPU returns false: the thread's CPU time is read on Linux only.
func threadCPU() (time.Duration, bool) { return 0, false }
