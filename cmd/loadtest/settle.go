package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"time"
)

// settleLimit bounds how long a run waits for background work to drain.
const settleLimit = time.Minute

// settle waits until the job runner has delivered every outgoing message
// left to deliver (by the route driven before, or by an earlier run on a
// reused database), so that what is measured next does not share the
// machine with it: the POST message route leaves a few hundred deliveries
// behind, whose claims and sends otherwise ran inside the next route's
// measured seconds. It gives up after settleLimit, saying so.
func settle(ctx context.Context, db *sql.DB, progress io.Writer) {
	deadline := time.Now().Add(settleLimit)
	said := false
	for {
		var pending int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages WHERE next_delivery_at IS NOT NULL`).Scan(&pending); err != nil {
			fmt.Fprintf(progress, "settling: %v\n", err)
			return
		}
		if pending == 0 {
			return
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(progress, "settling: %d deliveries still pending after %s; measuring anyway\n", pending, settleLimit)
			return
		}
		if !said {
			fmt.Fprintf(progress, "settling: waiting for %d deliveries\n", pending)
			said = true
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}
