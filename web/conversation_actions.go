package web

import (
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/conversations"
)

// The conversation page's writes: each reads its form, calls the operation
// the API uses and answers with the part it changed.

// reply serves POST /conversations/:conversation_id/messages: a reply, or a
// private note, with files; it answers with the thread.
func (c *Console) reply(ctx *fiber.Ctx) error {
	id, err := convID(ctx)
	if err != nil {
		return err
	}
	posted, files, err := readPosted(ctx)
	if err != nil {
		return err
	}
	text := posted.get("content")
	in := conversations.MessageInput{Content: &text, Private: posted.get("private") == "true"}
	if text == "" && len(files) > 0 {
		in.Content = nil // files alone are a message
	}
	if _, err := c.svc.CreateMessage(ctx.UserContext(), id, in, files); err != nil {
		return err
	}
	return c.renderThread(ctx, id)
}

// setStatus serves POST /conversations/:conversation_id/status (status, and
// snoozed_until in the zone tz when snoozing).
func (c *Console) setStatus(ctx *fiber.Ctx) error {
	id, posted, err := conversationForm(ctx)
	if err != nil {
		return err
	}
	status := posted.get("status")
	var until *time.Time
	if s := posted.get("snoozed_until"); s != "" && status == "snoozed" {
		loc, err := zone(posted.get("tz"))
		if err != nil {
			return err
		}
		t, err := time.ParseInLocation(localLayout, s, loc)
		if err != nil {
			return apperr.Invalid("Snoozed until must be a date and time", "snoozed_until")
		}
		until = &t
	}
	if _, err := c.svc.ToggleStatus(ctx.UserContext(), id, &status, until); err != nil {
		return err
	}
	return c.renderSide(ctx, id)
}

// assign serves POST /conversations/:conversation_id/assignment (assignee_id and
// team_id; 0 clears).
func (c *Console) assign(ctx *fiber.Ctx) error {
	id, posted, err := conversationForm(ctx)
	if err != nil {
		return err
	}
	var in conversations.Assignment
	for field, dst := range map[string]**int{"assignee_id": &in.AssigneeID, "team_id": &in.TeamID} {
		if s := posted.get(field); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				return apperr.Invalidf(field, "%s must be an id", field)
			}
			*dst = &n
		}
	}
	if _, err := c.svc.AssignConversation(ctx.UserContext(), id, in); err != nil {
		return err
	}
	return c.renderSide(ctx, id)
}

// setLabels serves POST /conversations/:conversation_id/labels: the set of
// labels ticked (an empty value stands for none).
func (c *Console) setLabels(ctx *fiber.Ctx) error {
	id, posted, err := conversationForm(ctx)
	if err != nil {
		return err
	}
	labels := []string{}
	for _, l := range posted["labels"] {
		if l != "" {
			labels = append(labels, l)
		}
	}
	if _, err := c.svc.SetConversationLabels(ctx.UserContext(), id, labels); err != nil {
		return err
	}
	return c.renderSide(ctx, id)
}

// conversationForm reads a form posted to a conversation: its id and the
// fields.
func conversationForm(ctx *fiber.Ctx) (int, postedForm, error) {
	id, err := convID(ctx)
	if err != nil {
		return 0, nil, err
	}
	posted, _, err := readPosted(ctx)
	return id, posted, err
}
