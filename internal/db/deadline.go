package db

import (
	"context"
	"time"
)

// Statement deadlines. A context that can end (context.WithTimeout) makes
// every statement run under it start a goroutine to watch it: database/sql
// for the rows, modernc's SQLite driver to interrupt the step, lib/pq to
// send a cancel. For GraphQL contact(id), two statements, that was about a
// twentieth of the request's CPU (docs/performance.md, thirty-second
// session). A deadline carried as a value costs a clock read a statement:
// a statement, or a transaction, that would start past it fails at once
// with context.DeadlineExceeded, and one already running finishes.

type deadlineKey struct{}

// WithStatementDeadline is ctx whose statements may not start after at. An
// earlier deadline already in ctx stays.
func WithStatementDeadline(ctx context.Context, at time.Time) context.Context {
	if prev, ok := ctx.Value(deadlineKey{}).(time.Time); ok && prev.Before(at) {
		return ctx
	}
	return context.WithValue(ctx, deadlineKey{}, at)
}

// StatementDeadlinePassed is context.DeadlineExceeded when ctx's statement
// deadline has passed, else nil.
func StatementDeadlinePassed(ctx context.Context) error {
	if at, ok := ctx.Value(deadlineKey{}).(time.Time); ok && !time.Now().Before(at) {
		return context.DeadlineExceeded
	}
	return nil
}
