// Package ops holds the operations of the product: one function per business
// action, shared by every transport (REST, GraphQL, console). Tenancy and
// roles are enforced below, by ent's privacy policies; rules that span records
// live here.
package ops

import (
	"context"
	"fmt"
	"time"

	entgo "entgo.io/ent"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/storage"
)

// Service runs the operations against one database.
type Service struct {
	client  *ent.Client
	now     func() time.Time
	storage *storage.Store
	// afterCommit runs after every committed transaction: it wakes the job
	// runner, since a commit may have made work due (a message, a webhook).
	afterCommit func()
	events      *events.Hub
	// catchUp is how late a schedule may still fire (0: the default).
	catchUp time.Duration
	// authLimits and guard throttle guessed passwords and tokens.
	authLimits AuthLimits
	guard      *authGuard
	// tokens remembers verified access tokens for a few seconds.
	tokens *tokenCache
}

// WithEvents gives the Service the hub it publishes committed changes to.
func WithEvents(h *events.Hub) Option { return func(s *Service) { s.events = h } }

// publishAfterCommit publishes e once the transaction in ctx commits (at
// once when there is none): listeners never see a change that rolls back.
func (s *Service) publishAfterCommit(ctx context.Context, e events.Event) {
	if s.events == nil {
		return
	}
	tx := ent.TxFromContext(ctx)
	if tx == nil {
		s.events.Publish(e)
		return
	}
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Commit(ctx, tx)
			if err == nil {
				s.events.Publish(e)
			}
			return err
		})
	})
}

// WithAfterCommit sets what runs after each committed transaction.
func WithAfterCommit(f func()) Option { return func(s *Service) { s.afterCommit = f } }

// Option configures a Service.
type Option func(*Service)

// WithStorage gives the Service the store that keeps attachments.
func WithStorage(st *storage.Store) Option { return func(s *Service) { s.storage = st } }

// New returns a Service over client.
func New(client *ent.Client, opts ...Option) *Service {
	s := &Service{client: client, now: func() time.Time { return time.Now().UTC() }, authLimits: DefaultAuthLimits}
	for _, o := range opts {
		o(s)
	}
	s.guard = newAuthGuard(s.authLimits, s.now)
	s.tokens = newTokenCache(s.now)
	s.watchCredentials()
	return s
}

// Storage is the attachment store (nil when the Service has none).
func (s *Service) Storage() *storage.Store { return s.storage }

// Client returns the client to use in ctx: the transaction's when one is
// open, so that work inside a transaction never waits on a second connection.
func (s *Service) Client(ctx context.Context) *ent.Client {
	if tx := ent.TxFromContext(ctx); tx != nil {
		return tx.Client()
	}
	return s.client
}

// inTx runs fn in a transaction, or in the one ctx already carries.
func (s *Service) inTx(ctx context.Context, fn func(ctx context.Context, c *ent.Client) error) error {
	if tx := ent.TxFromContext(ctx); tx != nil {
		return fn(ctx, tx.Client())
	}
	tx, err := s.client.Tx(ctx)
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
	if s.afterCommit != nil {
		s.afterCommit()
	}
	return nil
}

// notFound turns ent's not-found into ours, naming the record.
func notFound(err error, what string) error {
	if ent.IsNotFound(err) {
		return apperr.NotFound(what)
	}
	return err
}

// Page is one page of a list and where it stands in the whole.
type Page[T any] struct {
	Items []T
	Total int
	// AtLeast says Total is a lower bound: contact search stops counting
	// (SearchCountWindow).
	AtLeast bool
	Page    int
	HasMore bool
}

// maxPage bounds page numbers: past it every list is empty anyway, and
// (page-1)*size must not overflow into a negative offset.
const maxPage = 1_000_000

// clampPage is page within [1, maxPage].
func clampPage(page int) int { return min(max(page, 1), maxPage) }

func pageOffset(page, size int) int {
	return (clampPage(page) - 1) * size
}

// requireAdmin answers an agent's administrator-only request with 403 before
// any input is examined, by asking the policies' own administrator rule
// (schema.AdministratorsOnly); the policies apply it again on every write.
func requireAdmin(ctx context.Context) error {
	if err := schema.AdministratorsOnly(ctx); err != nil {
		return apperr.From(err)
	}
	return nil
}

// policyAllows asks an entity's privacy policy, before any input is examined
// or any side effect starts, whether the viewer may make mutation m (a
// throwaway mutation that is never saved). The rule lives only in the
// policy; this puts its answer first.
func policyAllows(ctx context.Context, p entgo.Policy, m entgo.Mutation) error {
	if err := p.EvalMutation(ctx, m); err != nil {
		return apperr.From(err)
	}
	return nil
}
