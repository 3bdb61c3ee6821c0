package observe

import (
	"log/slog"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
)

// unmatchedRoute labels requests no route matched (the catch-all 404), so
// scanners probing random URLs add one series, not one per URL.
const unmatchedRoute = "unmatched"

// Middleware gives every request an id (X-Request-Id, returned in the
// response and put in the request's context), then logs it as one JSON line
// and counts it in m. It must be the app's first handler: it runs the error
// handler itself so that it sees the status the client gets.
func Middleware(log *slog.Logger, m *Metrics) fiber.Handler {
	return func(c *fiber.Ctx) error {
		start := time.Now()
		// Copies: fasthttp reuses the request's buffers once it is answered,
		// and the id and labels outlive it (metrics, background work).
		id := requestID(strings.Clone(c.Get(HeaderRequestID)))
		c.Set(HeaderRequestID, id)
		c.Locals(requestIDKey{}, id)
		c.SetUserContext(WithRequestID(c.UserContext(), id))
		if err := c.Next(); err != nil {
			if herr := c.App().ErrorHandler(c, err); herr != nil {
				_ = c.SendStatus(fiber.StatusInternalServerError)
			}
		}
		elapsed := time.Since(start)
		status := c.Response().StatusCode()
		route := routeOf(c)
		method := methodLabel(c.Method())
		m.observe(route, method, status, elapsed.Seconds())
		level := slog.LevelInfo
		if status >= fiber.StatusInternalServerError {
			level = slog.LevelError
		}
		log.LogAttrs(c.UserContext(), level, "request",
			slog.String("request_id", id),
			slog.String("method", method),
			slog.String("route", route),
			slog.String("path", c.Path()),
			slog.Int("status", status),
			slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000),
		)
		return nil
	}
}

// methodLabel is the request's method as a constant string (never the
// request's buffer), and OTHER for methods we serve no route for: bounded
// label values.
func methodLabel(m string) string {
	for _, known := range []string{fiber.MethodGet, fiber.MethodPost, fiber.MethodPut, fiber.MethodPatch,
		fiber.MethodDelete, fiber.MethodHead, fiber.MethodOptions} {
		if m == known {
			return known
		}
	}
	return "OTHER"
}

// routeOf is the pattern of the route that answered (/api/v1/accounts/:id,
// not the URL): bounded label values. The catch-all is mounted with Use on
// "/", which matches every path; a request to another path that ended there
// matched no route.
func routeOf(c *fiber.Ctx) string {
	r := c.Route()
	if r == nil || (r.Path == "/" && c.Path() != "/") {
		return unmatchedRoute
	}
	return r.Path
}
