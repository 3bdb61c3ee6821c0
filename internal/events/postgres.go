package events

import (
	"context"
	"database/sql"
	"encoding/json"
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
// change that rolls back. Events lost while the listening connection is
// down are lost: clients resync when they reconnect, as after a drop.
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
	hub.SetRelay(func(e Event) error {
		raw, err := json.Marshal(e)
		if err != nil {
			return err
		}
		_, err = db.ExecContext(context.Background(), "SELECT pg_notify($1, $2)", notifyChannel, string(raw))
		return err
	})
	go relayNotifications(ctx, hub, l)
	return nil
}

// relayNotifications delivers the events LISTEN brings until ctx ends.
func relayNotifications(ctx context.Context, hub *Hub, l *pq.Listener) {
	defer l.Close()
	defer hub.SetRelay(nil)
	for {
		select {
		case <-ctx.Done():
			return
		case n := <-l.Notify:
			if n == nil {
				continue // the connection was re-established
			}
			var e Event
			if err := json.Unmarshal([]byte(n.Extra), &e); err != nil {
				slog.Warn("unreadable event notification", "err", err)
				continue
			}
			hub.Deliver(e)
		case <-time.After(time.Minute):
			go func() { _ = l.Ping() }()
		}
	}
}
