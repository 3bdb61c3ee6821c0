package main

import (
	"context"
	"sync/atomic"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/observe"
)

// countingDriver counts the statements ent sends on behalf of HTTP requests
// (their context carries a request id); the job runner's are left out.
type countingDriver struct {
	dialect.Driver
	n *atomic.Int64
}

func (d countingDriver) count(ctx context.Context) {
	if observe.RequestID(ctx) != "" {
		d.n.Add(1)
	}
}

func (d countingDriver) Exec(ctx context.Context, query string, args, v any) error {
	d.count(ctx)
	return d.Driver.Exec(ctx, query, args, v)
}

func (d countingDriver) Query(ctx context.Context, query string, args, v any) error {
	d.count(ctx)
	return d.Driver.Query(ctx, query, args, v)
}

func (d countingDriver) Tx(ctx context.Context) (dialect.Tx, error) {
	tx, err := d.Driver.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return countingTx{Tx: tx, d: d}, nil
}

type countingTx struct {
	dialect.Tx
	d countingDriver
}

func (t countingTx) Exec(ctx context.Context, query string, args, v any) error {
	t.d.count(ctx)
	return t.Tx.Exec(ctx, query, args, v)
}

func (t countingTx) Query(ctx context.Context, query string, args, v any) error {
	t.d.count(ctx)
	return t.Tx.Query(ctx, query, args, v)
}

// discardChannels accepts every outgoing message without sending it.
type discardChannels struct{}

func (discardChannels) Deliver(context.Context, delivery.Job) (string, error) { return "", nil }
