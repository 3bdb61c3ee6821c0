package events

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"

	"github.com/lib/pq"
)

// notifyChannel is the PostgreSQL channel events travel on between
// instances.
const notifyChannel = "switchboard_events"

// RelayThroughPostgres makes hub publish through PostgreSQL's NOTIFY and
// deliver what LISTEN brings back, so that a change made on one instance
// reaches the live listeners of every instance on the database. Events are
// published after their transaction commits, so a NOTIFY never announces a
// change that rolls back. When the listening connection was down, events
// may have been missed: the hub marks a gap, and every live listener
// resyncs.
func RelayThroughPostgres(ctx context.Context, hub *Hub, dsn string, db *sql.DB) error {
	l := pq.NewListener(dsn, 100*time.Millisecond, 10*time.Second, func(ev pq.ListenerEventType, err error) {
		if err != nil {
			slog.Warn("event listener connection", "event", ev, "err", err)
		}
	})
	if err := l.Listen(notifyChannel); err != nil {
		l.Close()
		return fmt.Errorf("listening for events: %w", err)
	}
	startRelay(ctx, hub, func(ctx context.Context, payload string) error {
		_, err := db.ExecContext(ctx, "SELECT pg_notify($1, $2)", notifyChannel, payload)
		return err
	}, relayTimeout)
	go relayNotifications(ctx, hub, l)
	return nil
}

// AnnounceThroughPostgres sends es to every instance listening on the
// database, before it returns: a short-lived process (an operator's
// command) has no relay to wait for, and must not end before the running
// servers have heard of its change.
func AnnounceThroughPostgres(ctx context.Context, db *sql.DB, es ...Event) error {
	for _, part := range encodeBatches(es) {
		if _, err := db.ExecContext(ctx, "SELECT pg_notify($1, $2)", notifyChannel, part.payload); err != nil {
			return fmt.Errorf("announcing the change to the running servers: %w", err)
		}
	}
	return nil
}

// ForgetEverything are the installation events that make every instance
// drop what it remembers (verified tokens, inboxes, webhook subscribers,
// conversation pages): what a change made outside a server announces.
var ForgetEverything = []Event{
	{AccountID: Installation, Kind: KindCredentialsChanged},
	{AccountID: Installation, Kind: KindInboxesChanged},
	{AccountID: Installation, Kind: KindWebhooksChanged},
	{AccountID: Installation, Kind: KindConversationsChanged},
}

// relayNotifications delivers the events LISTEN brings until ctx ends.
func relayNotifications(ctx context.Context, hub *Hub, l *pq.Listener) {
	defer l.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case n := <-l.Notify:
			if n == nil {
				hub.Gap() // the connection was re-established: some may be lost
				continue
			}
			es, err := decodeBatch(n.Extra)
			if err != nil {
				slog.Warn("unreadable event notification", "err", err)
				hub.Gap()
				continue
			}
			for _, e := range es {
				hub.Deliver(e)
			}
		case <-time.After(time.Minute):
			go func() { _ = l.Ping() }()
		}
	}
}
