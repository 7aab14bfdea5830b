//go:build !linux

package net

import "time"

// threadCPU returns false: the thread's CPU time is read on Linux only.
func threadCPU() (time.Duration, bool) { return 0, false }

// processCPU returns false: the process's CPU time is read on Linux only.
func processCPU() (time.Duration, bool) { return 0, false }
