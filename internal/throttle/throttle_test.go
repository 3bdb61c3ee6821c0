package throttle

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// clock is a settable time for the limiter.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newLimiter(burst int, every time.Duration, size int) (*Limiter, *clock) {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	return New(Config{Burst: burst, Every: every, Size: size, Now: c.now}), c
}

func TestTakeSpendsTheBurstThenRefills(t *testing.T) {
	l, c := newLimiter(3, time.Minute, 0)
	for i := range 3 {
		if a, d := l.Take("k"); a == nil {
			t.Fatalf("attempt %d refused (wait %v)", i+1, d)
		}
	}
	a, d := l.Take("k")
	if a != nil || d != time.Minute {
		t.Fatalf("fourth attempt: got %v, wait %v; want refused for 1m", a, d)
	}
	if w := l.Wait("k"); w != time.Minute {
		t.Fatalf("Wait = %v, want 1m", w)
	}
	if a, _ := l.Take("other"); a == nil {
		t.Fatal("another key is throttled by the first")
	}
	c.add(59 * time.Second)
	if a, d := l.Take("k"); a != nil || d != time.Second {
		t.Fatalf("after 59s: %v, wait %v; want refused for 1s", a, d)
	}
	c.add(time.Second)
	if a, _ := l.Take("k"); a == nil {
		t.Fatal("refilled attempt refused")
	}
}

func TestRefundGivesTheAttemptBack(t *testing.T) {
	l, _ := newLimiter(2, time.Hour, 0)
	for range 10 {
		a, _ := l.Take("k")
		if a == nil {
			t.Fatal("refunded attempts still ran out")
		}
		a.Refund()
	}
	if w := l.Wait("k"); w != 0 {
		t.Fatalf("Wait = %v after refunds, want 0", w)
	}
}

func TestWaitRemembersNothing(t *testing.T) {
	l, _ := newLimiter(1, time.Minute, 0)
	for i := range 100 {
		if w := l.Wait(fmt.Sprint(i)); w != 0 {
			t.Fatalf("unknown key waits %v", w)
		}
	}
	if n := l.Len(); n != 0 {
		t.Fatalf("Wait remembered %d keys", n)
	}
}

func TestForgetResets(t *testing.T) {
	l, _ := newLimiter(1, time.Hour, 0)
	l.Take("k")
	if a, _ := l.Take("k"); a != nil {
		t.Fatal("second attempt allowed")
	}
	l.Forget("k")
	if a, _ := l.Take("k"); a == nil {
		t.Fatal("forgotten key still throttled")
	}
}

// Memory is bounded: past Size keys the least recently used is dropped.
func TestKeysAreBounded(t *testing.T) {
	l, _ := newLimiter(1, time.Hour, 100)
	for i := range 10_000 {
		l.Take(fmt.Sprint("k", i))
	}
	if n := l.Len(); n != 100 {
		t.Fatalf("remembers %d keys, want 100", n)
	}
	if w := l.Wait("k9999"); w == 0 {
		t.Fatal("the most recent key was dropped")
	}
	if w := l.Wait("k0"); w != 0 {
		t.Fatal("the oldest key was kept")
	}
}

// Concurrent attempts never exceed the burst.
func TestConcurrentTakesStayWithinBurst(t *testing.T) {
	l, _ := newLimiter(5, time.Hour, 0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if a, _ := l.Take("k"); a != nil {
				mu.Lock()
				allowed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if allowed != 5 {
		t.Fatalf("%d concurrent attempts allowed, want 5", allowed)
	}
}

func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"203.0.113.7":           "203.0.113.7",
		"::ffff:203.0.113.7":    "203.0.113.7",
		"2001:db8:1:2:3:4:5:6":  "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::1":  "2001:db8:1:2::/64",
		"203.0.113.7:51234":     "203.0.113.7",
		"[2001:db8:1:2::9]:443": "2001:db8:1:2::/64",
		"not an address":        "not an address",
	} {
		if got := AddressKey(in); got != want {
			t.Errorf("AddressKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSeconds(t *testing.T) {
	for d, want := range map[time.Duration]int{0: 1, time.Millisecond: 1, time.Second: 1, 1500 * time.Millisecond: 2, time.Minute: 60} {
		if got := Seconds(d); got != want {
			t.Errorf("Seconds(%v) = %d, want %d", d, got, want)
		}
	}
}
