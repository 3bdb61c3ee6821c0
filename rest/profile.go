package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/wire"
)

// The user's own fields (name, display name, e-mail, password): the signed-in
// user's profile (Chatwoot's GET/PUT /api/v1/profile) and the platform API's
// PATCH /platform/api/v1/users/{id}, both through one operation. Account
// routes never change them for a user of several accounts (UpdateAgent).

type profileRequest struct {
	Name            *string `json:"name"`
	DisplayName     *string `json:"display_name"`
	Email           *string `json:"email"`
	Password        *string `json:"password"`
	CurrentPassword *string `json:"current_password"`
}

func (r profileRequest) input() accounts.ProfileInput {
	return accounts.ProfileInput{Name: r.Name, DisplayName: r.DisplayName, Email: r.Email,
		Password: r.Password, CurrentPassword: r.CurrentPassword}
}

func (a *API) showProfile(c *fiber.Ctx) error {
	u, err := a.svc.Profile(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(wire.User(u))
}

func (a *API) updateProfile(c *fiber.Ctx) error {
	var req profileRequest
	if err := decode(c, "profile", &req); err != nil {
		return err
	}
	u, err := a.svc.UpdateProfile(c.UserContext(), req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.User(u))
}

func (a *API) platformUpdateUser(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "User")
	if err != nil {
		return err
	}
	var req profileRequest
	if err := decode(c, "user", &req); err != nil {
		return err
	}
	u, err := a.svc.UpdateUser(c.UserContext(), id, req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.User(u))
}
