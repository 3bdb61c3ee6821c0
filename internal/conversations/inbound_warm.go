package conversations

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/core"
)

// WarmInbound stores a new customer's first message through Receive on n
// connections of the pool at once, each in a transaction it rolls back, so
// that each connection has prepared the statements such a message runs
// (db's statement cache keeps them per connection), and PostgreSQL's backend
// has planned their foreign-key checks and loaded their tables and indexes.
// In a burst of first messages that met a cold pool, the first posts paid a
// round trip more for every statement on every connection, and were the
// burst's slowest. The known sender's read of their conversation is warmed
// too. Nothing is kept: no row, no event, no display id (taken inside the
// transaction); only the ids the inserts drew from their sequences are
// skipped, as by any insert rolled back. Without an inbox it does nothing.
// Only for PostgreSQL, with n below the pool's size: SQLite runs one write
// transaction at a time, and n transactions begun together would wait on
// each other.
func (s *Service) WarmInbound(ctx context.Context, n int) error {
	ib, err := s.DB.Inbox.Query().Order(ent.Asc(inbox.FieldID)).First(core.AsWarmUp(ctx))
	if ent.IsNotFound(err) || n <= 0 {
		return nil
	}
	if err != nil {
		return err
	}
	// Every transaction is begun before any runs: each holds its own
	// connection. They then take the account's display-id counter in turn,
	// each releasing it as it rolls back.
	txs := make([]*ent.Tx, 0, n)
	for range n {
		tx, err := s.DB.Tx(ctx)
		if err != nil {
			for _, tx := range txs {
				_ = tx.Rollback()
			}
			return err
		}
		txs = append(txs, tx)
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, tx := range txs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.warmOn(ent.NewTxContext(ctx, tx), tx, ib, i)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// warmOn stores the i-th warm-up message through ib in tx, then rolls tx
// back.
func (s *Service) warmOn(ctx context.Context, tx *ent.Tx, ib *ent.Inbox, i int) error {
	defer tx.Rollback() //nolint:errcheck // rolled back whatever happens
	from := contacts.Sender{SourceID: fmt.Sprintf("warm-up-%d", i), Phone: fmt.Sprintf("+1999000%04d", i), Name: "Warm-up"}
	c := tx.Client()
	if _, err := s.conversationFrom(core.AsChannel(ctx, ib.AccountID), c, ib, sentFrom(ib.ID, from.SourceID), 0); err != nil {
		return err
	}
	_, _, err := s.Receive(ctx, Inbound{Inbox: ib, From: from, SourceID: fmt.Sprintf("warm-up-%d", i), Content: "warm-up"})
	return err
}
