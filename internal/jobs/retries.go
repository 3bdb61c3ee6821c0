package jobs

import (
	"math/rand/v2"
	"time"
)

// Backoff is a retry budget: the wait after the nth failed attempt is
// First·2ⁿ⁻¹, at most Max, with ±20 % jitter (so receivers coming back are
// not hit by every sender at once); attempts stop when the waits would add
// up to more than Budget.
type Backoff struct {
	First, Max, Budget time.Duration
}

// Retries are the retry budgets per kind of job.
type Retries struct {
	Messages Backoff
	Webhooks Backoff
	// Automations is the budget of a kanban automation run that fails on
	// the database: shorter than the deliveries', because a card's later
	// runs wait behind it, and an automation run hours late is of little use.
	Automations Backoff
}

// DefaultRetries spread attempts over about three days, as the trusted
// webhook senders do: an outage of a receiver or a channel for hours loses
// nothing.
var DefaultRetries = Retries{
	Messages: Backoff{First: 5 * time.Second, Max: 6 * time.Hour, Budget: 72 * time.Hour},
	Webhooks: Backoff{First: 10 * time.Second, Max: 6 * time.Hour, Budget: 72 * time.Hour},
	// 5 s, 10 s, ... up to 10 min apart: 11 retries over about 50 minutes.
	Automations: Backoff{First: 5 * time.Second, Max: 10 * time.Minute, Budget: time.Hour},
}

// nominal is the wait after failed attempt n (n ≥ 1), without jitter.
func (b Backoff) nominal(n int) time.Duration {
	w := b.First
	for i := 1; i < n && w < b.Max; i++ {
		w *= 2
	}
	return min(w, b.Max)
}

// Retries is how many retries the budget allows after the first attempt.
func (b Backoff) Retries() int {
	n, total := 0, time.Duration(0)
	for b.First > 0 && b.Max > 0 && total+b.nominal(n+1) <= b.Budget {
		n++
		total += b.nominal(n)
	}
	return n
}

// next returns the wait before the attempt after failed attempt n, and
// false when the budget is spent.
func (b Backoff) next(n int) (time.Duration, bool) {
	if n < 1 || n > b.Retries() {
		return 0, false
	}
	w := b.nominal(n)
	jitter := time.Duration((rand.Float64()*0.4 - 0.2) * float64(w))
	return w + jitter, true
}
