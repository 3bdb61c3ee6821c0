package config

import (
	"math"
	"runtime/debug"

	"github.com/KimMachineGun/automemlimit/memlimit"
)

// DefaultGCPercent is the collector's target when GOGC is unset: the heap
// may grow to four times what is live between collections, where Go's own
// default is two. A server's live heap is small (about 10 MB) and each
// request allocates 20-40 kB, so with Go's default it collected dozens of
// times a second under load. With this, most hot routes answered more
// requests a second and a schedule burst was sent sooner, for about a third
// more memory under load (docs/performance.md, fifteenth session). An idle
// server allocates next to nothing, so its memory is not larger.
const DefaultGCPercent = 300

// memoryLimitShare is the share of a container's memory limit the runtime's
// soft limit takes when GOMEMLIMIT is unset: near it the collector runs
// more often, so the larger target never takes the process past the
// container's limit.
const memoryLimitShare = 0.9

// RuntimeMemory is what TuneRuntime set (zero: left to the environment or
// to Go's default).
type RuntimeMemory struct {
	GCPercent   int
	MemoryLimit int64
}

// TuneRuntime sets the collector's target (DefaultGCPercent) where GOGC is
// unset, and a soft memory limit of memoryLimitShare of what limit reports
// (memlimit.FromCgroup in the binary: the container's limit) where
// GOMEMLIMIT is unset. The runtime itself reads both variables at start;
// automemlimit finds the process's own cgroup, v1 or v2, and reads
// GOMEMLIMIT (and its own AUTOMEMLIMIT, a ratio or "off") itself.
func TuneRuntime(getenv func(string) string, limit memlimit.Provider) RuntimeMemory {
	var set RuntimeMemory
	if getenv("GOGC") == "" {
		debug.SetGCPercent(DefaultGCPercent)
		set.GCPercent = DefaultGCPercent
	}
	before := debug.SetMemoryLimit(-1)
	// An error (no cgroup, as outside a container) leaves the limit as it was.
	if n, err := memlimit.Set(memlimit.WithRatio(memoryLimitShare), memlimit.WithProvider(limit)); err == nil && n != before && n != math.MaxInt64 {
		set.MemoryLimit = n
	}
	return set
}
