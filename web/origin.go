package web

import (
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
)

// Console writes must come from the console's own pages. We check the
// Origin header (Referer when a browser left Origin out) rather than issue
// a per-session CSRF token: every browser we serve sends Origin on
// cross-origin POSTs and on websocket handshakes, so the check needs no
// hidden field in each form, no token in board.js's fetches, and covers the
// sign-in form too (login CSRF), which has no session yet. SameSite=Lax on
// the cookie is the second layer.

// requireSameOrigin answers 403 to a console write (any method but GET,
// HEAD and OPTIONS) or websocket upgrade from another origin.
func (c *Console) requireSameOrigin(ctx *fiber.Ctx) error {
	if !needsOriginCheck(ctx) || c.fromOwnOrigin(ctx) {
		return ctx.Next()
	}
	return apperr.Forbidden("Cross-origin request refused: console changes must come from the console's own pages")
}

func needsOriginCheck(ctx *fiber.Ctx) bool {
	switch ctx.Method() {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
		return strings.EqualFold(ctx.Get(fiber.HeaderUpgrade), "websocket")
	}
	return true
}

// fromOwnOrigin reports whether the request's Origin (or Referer) is this
// server: the host the browser addressed (Host header), or PUBLIC_URL's
// host behind a proxy that rewrites Host. A request with neither header,
// and no Sec-Fetch-Site saying otherwise, comes from no browser page (a
// script or curl, which could send any Origin anyway) and passes.
func (c *Console) fromOwnOrigin(ctx *fiber.Ctx) bool {
	source := ctx.Get(fiber.HeaderOrigin)
	if source == "" {
		source = ctx.Get(fiber.HeaderReferer)
	}
	if source == "" {
		site := ctx.Get("Sec-Fetch-Site")
		return site == "" || site == "same-origin" || site == "none"
	}
	u, err := url.Parse(source)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false // includes Origin: null (sandboxed frames, data: URLs)
	}
	return strings.EqualFold(u.Host, string(ctx.Request().Host())) ||
		(c.publicHost != "" && strings.EqualFold(u.Host, c.publicHost))
}
