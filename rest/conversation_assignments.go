package rest

import (
	"encoding/json"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/internal/wire"
)

// assignmentRequest is Chatwoot's assignments body: assignee_id (null
// unassigns) and team_id (null removes the team). What is left out stays.
type assignmentRequest struct {
	AssigneeID json.RawMessage `json:"assignee_id"`
	TeamID     json.RawMessage `json:"team_id"`
}

func (r assignmentRequest) input() (conversations.Assignment, error) {
	var in conversations.Assignment
	var err error
	if in.AssigneeID, err = nullableID("assignee_id", r.AssigneeID); err != nil {
		return in, err
	}
	in.TeamID, err = nullableID("team_id", r.TeamID)
	return in, err
}

// nullableID reads an id that may be sent as null: nil when left out, 0
// when null (the Assignment's "clear").
func nullableID(field string, raw json.RawMessage) (*int, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	zero := 0
	if isNull(raw) {
		return &zero, nil
	}
	var id flexInt
	if err := json.Unmarshal(raw, &id); err != nil || id <= 0 {
		return nil, invalidField(field, field+" must be an id, or null")
	}
	n := int(id)
	return &n, nil
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
	in, err := req.input()
	if err != nil {
		return err
	}
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
