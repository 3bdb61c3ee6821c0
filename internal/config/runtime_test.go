package config

import (
	"errors"
	"math"
	"runtime/debug"
	"testing"

	"github.com/KimMachineGun/automemlimit/memlimit"
)

// TestTuneRuntimeLeavesWhatTheEnvironmentSets changes the process's
// collector settings and puts them back.
func TestTuneRuntimeLeavesWhatTheEnvironmentSets(t *testing.T) {
	gc := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(gc)
		debug.SetMemoryLimit(limit)
	})
	container := memlimit.Limit(1 << 30)
	noCgroup := func() (uint64, error) { return 0, errors.New("no cgroup") }
	for _, tc := range []struct {
		name      string
		env       map[string]string
		limit     memlimit.Provider
		want      RuntimeMemory
		gcPercent int
		memLimit  int64
	}{
		{"nothing set, in a container", nil, container, RuntimeMemory{GCPercent: DefaultGCPercent, MemoryLimit: 966367641}, DefaultGCPercent, 966367641},
		{"nothing set, no limit", nil, func() (uint64, error) { return 0, memlimit.ErrNoLimit }, RuntimeMemory{GCPercent: DefaultGCPercent}, DefaultGCPercent, math.MaxInt64},
		{"nothing set, no cgroup", nil, noCgroup, RuntimeMemory{GCPercent: DefaultGCPercent}, DefaultGCPercent, math.MaxInt64},
		{"GOGC set", map[string]string{"GOGC": "100"}, container, RuntimeMemory{MemoryLimit: 966367641}, 100, 966367641},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "2GiB"}, container, RuntimeMemory{GCPercent: DefaultGCPercent}, DefaultGCPercent, math.MaxInt64},
		{"both set", map[string]string{"GOGC": "100", "GOMEMLIMIT": "2GiB"}, container, RuntimeMemory{}, 100, math.MaxInt64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			for k, v := range tc.env {
				t.Setenv(k, v) // automemlimit reads GOMEMLIMIT from the process's environment
			}
			got := TuneRuntime(func(k string) string { return tc.env[k] }, tc.limit)
			if got != tc.want {
				t.Fatalf("TuneRuntime = %+v, want %+v", got, tc.want)
			}
			if p := debug.SetGCPercent(100); p != tc.gcPercent {
				t.Fatalf("GC percent %d, want %d", p, tc.gcPercent)
			}
			if l := debug.SetMemoryLimit(-1); l != tc.memLimit {
				t.Fatalf("memory limit %d, want %d", l, tc.memLimit)
			}
		})
	}
}
