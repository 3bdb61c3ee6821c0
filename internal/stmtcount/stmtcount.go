// Package stmtcount counts the statements ent sends: the statement-count
// tests and the load harness read how many a request costs through it.
package stmtcount

import (
	"context"
	"sync/atomic"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/internal/observe"
)

// Driver counts in N the statements sent through it, in transactions or
// not. With RequestsOnly it counts only those sent on behalf of an HTTP
// request (their context carries a request id), leaving the job runner's
// background work out.
type Driver struct {
	dialect.Driver
	N            *atomic.Int64
	RequestsOnly bool
}

func (d Driver) count(ctx context.Context) {
	if !d.RequestsOnly || observe.RequestID(ctx) != "" {
		d.N.Add(1)
	}
}

func (d Driver) Exec(ctx context.Context, query string, args, v any) error {
	d.count(ctx)
	return d.Driver.Exec(ctx, query, args, v)
}

func (d Driver) Query(ctx context.Context, query string, args, v any) error {
	d.count(ctx)
	return d.Driver.Query(ctx, query, args, v)
}

func (d Driver) Tx(ctx context.Context) (dialect.Tx, error) {
	tx, err := d.Driver.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return countingTx{Tx: tx, d: d}, nil
}

type countingTx struct {
	dialect.Tx
	d Driver
}

func (t countingTx) Exec(ctx context.Context, query string, args, v any) error {
	t.d.count(ctx)
	return t.Tx.Exec(ctx, query, args, v)
}

func (t countingTx) Query(ctx context.Context, query string, args, v any) error {
	t.d.count(ctx)
	return t.Tx.Query(ctx, query, args, v)
}
