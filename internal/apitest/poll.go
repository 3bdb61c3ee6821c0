package apitest

import (
	"testing"
	"time"
)

// pollEvery is how often Eventually asks again: the condition is a state to
// read (a row, a status), not an event to wait on.
const pollEvery = 20 * time.Millisecond

// Eventually polls cond until it holds, and fails the test when limit
// passes first, naming what it waited for.
func Eventually(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", limit, what)
		}
		time.Sleep(pollEvery)
	}
}
