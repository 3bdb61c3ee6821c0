package observe

import (
	"context"
	"database/sql"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"
)

const (
	// pingTimeout bounds the readiness check of the database: a probe
	// must answer even when the database hangs.
	pingTimeout = 2 * time.Second
	// DefaultJobsSilence is how long the job runner may go without
	// reporting before the instance is not ready: far beyond its poll
	// interval, beyond one job's longest attempt.
	DefaultJobsSilence = time.Minute
)

// Health answers the probes. Jobs is the job runner's last report.
type Health struct {
	DB          *sql.DB
	JobsLastRan func() time.Time
	// JobsSilence: see DefaultJobsSilence.
	JobsSilence time.Duration
	Log         *slog.Logger
}

type readiness struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks"`
}

// Mount registers GET /healthz and GET /readyz.
func (h *Health) Mount(app *fiber.App) {
	app.Get("/healthz", func(c *fiber.Ctx) error {
		return c.JSON(fiber.Map{"status": "ok"})
	})
	app.Get("/readyz", h.ready)
}

// ready says whether this instance should get traffic: /healthz says only
// that the process is up (restart it if not), /readyz also that it can do
// its work (send it requests if so).
func (h *Health) ready(c *fiber.Ctx) error {
	r := readiness{Status: "ready", Checks: map[string]string{"database": "ok", "jobs": "ok"}}
	ctx, cancel := context.WithTimeout(c.UserContext(), pingTimeout)
	defer cancel()
	if err := h.DB.PingContext(ctx); err != nil {
		h.Log.Warn("readiness: database unreachable", "err", err)
		r.Checks["database"] = "unreachable"
		r.Status = "not ready"
	}
	silence := h.JobsSilence
	if silence <= 0 {
		silence = DefaultJobsSilence
	}
	if last := h.JobsLastRan(); time.Since(last) > silence {
		r.Checks["jobs"] = "stalled: the job runner last reported at " + last.UTC().Format(time.RFC3339)
		r.Status = "not ready"
	}
	if r.Status != "ready" {
		return c.Status(fiber.StatusServiceUnavailable).JSON(r)
	}
	return c.JSON(r)
}
