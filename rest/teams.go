package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/internal/wire"
)

type teamRequest struct {
	Name            *string   `json:"name"`
	Description     *string   `json:"description"`
	AllowAutoAssign *flexBool `json:"allow_auto_assign"`
}

func (r teamRequest) input() accounts.TeamInput {
	return accounts.TeamInput{Name: r.Name, Description: r.Description, AllowAutoAssign: r.AllowAutoAssign.ptr()}
}

func viewerID(c *fiber.Ctx) int {
	v, _ := viewer.FromContext(c.UserContext())
	return v.UserID
}

func (a *API) listTeams(c *fiber.Ctx) error {
	ts, err := a.svc.Teams(c.UserContext())
	if err != nil {
		return err
	}
	out := make([]H, 0, len(ts))
	for _, t := range ts {
		out = append(out, wire.Team(t, viewerID(c)))
	}
	return c.JSON(out)
}

func (a *API) showTeam(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Team")
	if err != nil {
		return err
	}
	t, err := a.svc.Team(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(wire.Team(t, viewerID(c)))
}

func (a *API) createTeam(c *fiber.Ctx) error {
	var req teamRequest
	if err := decode(c, "team", &req); err != nil {
		return err
	}
	t, err := a.svc.CreateTeam(c.UserContext(), req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.Team(t, viewerID(c)))
}

func (a *API) updateTeam(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Team")
	if err != nil {
		return err
	}
	var req teamRequest
	if err := decode(c, "team", &req); err != nil {
		return err
	}
	t, err := a.svc.UpdateTeam(c.UserContext(), id, req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.Team(t, viewerID(c)))
}

func (a *API) deleteTeam(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Team")
	if err != nil {
		return err
	}
	if err := a.svc.DeleteTeam(c.UserContext(), id); err != nil {
		return err
	}
	return emptyOK(c)
}

func (a *API) teamMembers(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Team")
	if err != nil {
		return err
	}
	ms, err := a.svc.TeamMembers(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(wire.Agents(ms))
}

// changeTeamMembers serves POST (add), PATCH (replace) and DELETE (remove)
// of /teams/{id}/team_members with {"user_ids": [...]}.
func (a *API) changeTeamMembers(change accounts.MemberChange) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := pathID(c, "id", "Team")
		if err != nil {
			return err
		}
		ids, err := userIDs(c)
		if err != nil {
			return err
		}
		before, err := a.svc.TeamMembers(c.UserContext(), id)
		if err != nil {
			return err
		}
		if err := a.svc.ChangeTeamMembers(c.UserContext(), id, change, ids); err != nil {
			return err
		}
		if change == accounts.RemoveMembers {
			return emptyOK(c)
		}
		after, err := a.svc.TeamMembers(c.UserContext(), id)
		if err != nil {
			return err
		}
		if change == accounts.AddMembers {
			after = newlyAdded(before, after) // Chatwoot answers a POST with the added agents only
		}
		return c.JSON(wire.Agents(after))
	}
}

// userIDs reads the user_ids list of a member request; it is required.
func userIDs(c *fiber.Ctx) ([]int, error) {
	var req userIDsRequest
	if err := decode(c, "", &req); err != nil {
		return nil, err
	}
	if req.UserIDs == nil {
		return nil, invalidField("user_ids", "User ids can't be blank: send a list of agent ids")
	}
	return *req.UserIDs, nil
}
