// Package core is what every domain package of the product shares: the
// database and its transactions, the clock, the attachment store, the one
// notifier, the privacy bypass registry, the error and paging helpers and the
// input caps. It holds no operation of its own.
package core

import (
	"context"
	"fmt"
	"sync"
	"time"

	entgo "entgo.io/ent"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/storage"
)

// Core is the shared state of the domain services over one database.
type Core struct {
	// DB is the root client; inside a transaction use Client(ctx).
	DB *ent.Client
	// Clock is the time every operation reads (tests set it).
	Clock func() time.Time
	// Files keeps attachments (nil when the service has none).
	Files *storage.Store
	// Hub is the live listeners' hub (nil: nobody listens live).
	Hub *events.Hub
	// CatchUp is how late a schedule may still fire (0: the default).
	CatchUp time.Duration
	// PublicURL is where the server is reached (PUBLIC_URL): the base of
	// the callback URLs channels are configured with.
	PublicURL string
	// TakeDisplayID, when set, takes an account's next n conversation
	// display ids (answering the first) in a statement of its own, committed at once, before the
	// transaction that starts the conversation (db.DB.TakeDisplayID; set on
	// PostgreSQL). nil: the id is taken inside that transaction.
	TakeDisplayID func(ctx context.Context, accountID, n int, now time.Time) (int, error)
	// AfterCommit runs after every committed transaction: it wakes the job
	// runner, since a commit may have made work due (a message, a webhook).
	AfterCommit func()
	listeners   []Listener
	// caches are the Caches made over this Core (their metrics), all
	// made while the services are wired, before any request.
	caches []cacheStats
	// pending holds, per open transaction, the live events to publish
	// when it commits.
	pending sync.Map
	// memos holds, per open transaction, what TxMemo loaded.
	memos sync.Map
}

// New returns a Core over client with the wall clock in UTC.
func New(client *ent.Client) *Core {
	return &Core{DB: client, Clock: func() time.Time { return time.Now().UTC() }}
}

// Now is the current time of the Core's clock.
func (c *Core) Now() time.Time { return c.Clock() }

// Storage is the attachment store (nil when the service has none).
func (c *Core) Storage() *storage.Store { return c.Files }

// Client returns the client to use in ctx: the transaction's when one is
// open, so that work inside a transaction never waits on a second connection.
func (c *Core) Client(ctx context.Context) *ent.Client {
	if tx := ent.TxFromContext(ctx); tx != nil {
		return tx.Client()
	}
	return c.DB
}

// InTx runs fn in a transaction, or in the one ctx already carries.
func (c *Core) InTx(ctx context.Context, fn func(ctx context.Context, c *ent.Client) error) error {
	if tx := ent.TxFromContext(ctx); tx != nil {
		return fn(ctx, tx.Client())
	}
	tx, err := c.DB.Tx(ctx)
	if err != nil {
		return fmt.Errorf("starting transaction: %w", err)
	}
	txCtx := ent.NewTxContext(ctx, tx)
	if err := fn(txCtx, tx.Client()); err != nil {
		if rerr := tx.Rollback(); rerr != nil {
			return fmt.Errorf("%w (rollback: %v)", err, rerr)
		}
		return err
	}
	if err := tx.Commit(); err != nil {
		return apperr.From(fmt.Errorf("committing: %w", err))
	}
	if c.AfterCommit != nil {
		c.AfterCommit()
	}
	return nil
}

// Detached is an entity written by InTx(ctx, ...) as its caller may keep
// using it: bound to the database again when that InTx ran a transaction of
// its own (ctx carries none), so that what reads its edges later (GraphQL's
// resolvers) does not query through the closed transaction, which failed
// such a query with an internal error.
func Detached[E any, P interface {
	*E
	Unwrap() P
}](ctx context.Context, v P) (out P) {
	if v == nil || ent.TxFromContext(ctx) != nil {
		return v
	}
	// ent's Unwrap panics on an entity that is not bound to a transaction:
	// one detached already, as an eager-loaded edge that several rows share
	// (the same pointer) is when the second row's edges are detached.
	defer func() {
		if recover() != nil {
			out = v
		}
	}()
	return v.Unwrap()
}

// Written is what an operation answers of an entity v it wrote with
// InTx(ctx, ...) that ended with err: v Detached, or err for the transports.
func Written[E any, P interface {
	*E
	Unwrap() P
}](ctx context.Context, v P, err error) (P, error) {
	if err != nil {
		return nil, apperr.From(err)
	}
	return Detached(ctx, v), nil
}

// NotFound turns ent's not-found into ours, naming the record.
func NotFound(err error, what string) error {
	if ent.IsNotFound(err) {
		return apperr.NotFound(what)
	}
	return err
}

// ApperrOrNil classifies err for the transports, keeping nil nil.
func ApperrOrNil(err error) error {
	if err == nil {
		return nil
	}
	return apperr.From(err)
}

// RequireAdmin answers an agent's administrator-only request with 403 before
// any input is examined, by asking the policies' own administrator rule
// (schema.AdministratorsOnly); the policies apply it again on every write.
func RequireAdmin(ctx context.Context) error {
	if err := schema.AdministratorsOnly(ctx); err != nil {
		return apperr.From(err)
	}
	return nil
}

// PolicyAllows asks an entity's privacy policy, before any input is examined
// or any side effect starts, whether the viewer may make mutation m (a
// throwaway mutation that is never saved). The rule lives only in the
// policy; this puts its answer first.
func PolicyAllows(ctx context.Context, p entgo.Policy, m entgo.Mutation) error {
	if err := p.EvalMutation(ctx, m); err != nil {
		return apperr.From(err)
	}
	return nil
}
