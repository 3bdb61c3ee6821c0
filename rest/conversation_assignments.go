package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/internal/wire"
)

// assignmentRequest is Chatwoot's assignments body: assignee_id (null
// unassigns) and team_id (null removes the team). What is left out stays.
type assignmentRequest struct {
	AssigneeID optional[flexInt] `json:"assignee_id"`
	TeamID     optional[flexInt] `json:"team_id"`
}

func (r assignmentRequest) input() conversations.Assignment {
	return conversations.Assignment{AssigneeID: clearsToZero(r.AssigneeID), TeamID: clearsToZero(r.TeamID)}
}

// clearsToZero is an id as an Assignment takes it: nil when left out, 0
// when sent as null.
func clearsToZero(o optional[flexInt]) *int {
	if o.clear {
		return new(0)
	}
	return o.get().ptr()
}

// assignConversation serves POST /conversations/{id}/assignments and
// answers as Chatwoot does: the agent assigned (null when unassigned), or,
// when only team_id was sent, the team.
func (a *API) assignConversation(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Conversation")
	if err != nil {
		return err
	}
	var req assignmentRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	in := req.input()
	ctx := c.UserContext()
	cv, err := a.svc.AssignConversation(ctx, id, in)
	if err != nil {
		return err
	}
	if in.AssigneeID == nil {
		if cv.TeamID == nil {
			return c.JSON(nil)
		}
		t, err := a.svc.Team(ctx, *cv.TeamID)
		if err != nil {
			return err
		}
		v, _ := viewer.FromContext(ctx)
		return c.JSON(wire.Team(t, v.UserID))
	}
	if cv.AssigneeID == nil {
		return c.JSON(nil)
	}
	agent, err := a.svc.Agent(ctx, *cv.AssigneeID)
	if err != nil {
		return err
	}
	return c.JSON(wire.Agent(agent))
}

// priorityRequest is Chatwoot's toggle_priority body.
type priorityRequest struct {
	Priority *string `json:"priority"`
}

// toggleConversationPriority serves POST /conversations/{id}/toggle_priority:
// low, medium, high, urgent, or null (or none) to clear; answered, as by
// Chatwoot, with an empty 200.
func (a *API) toggleConversationPriority(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Conversation")
	if err != nil {
		return err
	}
	var req priorityRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	var p string
	if req.Priority != nil {
		p = *req.Priority
	}
	if _, err := a.svc.SetConversationPriority(c.UserContext(), id, p); err != nil {
		return err
	}
	return emptyOK(c)
}
