// Package server assembles the one HTTP app of the binary: REST, GraphQL and
// the console on one port. Tests build it exactly as main does.
package server

import (
	"context"
	"log/slog"

	"entgo.io/ent/dialect"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"

	"github.com/switchboard/switchboard/graph"

	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/jobs"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/storage"
	"github.com/switchboard/switchboard/rest"
	"github.com/switchboard/switchboard/web"
)

// Config is what the server needs from the environment.
type Config struct {
	// StorageDir is where uploaded files go (used when Storage is nil).
	StorageDir string
	// Storage is the opened attachment store.
	Storage *storage.Store
	// MaxFileSize caps one attachment, in bytes (0: storage's default).
	MaxFileSize int64
	// Channels delivers messages (nil: the real channels).
	Channels jobs.Channels
	// Retries are the waits between job attempts (zero: jobs.DefaultRetries).
	Retries jobs.Retries
	// BodyLimit caps multipart request bodies, in bytes (0: room for
	// ops.MaxAttachments files of the storage's per-file limit). Other
	// bodies are capped at rest.MaxJSONBody whatever this says.
	BodyLimit int
	// CatchUp is how late a scheduled message may still fire (0: the
	// default); older occurrences are marked failed as missed.
	CatchUp time.Duration
	// PublicURL is where the server is reached (an https one makes the
	// console's session cookie Secure).
	PublicURL string
	// Now is the clock of the operations (nil: the real one); tests move it
	// to expire sessions and keys.
	Now func() time.Time
	// AuthLimits throttle guessed credentials (nil: ops.DefaultAuthLimits).
	AuthLimits *ops.AuthLimits
}

// Server is the assembled application.
type Server struct {
	App  *fiber.App
	Svc  *ops.Service
	DB   *db.DB
	Jobs *jobs.Runner
	// Events carries committed changes to live listeners.
	Events *events.Hub
	// ctx is cancelled at shutdown; long-lived handlers (subscriptions,
	// websockets) run under it rather than under a request context.
	ctx    context.Context
	cancel context.CancelFunc
}

// New builds the server over an open, migrated database. Without
// cfg.Storage it opens StorageDir, and panics if it cannot: callers that want
// the error open the store themselves (as main does).
func New(cfg Config, database *db.DB) *Server {
	if cfg.Storage == nil {
		st, err := storage.Open(cfg.StorageDir, cfg.MaxFileSize)
		if err != nil {
			panic(err)
		}
		cfg.Storage = st
	}
	if cfg.BodyLimit == 0 {
		cfg.BodyLimit = rest.BodyLimit(ops.MaxAttachments, cfg.Storage.MaxFileSize())
	}
	ctx, cancel := context.WithCancel(context.Background())
	if cfg.Channels == nil {
		cfg.Channels = delivery.NewDispatcher()
	}
	s := &Server{App: rest.NewApp(cfg.BodyLimit), DB: database, ctx: ctx, cancel: cancel}
	s.Events = events.NewHub()
	if database.Dialect == dialect.Postgres {
		if err := events.RelayThroughPostgres(ctx, s.Events, database.DSN, database.SQL); err != nil {
			// Live updates then reach this instance's viewers only.
			slog.Error("live updates across instances are off", "err", err)
		}
	}
	opts := []ops.Option{ops.WithStorage(cfg.Storage), ops.WithEvents(s.Events),
		ops.WithCatchUpWindow(cfg.CatchUp), ops.WithAfterCommit(func() { s.Jobs.Wake() })}
	if cfg.Now != nil {
		opts = append(opts, ops.WithClock(cfg.Now))
	}
	if cfg.AuthLimits != nil {
		opts = append(opts, ops.WithAuthLimits(*cfg.AuthLimits))
	}
	s.Svc = ops.New(database.Client, opts...)
	if cfg.Retries.Messages == nil && cfg.Retries.Webhooks == nil {
		cfg.Retries = jobs.DefaultRetries
	}
	s.Jobs = jobs.New(database, s.Svc, cfg.Channels, cfg.Retries)
	s.Jobs.Start(ctx)
	rest.Mount(s.App, s.Svc)
	s.App.All("/graphql", adaptor.HTTPHandler(graph.NewHandler(ctx, database.Client, s.Svc, s.Events, "/graphql")))
	web.Mount(ctx, s.App, s.Svc, s.Events, cfg.PublicURL)
	rest.NotFound(s.App)
	return s
}

// Shutdown stops long-lived handlers and the job runner, then the HTTP
// server.
func (s *Server) Shutdown() error {
	s.cancel()
	s.Jobs.Wait()
	return s.App.Shutdown()
}
