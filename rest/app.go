// Package rest serves the v1 REST API (Chatwoot-compatible JSON) and the
// platform API over Fiber. Handlers stay thin: decode, call one operation,
// render.
package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/ops"
)

// API is the REST surface over the operations.
type API struct {
	svc *ops.Service
	// live serves the visitors' sockets.
	live Live
}

// NewApp returns a Fiber app configured as every part of the server needs it:
// the one error mapper, lenient trailing slashes, bodyLimit for uploads and
// MaxJSONBody for every other body. first run before the app's own refusals
// (a body too large, a NUL), so that those are logged and counted too.
func NewApp(bodyLimit int, first ...fiber.Handler) *fiber.App {
	app := fiber.New(fiber.Config{
		ErrorHandler:          handleError,
		StrictRouting:         false,
		CaseSensitive:         true,
		BodyLimit:             bodyLimit,
		DisableStartupMessage: true,
		ReadBufferSize:        16 * 1024,
		// fasthttp would otherwise parse large multipart bodies into a map up
		// front and hand the GraphQL adaptor a body rebuilt from it, with its
		// parts in random order (the GraphQL multipart spec needs
		// "operations" first). Handlers parse forms themselves.
		DisablePreParseMultipartForm: true,
	})
	for _, h := range first {
		app.Use(h)
	}
	app.Use(limitBody, refuseNUL)
	return app
}

// Mount registers the REST routes on app.
func Mount(app *fiber.App, svc *ops.Service, live Live) {
	a := &API{svc: svc, live: live}
	// The routes' descriptions are for GenerateDocs.
	a.routes(app, &routeBook{})
}

// NotFound registers the catch-all 404; it must come after every route.
func NotFound(app *fiber.App) {
	app.Use(notFoundRoute)
}
