package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/db"
)

// newLogger logs JSON lines (one object per line, for log collectors).
func newLogger(out io.Writer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewJSONHandler(out, &slog.HandlerOptions{Level: level}))
}

const (
	firstRetry = 250 * time.Millisecond
	maxRetry   = 5 * time.Second
)

// waitForDatabase opens the database, retrying with doubling waits for as
// long as wait while it is unreachable (an instance started beside its
// database, or during a database restart). Other errors (a wrong URL or
// password) fail at once: waiting would not fix them.
func waitForDatabase(ctx context.Context, url string, wait time.Duration, open func(string) (*db.DB, error)) (*db.DB, error) {
	deadline := time.Now().Add(wait)
	delay := firstRetry
	for {
		d, err := open(url)
		if err == nil || !apperr.IsOutage(err) {
			return d, err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, fmt.Errorf("database unreachable (waited DATABASE_WAIT=%s): %w", wait, err)
		}
		// The last try is at the deadline itself: a database ready just
		// before it is found, and the wait is the one configured.
		delay = min(delay, left)
		slog.Warn("database unreachable; retrying", "in", delay.String(), "err", err)
		if !core.Sleep(ctx, delay) {
			return nil, fmt.Errorf("stopped while waiting for the database: %w", err)
		}
		delay = min(2*delay, maxRetry)
	}
}
