package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"
)

// summary is p50, p99 and max of a sample, in milliseconds.
type summary struct {
	n             int
	p50, p99, max float64
}

func summarize(d []time.Duration) summary {
	if len(d) == 0 {
		return summary{}
	}
	s := slices.Clone(d)
	slices.Sort(s)
	at := func(q float64) float64 {
		i := int(q*float64(len(s))+0.5) - 1
		i = max(0, min(i, len(s)-1))
		return ms(s[i])
	}
	return summary{n: len(s), p50: at(0.50), p99: at(0.99), max: ms(s[len(s)-1])}
}

func (s summary) String() string {
	return fmt.Sprintf("n=%d p50=%s p99=%s max=%s", s.n, fmtMS(s.p50), fmtMS(s.p99), fmtMS(s.max))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func fmtMS(v float64) string {
	if v >= 1000 {
		return fmt.Sprintf("%.2fs", v/1000)
	}
	return fmt.Sprintf("%.1fms", v)
}

// loadavg is /proc/loadavg's first three fields: the machine is shared, so
// every figure is printed beside it.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// cpuMeter measures CPU time used by this process and by the database
// server over an interval.
type cpuMeter struct {
	eng        *engine
	wall       time.Time
	self, serv time.Duration
}

func startCPU(e *engine) cpuMeter {
	return cpuMeter{eng: e, wall: time.Now(), self: selfCPU(), serv: e.serverCPU()}
}

func (m cpuMeter) String() string {
	wall := time.Since(m.wall)
	self, serv := selfCPU()-m.self, m.eng.serverCPU()-m.serv
	cores := func(d time.Duration) float64 { return d.Seconds() / wall.Seconds() }
	s := fmt.Sprintf("cpu trial process %.1fs (%.2f cores)", self.Seconds(), cores(self))
	if m.eng.name == "postgres" {
		s += fmt.Sprintf(", postgres %.1fs (%.2f cores)", serv.Seconds(), cores(serv))
	}
	return s + fmt.Sprintf(" over %.1fs wall", wall.Seconds())
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
