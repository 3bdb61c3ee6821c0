package server

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/internal/db"
)

// warmTimeout bounds the warm-up: a start never waits on it for long.
const warmTimeout = 10 * time.Second

// Warm readies the database connections for the first burst of traffic,
// on PostgreSQL (SQLite's connections are in the process): db.Warm opens
// db.WarmConnections of them and reads every table through each, then
// conversations.WarmInbound stores a rolled-back first message of a
// customer through each. The pool opens connections on demand anyway: an
// error only means a colder start.
func (s *Server) Warm(ctx context.Context) error {
	if s.DB.Dialect != dialect.Postgres {
		return nil
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, warmTimeout)
	defer cancel()
	if err := s.DB.Warm(ctx, db.WarmConnections); err != nil {
		return err
	}
	tables := time.Since(start)
	if err := s.Svc.WarmInbound(ctx, db.WarmConnections); err != nil {
		return fmt.Errorf("warming the inbound path: %w", err)
	}
	slog.Debug("database connections warmed", "connections", db.WarmConnections,
		"tables_ms", tables.Milliseconds(), "inbound_ms", (time.Since(start) - tables).Milliseconds())
	return nil
}
