//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used (user and system):
// unlike requests per second it does not fall when other work shares the
// machine, so it compares routes measured on a busy machine. It leaves out
// what a PostgreSQL server spends on the process's behalf.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
