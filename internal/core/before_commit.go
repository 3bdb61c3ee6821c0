package core

import (
	"context"
	"fmt"

	"github.com/switchboard/switchboard/ent"
)

// BeforeCommit runs write as the last work of the transaction in ctx, just
// before it commits (at once when there is none). It is for writes that
// lock rows other transactions update too, such as a conversation's last
// activity: PostgreSQL holds a row lock until the commit, so a write made
// first in a long transaction makes every other one that touches the row
// wait for all of it (a burst's firing transactions queued behind each
// other on their conversations). A write that fails rolls the transaction
// back, and the commit answers its error. Reads later in the transaction do
// not see what write will change: callers that answer such rows set the
// values themselves.
func BeforeCommit(ctx context.Context, write func() error) error {
	tx := ent.TxFromContext(ctx)
	if tx == nil {
		return write()
	}
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			if err := write(); err != nil {
				if rerr := tx.Rollback(); rerr != nil {
					return fmt.Errorf("%w (rollback: %v)", err, rerr)
				}
				return err
			}
			return next.Commit(ctx, tx)
		})
	})
	return nil
}
