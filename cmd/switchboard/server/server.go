// Package server assembles the one HTTP app of the binary: REST, GraphQL and
// the console on one port. Tests build it exactly as main does.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"entgo.io/ent/dialect"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"

	"github.com/switchboard/switchboard/graph"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/config"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/jobs"
	"github.com/switchboard/switchboard/internal/mailin"
	"github.com/switchboard/switchboard/internal/observe"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/storage"
	"github.com/switchboard/switchboard/internal/visitors"
	"github.com/switchboard/switchboard/rest"
	"github.com/switchboard/switchboard/web"
)

// Config is what the server needs of the configuration (main fills it from
// package config; tests set what they need).
type Config struct {
	// StorageDir is where uploaded files go (used when Storage is nil).
	StorageDir string
	// Storage is the opened attachment store.
	Storage *storage.Store
	// MaxFileSize caps one attachment, in bytes (0: storage's default).
	MaxFileSize int64
	// Channels delivers messages (nil: the real channels, sending WhatsApp
	// messages to WhatsAppAPIBase).
	Channels jobs.Channels
	// WhatsAppAPIBase is the WhatsApp Cloud API's base URL, for sending
	// and for fetching received media (empty: delivery.DefaultWhatsAppBase).
	WhatsAppAPIBase string
	// Retries are the retry budgets of jobs (zero: jobs.DefaultRetries).
	Retries jobs.Retries
	// AttemptRetention bounds the delivery attempt log (zero:
	// jobs.DefaultAttemptRetention).
	AttemptRetention time.Duration
	// DeliveryRetention bounds the webhook delivery log (zero:
	// jobs.DefaultDeliveryRetention).
	DeliveryRetention time.Duration
	// BodyLimit caps multipart request bodies, in bytes (0: room for
	// core.MaxAttachments files of the storage's per-file limit). Other
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
	// AuthLimits throttle guessed credentials (nil: accounts.DefaultAuthLimits).
	AuthLimits *accounts.AuthLimits
	// VisitorLimits throttle the public client API (nil:
	// visitors.DefaultLimits).
	VisitorLimits *visitors.Limits
	// Logger gets the access log (nil: slog.Default()).
	Logger *slog.Logger
	// ShutdownTimeout bounds how long Shutdown waits for in-flight
	// requests (0: config.DefaultShutdownTimeout).
	ShutdownTimeout time.Duration
	// IMAPPollInterval is how often e-mail inboxes' mailboxes are polled
	// (0: mailin.DefaultPollInterval).
	IMAPPollInterval time.Duration
}

// Server is the assembled application.
type Server struct {
	App  *fiber.App
	Svc  *ops.Service
	DB   *db.DB
	Jobs *jobs.Runner
	// Mail fetches the mail of e-mail inboxes with IMAP enabled.
	Mail *mailin.Fetcher
	// Events carries committed changes to live listeners.
	Events *events.Hub
	// Metrics is the Prometheus registry served at /metrics.
	Metrics *observe.Metrics
	// Websockets counts the websocket clients and closes them with 1001
	// at shutdown.
	Websockets      *observe.Websockets
	shutdownTimeout time.Duration
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
		cfg.BodyLimit = rest.BodyLimit(core.MaxAttachments, cfg.Storage.MaxFileSize())
	}
	ctx, cancel := context.WithCancel(context.Background())
	if cfg.Channels == nil {
		cfg.Channels = delivery.NewDispatcher(cfg.WhatsAppAPIBase)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = config.DefaultShutdownTimeout
	}
	s := &Server{DB: database, ctx: ctx, cancel: cancel, Websockets: &observe.Websockets{}, shutdownTimeout: cfg.ShutdownTimeout}
	s.Metrics = observe.NewMetrics(database.SQL, database.Dialect, s.Websockets)
	// First: every request gets its id, access log line and metrics, those
	// the app refuses before routing (too large, a NUL) among them.
	s.App = rest.NewApp(cfg.BodyLimit, observe.Middleware(cfg.Logger, s.Metrics))
	s.Events = events.NewHub()
	s.Metrics.Registry().MustRegister(events.Collectors(s.Events)...)
	if database.Dialect == dialect.Postgres {
		if err := events.RelayThroughPostgres(ctx, s.Events, database.DSN, database.SQL); err != nil {
			// Live updates then reach this instance's viewers only.
			slog.Error("live updates across instances are off", "err", err)
		}
	}
	opts := []ops.Option{ops.WithStorage(cfg.Storage), ops.WithEvents(s.Events),
		ops.WithCatchUpWindow(cfg.CatchUp), ops.WithAfterCommit(func() { s.Jobs.Nudge() }),
		ops.WithPublicURL(cfg.PublicURL), ops.WithWhatsAppBase(cfg.WhatsAppAPIBase)}
	if cfg.Now != nil {
		opts = append(opts, ops.WithClock(cfg.Now))
	}
	if database.Dialect == dialect.Postgres {
		// SQLite runs one write transaction at a time: a statement of its
		// own would only add one to the queue.
		opts = append(opts, ops.WithDisplayIDCounter(database.TakeDisplayID))
	}
	if cfg.AuthLimits != nil {
		opts = append(opts, ops.WithAuthLimits(*cfg.AuthLimits))
	}
	if cfg.VisitorLimits != nil {
		opts = append(opts, ops.WithVisitorLimits(*cfg.VisitorLimits))
	}
	s.Svc = ops.New(database.Client, opts...)
	// Running jobs get the time requests get at shutdown (both at once).
	s.Jobs = jobs.New(database, s.Svc, cfg.Channels, jobs.Options{Retries: cfg.Retries, Grace: cfg.ShutdownTimeout, AttemptRetention: cfg.AttemptRetention,
		DeliveryRetention: cfg.DeliveryRetention})
	s.Metrics.Registry().MustRegister(s.Jobs.Collector(), core.CacheCollector(s.Svc.Core))
	s.Jobs.WakeOnEvents(s.Events)
	s.Jobs.Start(ctx)
	s.Mail = mailin.New(s.Svc, mailin.Options{PollInterval: cfg.IMAPPollInterval, Logger: cfg.Logger})
	s.Metrics.Registry().MustRegister(s.Mail.Collectors()...)
	s.Mail.Start(ctx)
	health := &observe.Health{DB: database.SQL, JobsLastRan: s.Jobs.Alive, Log: cfg.Logger}
	health.Mount(s.App)
	s.App.Get("/metrics", s.Metrics.Handler())
	rest.Mount(s.App, s.Svc, rest.Live{Ctx: ctx, Websockets: s.Websockets})
	gql := graph.NewHandler(ctx, database.Client, s.Svc, s.Events, rest.GraphQLPath)
	s.App.Get("/graphql/schema.graphql", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
		return c.SendString(graph.SDL())
	})
	s.App.Post(rest.GraphQLPath, gql.ServeJSONPost)
	s.App.All(rest.GraphQLPath, adaptor.HTTPHandler(s.Websockets.Wrap(outlivingShutdown(gql))))
	web.Mount(ctx, s.App, s.Svc, s.Events, cfg.PublicURL, s.Websockets)
	rest.NotFound(s.App)
	return s
}

// outlivingShutdown runs h under a request context that shutdown does not
// cancel: the adaptor's context is fasthttp's request context, which ends
// when the server starts shutting down, so a GraphQL request in flight then
// failed instead of finishing (fasthttp never cancels it for anything else:
// nothing is lost). Shutdown's timeout still bounds it.
func outlivingShutdown(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithoutCancel(r.Context())))
	})
}

// Shutdown tells websocket clients the server is going away (close code
// 1001, so they reconnect elsewhere) and ends the other long-lived handlers
// the job runner and the mail fetcher; it stops accepting connections and waits for the
// requests in flight, for at most the configured timeout.
func (s *Server) Shutdown() error {
	s.Websockets.GoingAway()
	s.cancel()
	err := s.App.ShutdownWithTimeout(s.shutdownTimeout)
	s.Jobs.Wait()
	s.Mail.Wait()
	return err
}
