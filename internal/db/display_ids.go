package db

import (
	"context"
	"time"
)

// TakeDisplayID adds n to an account's conversation display-id counter
// and answers the first of the n ids it took, in one statement that commits
// at once.
//
// Taken inside the transaction that starts a conversation, the counter's
// row stays locked until that transaction commits, so an account's new
// conversations start one at a time; in a burst of first messages from new
// customers on PostgreSQL that queue made the tail (see
// conversations.takesDisplayIDsApart). Here the row is locked only while
// the statement runs. ent's UpdateOne would send an UPDATE and then a
// SELECT, holding the lock across a round trip (and, outside a transaction,
// reading back another caller's increment). Only the counter and the
// account's updated_at are written, and nothing but the number is read; it
// steps past ent's rules, so it is called only through the bypass
// registered for it, core.TakeDisplayIDApart, with the viewer's own account.
func (d *DB) TakeDisplayID(ctx context.Context, accountID, n int, now time.Time) (int, error) {
	var id int
	err := d.SQL.QueryRowContext(ctx, `UPDATE accounts SET last_conversation_display_id = `+
		`COALESCE(last_conversation_display_id, 0) + $3, updated_at = $1 WHERE id = $2 `+
		`RETURNING last_conversation_display_id`, now, accountID, n).Scan(&id)
	if err != nil {
		return 0, err
	}
	return id - n + 1, nil
}
