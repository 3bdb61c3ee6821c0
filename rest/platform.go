package rest

import (
	"net/url"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/wire"
)

func (a *API) platformCreateAccount(c *fiber.Ctx) error {
	var req accountCreateRequest
	if err := decode(c, "account", &req); err != nil {
		return err
	}
	acc, err := a.svc.CreateAccount(c.UserContext(), req.Name)
	if err != nil {
		return err
	}
	return c.JSON(wire.Account(acc))
}

func (a *API) platformShowAccount(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Account")
	if err != nil {
		return err
	}
	acc, err := a.svc.Account(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(wire.Account(acc))
}

func (a *API) platformCreateUser(c *fiber.Ctx) error {
	var req userCreateRequest
	if err := decode(c, "user", &req); err != nil {
		return err
	}
	out, err := a.svc.CreateUser(c.UserContext(), accounts.UserInput{Name: req.Name, Email: req.Email, Password: req.Password})
	if err != nil {
		return err
	}
	h := wire.User(out.User)
	h["access_token"] = out.AccessToken
	return c.JSON(h)
}

func (a *API) platformShowUser(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "User")
	if err != nil {
		return err
	}
	u, err := a.svc.User(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(wire.User(u))
}

type accountUserRequest struct {
	UserID *flexInt `json:"user_id"`
	Role   string   `json:"role"`
}

func (a *API) platformAddAccountUser(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Account")
	if err != nil {
		return err
	}
	var req accountUserRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	if req.UserID == nil {
		return invalidField("user_id", "User id can't be blank")
	}
	m, err := a.svc.AddAccountUser(c.UserContext(), id, int(*req.UserID), req.Role)
	if err != nil {
		return err
	}
	return c.JSON(platformAccountUserJSON(m))
}

// platformAccountUserJSON is an account_users row as Chatwoot renders the
// record (role by its enum name).
func platformAccountUserJSON(m *ent.AccountUser) H {
	return H{
		"id": m.ID, "account_id": m.AccountID, "user_id": m.UserID, "role": string(m.Role),
		"availability": string(m.Availability), "auto_offline": m.AutoOffline,
		"created_at": wire.Time(m.CreatedAt), "updated_at": wire.Time(m.UpdatedAt),
	}
}

func (a *API) platformListAccountUsers(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Account")
	if err != nil {
		return err
	}
	ms, err := a.svc.AccountUsers(c.UserContext(), id)
	if err != nil {
		return err
	}
	out := make([]H, 0, len(ms))
	for _, m := range ms {
		out = append(out, platformAccountUserJSON(m))
	}
	return c.JSON(out)
}

func (a *API) platformUpdateAccount(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Account")
	if err != nil {
		return err
	}
	var req accountUpdateRequest
	if err := decode(c, "account", &req); err != nil {
		return err
	}
	acc, err := a.svc.UpdateAccount(c.UserContext(), id, accounts.AccountInput{Name: req.Name, Locale: req.Locale, Status: req.Status})
	if err != nil {
		return err
	}
	return c.JSON(wire.Account(acc))
}

// platformUserLogin answers Chatwoot's single sign-on link: the console's
// sign-in page with a one-time token, valid for accounts.SignInLinkTTL.
func (a *API) platformUserLogin(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "User")
	if err != nil {
		return err
	}
	link, err := a.svc.CreateSignInLink(c.UserContext(), id)
	if err != nil {
		return err
	}
	q := url.Values{"email": {link.Email}, "sso_auth_token": {link.Token}}
	return c.JSON(H{"url": c.BaseURL() + "/app/login?" + q.Encode()})
}

func (a *API) platformRemoveAccountUser(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Account")
	if err != nil {
		return err
	}
	var req accountUserRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	if req.UserID == nil {
		return invalidField("user_id", "User id can't be blank")
	}
	if err := a.svc.RemoveAccountUser(c.UserContext(), id, int(*req.UserID)); err != nil {
		return err
	}
	return emptyOK(c)
}

func (a *API) platformDeleteUser(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "User")
	if err != nil {
		return err
	}
	if err := a.svc.DeleteUser(c.UserContext(), id); err != nil {
		return err
	}
	return emptyOK(c)
}

func (a *API) platformDeleteAccount(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Account")
	if err != nil {
		return err
	}
	if err := a.svc.DeleteAccount(c.UserContext(), id); err != nil {
		return err
	}
	return emptyOK(c)
}
