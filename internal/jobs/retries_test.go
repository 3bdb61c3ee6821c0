package jobs

import (
	"testing"
	"time"
)

// TestBackoffSpreadsAttemptsOverTheBudget: the default budgets retry for
// about three days, each wait doubling up to the cap, with jitter within
// ±20 %; past the budget there is no further attempt.
func TestBackoffSpreadsAttemptsOverTheBudget(t *testing.T) {
	for _, tc := range []struct {
		name    string
		b       Backoff
		retries int
	}{
		{"messages", DefaultRetries.Messages, 23},
		{"webhooks", DefaultRetries.Webhooks, 22},
		{"automations", DefaultRetries.Automations, 11}, // 5+10+...+320 s, then 10 min four times
		{"no budget", Backoff{First: time.Second, Max: time.Hour}, 0},
		{"budget below the first wait", Backoff{First: time.Minute, Max: time.Hour, Budget: time.Second}, 0},
		{"capped", Backoff{First: time.Second, Max: 4 * time.Second, Budget: 15 * time.Second}, 5}, // 1+2+4+4+4
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.b.Retries(); got != tc.retries {
				t.Fatalf("Retries() = %d, want %d", got, tc.retries)
			}
			var total time.Duration
			for n := 1; n <= tc.retries; n++ {
				w, ok := tc.b.next(n)
				nominal := tc.b.nominal(n)
				if !ok || w < nominal*8/10 || w > nominal*12/10 || nominal > tc.b.Max {
					t.Fatalf("wait after attempt %d: %v, %v (nominal %v)", n, w, ok, nominal)
				}
				total += nominal
			}
			if total > tc.b.Budget {
				t.Errorf("the waits add up to %v, over the budget of %v", total, tc.b.Budget)
			}
			if w, ok := tc.b.next(tc.retries + 1); ok {
				t.Errorf("a wait of %v after the budget is spent", w)
			}
			if tc.b.Budget == 72*time.Hour && total < 60*time.Hour {
				t.Errorf("the default budget retries for %v only", total)
			}
		})
	}
}
