package web

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/wire"
	"github.com/switchboard/switchboard/views"
)

// One conversation: its thread with a reply box, and a side panel for its
// status, assignee, team and labels. Each action is the operation the API
// uses and answers with the part it changed; the page follows the
// conversation's events (new messages, changes, the visitor typing).

// before reads ?before=message id, the page of history older than it.
func before(ctx *fiber.Ctx) *int {
	if id, err := strconv.Atoi(ctx.Query("before")); err == nil && id > 0 {
		return &id
	}
	return nil
}

func convID(ctx *fiber.Ctx) (int, error) {
	id, err := strconv.Atoi(ctx.Params("conversation_id"))
	if err != nil || id <= 0 {
		return 0, apperr.NotFound("Conversation")
	}
	return id, nil
}

// conversation serves GET /conversations/:conversation_id.
func (c *Console) conversation(ctx *fiber.Ctx) error {
	id, err := convID(ctx)
	if err != nil {
		return err
	}
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	page, err := c.svc.Messages(ctx.UserContext(), id, before(ctx), nil)
	if err != nil {
		return err
	}
	people, err := c.people(ctx.UserContext())
	if err != nil {
		return err
	}
	side, err := c.side(ctx.UserContext(), page.Conversation, people)
	if err != nil {
		return err
	}
	p := views.ConversationPage{Nav: nav, ID: id, Thread: c.thread(page, people), Side: side}
	return render(ctx, fiber.StatusOK, views.ConversationView(p))
}

// threadPart serves GET /conversations/:conversation_id/thread.
func (c *Console) threadPart(ctx *fiber.Ctx) error {
	id, err := convID(ctx)
	if err != nil {
		return err
	}
	return c.renderThread(ctx, id)
}

func (c *Console) renderThread(ctx *fiber.Ctx, id int) error {
	page, err := c.svc.Messages(ctx.UserContext(), id, nil, nil)
	if err != nil {
		return err
	}
	people, err := c.people(ctx.UserContext())
	if err != nil {
		return err
	}
	return render(ctx, fiber.StatusOK, views.ThreadPart(c.thread(page, people)))
}

// sidePart serves GET /conversations/:conversation_id/side.
func (c *Console) sidePart(ctx *fiber.Ctx) error {
	id, err := convID(ctx)
	if err != nil {
		return err
	}
	return c.renderSide(ctx, id)
}

func (c *Console) renderSide(ctx *fiber.Ctx, id int) error {
	cv, err := c.svc.Conversation(ctx.UserContext(), id)
	if err != nil {
		return err
	}
	people, err := c.people(ctx.UserContext())
	if err != nil {
		return err
	}
	side, err := c.side(ctx.UserContext(), cv, people)
	if err != nil {
		return err
	}
	return render(ctx, fiber.StatusOK, views.SidePart(side))
}

func (c *Console) thread(page *conversations.MessagePage, people map[int]string) views.Thread {
	cv := page.Conversation
	t := views.Thread{Path: views.ConvURL(cv.AccountID, cv.DisplayID, "")}
	if len(page.Messages) >= conversations.MessagesPerPage {
		t.Before = page.Messages[0].ID // a full page: there may be older ones
	}
	for _, m := range page.Messages {
		row := views.MessageRow{ID: m.ID, Kind: string(m.MessageType), Private: m.Private, Content: content(m),
			At: when(m.CreatedAt), AtISO: m.CreatedAt.UTC().Format(time.RFC3339)}
		if (m.MessageType == "outgoing" || m.MessageType == "template") && !m.Private {
			row.Status = string(m.Status)
		}
		row.Author = author(m, cv, people)
		for _, a := range m.Edges.Attachments {
			exp, sig := c.svc.SignAttachment(a)
			row.Files = append(row.Files, views.FileLink{Name: a.FileName, URL: wire.AttachmentPath(a, exp, sig)})
		}
		t.Messages = append(t.Messages, row)
	}
	return t
}

func content(m *ent.Message) string {
	if m.Content != nil {
		return *m.Content
	}
	return ""
}

func author(m *ent.Message, cv *ent.Conversation, people map[int]string) string {
	switch {
	case m.SenderType != nil && *m.SenderType == "contact" && cv.Edges.Contact != nil:
		return cv.Edges.Contact.Name
	case m.SenderType != nil && *m.SenderType == "user" && m.SenderID != nil:
		return nameOr(people, *m.SenderID, "Former member")
	case m.MessageType == "incoming" && cv.Edges.Contact != nil:
		return cv.Edges.Contact.Name
	case m.MessageType == "activity":
		return "Activity"
	}
	return "Switchboard"
}

// side is the panel of a conversation.
func (c *Console) side(ctx context.Context, cv *ent.Conversation, people map[int]string) (views.ConversationSide, error) {
	s := views.ConversationSide{AccountID: cv.AccountID, ID: cv.DisplayID, Status: string(cv.Status)}
	if ct := cv.Edges.Contact; ct != nil {
		s.Contact, s.ContactURL = ct.Name, views.AccountURL(cv.AccountID, "contacts/"+strconv.Itoa(ct.ID))
	}
	if ib := cv.Edges.Inbox; ib != nil {
		s.Inbox = ib.Name
	}
	if cv.SnoozedUntil != nil {
		s.SnoozedUntil = when(*cv.SnoozedUntil)
	}
	if cv.AssigneeID != nil {
		s.AssigneeID = strconv.Itoa(*cv.AssigneeID)
	}
	if cv.TeamID != nil {
		s.TeamID = strconv.Itoa(*cv.TeamID)
	}
	for id, name := range people {
		s.Agents = append(s.Agents, views.Option{Value: strconv.Itoa(id), Text: name})
	}
	sortOptions(s.Agents)
	teams, err := c.svc.Teams(ctx)
	if err != nil {
		return s, err
	}
	for _, t := range teams {
		s.Teams = append(s.Teams, views.Option{Value: strconv.Itoa(t.ID), Text: t.Name})
	}
	labels, err := c.svc.Labels(ctx)
	if err != nil {
		return s, err
	}
	on := map[string]bool{}
	for _, l := range cv.Labels {
		on[l] = true
	}
	for _, l := range labels {
		s.Labels = append(s.Labels, views.LabelChoice{LabelChip: views.LabelChip{Title: l.Title, Color: l.Color}, On: on[l.Title]})
	}
	return s, nil
}

// convLive serves the conversation page's socket: its messages, its
// changes and its visitor's typing.
func (c *Console) convLive(ctx *fiber.Ctx) error {
	id, err := convID(ctx)
	if err != nil {
		return err
	}
	cv, err := c.svc.Conversation(ctx.UserContext(), id) // 404 unless the viewer may see it
	if err != nil {
		return err
	}
	return c.serveLive(ctx, func(e events.Event) (fiber.Map, bool) {
		if e.ConversationID != cv.ID {
			return nil, false
		}
		switch e.Kind {
		case events.MessageCreated, events.MessageUpdated:
			return fiber.Map{"kind": "message", "message_id": e.MessageID}, true
		case events.ConversationUpdated, events.ConversationStatusChanged:
			return fiber.Map{"kind": "conversation"}, true
		// The page shows its visitor typing; an agent's typing (UserID) is
		// for API clients.
		case events.ConversationTypingOn:
			return fiber.Map{"kind": "typing_on"}, e.UserID == 0
		case events.ConversationTypingOff:
			return fiber.Map{"kind": "typing_off"}, e.UserID == 0
		}
		return nil, false
	}, func(ctx context.Context) error {
		_, err := c.svc.Conversation(ctx, cv.ID) // the viewer may have left its inbox
		return err
	})
}

// sortOptions orders choices by their text, as people look for a name.
func sortOptions(opts []views.Option) {
	slices.SortFunc(opts, func(a, b views.Option) int { return strings.Compare(a.Text, b.Text) })
}
