// Package throttle limits attempts per key (an e-mail, a client address):
// a token bucket per key (golang.org/x/time/rate) kept in a bounded LRU
// (hashicorp/golang-lru), so memory stays fixed however many keys an
// attacker invents. State is per process: several instances each throttle
// on their own, which multiplies the allowance by the instance count but
// needs no shared store.
package throttle

import (
	"fmt"
	"math"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"golang.org/x/time/rate"
)

// Config is one limit: Burst attempts at once, then one more per Every.
type Config struct {
	Burst int
	Every time.Duration
	// Size caps how many keys are remembered; the least recently used is
	// forgotten first (default 10,000).
	Size int
	// Now is the clock (default time.Now); tests inject their own.
	Now func() time.Time
}

// Limiter counts attempts per key.
type Limiter struct {
	mu    sync.Mutex
	keys  *simplelru.LRU[string, *rate.Limiter]
	limit rate.Limit
	burst int
	now   func() time.Time
}

// New returns a Limiter for cfg.
func New(cfg Config) *Limiter {
	if cfg.Size <= 0 {
		cfg.Size = 10_000
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Burst <= 0 {
		cfg.Burst = 1
	}
	keys, err := simplelru.NewLRU[string, *rate.Limiter](cfg.Size, nil)
	if err != nil {
		panic(err) // only for a size <= 0, excluded above
	}
	return &Limiter{keys: keys, limit: rate.Every(cfg.Every), burst: cfg.Burst, now: cfg.Now}
}

// Wait is how long key must wait before its next attempt (0: it may try
// now). It records nothing and remembers no new key, so callers may ask on
// every request.
func (l *Limiter) Wait(key string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim, ok := l.keys.Peek(key)
	if !ok {
		return 0
	}
	missing := 1 - lim.TokensAt(l.now())
	if missing <= 0 {
		return 0
	}
	return time.Duration(missing / float64(l.limit) * float64(time.Second))
}

// Attempt is one attempt taken from a key's allowance; Refund gives it
// back (a success should not count against the key).
type Attempt struct {
	l   *Limiter
	r   *rate.Reservation
	key string
}

// Take spends one attempt of key. When none is left it spends nothing and
// returns nil and how long to wait. Taking before the check (rather than
// counting failures after it) keeps concurrent guesses within the limit.
func (l *Limiter) Take(key string) (*Attempt, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim, ok := l.keys.Get(key)
	if !ok {
		lim = rate.NewLimiter(l.limit, l.burst)
		// A copy: callers may pass strings that alias a request buffer
		// (Fiber's), which is reused after the request.
		l.keys.Add(strings.Clone(key), lim)
	}
	now := l.now()
	r := lim.ReserveN(now, 1)
	if d := retryAfter(r, now); d > 0 {
		r.CancelAt(now)
		return nil, d
	}
	return &Attempt{l: l, r: r, key: key}, 0
}

// Refund returns the attempt to its key's allowance.
func (a *Attempt) Refund() {
	if a == nil {
		return
	}
	a.r.CancelAt(a.l.now())
}

// Forget drops key: its next attempt starts with a full allowance.
func (l *Limiter) Forget(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.keys.Remove(key)
}

// Len is how many keys are remembered.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.keys.Len()
}

func retryAfter(r *rate.Reservation, now time.Time) time.Duration {
	if !r.OK() {
		return time.Duration(math.MaxInt64)
	}
	return r.DelayFrom(now)
}

// Seconds is a wait as a Retry-After value: whole seconds, at least 1.
func Seconds(d time.Duration) int {
	s := int(math.Ceil(d.Seconds()))
	if s < 1 {
		return 1
	}
	return s
}

// AddressKey is the key of a client address (an IP, or host:port as
// net/http's RemoteAddr has it). IPv6 clients usually hold a whole /64, so
// the prefix is the key; anything unparsable is its own key.
func AddressKey(addr string) string {
	addr = strings.TrimSpace(addr)
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	ip := net.ParseIP(addr)
	if ip == nil {
		return addr
	}
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// WaitText is a wait in words for an error message ("try again in 3
// seconds", "in 2 minutes"), rounded up as Seconds rounds it.
func WaitText(d time.Duration) string {
	s := Seconds(d)
	switch {
	case s == 1:
		return "1 second"
	case s < 60:
		return fmt.Sprintf("%d seconds", s)
	case s < 120:
		return "1 minute"
	}
	return fmt.Sprintf("%d minutes", (s+59)/60)
}
