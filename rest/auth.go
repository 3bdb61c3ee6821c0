package rest

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/viewer"
)

// accountAuth authenticates the token for the account in the path and puts
// the viewer in the request context.
func accountAuth(svc *ops.Service) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := authenticate(c, svc); err != nil {
			return err
		}
		return c.Next()
	}
}

func authenticate(c *fiber.Ctx, svc *ops.Service) error {
	accountID, err := strconv.Atoi(c.Params("account_id"))
	if err != nil || accountID <= 0 {
		return apperr.NotFound("Account")
	}
	v, err := svc.AuthenticateToken(c.UserContext(), c.IP(), accounts.RequestToken(headerOf(c)), accountID)
	if err != nil {
		return err
	}
	c.SetUserContext(viewer.NewContext(c.UserContext(), v))
	return nil
}

// platformAuth authenticates the installation's platform token.
func platformAuth(svc *ops.Service) fiber.Handler {
	return func(c *fiber.Ctx) error {
		v, err := svc.AuthenticatePlatform(c.UserContext(), c.IP(), accounts.RequestToken(headerOf(c)))
		if err != nil {
			return err
		}
		c.SetUserContext(viewer.NewContext(c.UserContext(), v))
		return c.Next()
	}
}

func headerOf(c *fiber.Ctx) func(string) string {
	return func(name string) string { return c.Get(name) }
}

// userAuth authenticates the user's access token for routes outside any
// account.
func userAuth(svc *ops.Service) fiber.Handler {
	return func(c *fiber.Ctx) error {
		v, err := svc.UserViewer(c.UserContext(), accounts.RequestToken(headerOf(c)))
		if err != nil {
			return err
		}
		c.SetUserContext(viewer.NewContext(c.UserContext(), v))
		return c.Next()
	}
}
