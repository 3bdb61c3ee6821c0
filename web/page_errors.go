package web

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/views"
)

// pageErrors answers a console page the browser navigated to with an HTML
// page when it is refused (404, 403, 400...), instead of the API's JSON
// body. The console's scripts keep the JSON, which their code reads, and
// server errors keep the app's handler, which logs them.
func (c *Console) pageErrors(ctx *fiber.Ctx) error {
	err := ctx.Next()
	if err == nil || fromScript(ctx) || (ctx.Method() != fiber.MethodGet && ctx.Method() != fiber.MethodHead) {
		return err
	}
	status, message := statusAndMessage(err)
	if status >= http.StatusInternalServerError || status == http.StatusUnauthorized {
		return err
	}
	return render(ctx, status, views.ErrorPage(c.errorNav(ctx), status, message))
}

// statusAndMessage is the status and sentence of a handler's error.
func statusAndMessage(err error) (int, string) {
	var fe *fiber.Error
	if errors.As(err, &fe) {
		return fe.Code, fe.Message
	}
	ae := apperr.From(err)
	return ae.Kind.HTTPStatus(), ae.Message
}

// errorNav is the frame of an error page: the signed-in viewer's, or none
// when the session was not read (an address outside the accounts) or its
// profile cannot be.
func (c *Console) errorNav(ctx *fiber.Ctx) views.Nav {
	if _, ok := viewer.FromContext(ctx.UserContext()); !ok {
		return views.Nav{}
	}
	nav, err := c.nav(ctx)
	if err != nil {
		return views.Nav{}
	}
	return nav
}

// unknownPage is every console address no page answers.
func unknownPage(ctx *fiber.Ctx) error {
	return apperr.NotFound("Page")
}
