package web

import (
	"context"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/views"
)

// The drawer's conversation: the card's linked conversation with its latest
// messages (the page GET .../messages serves) and a reply box that posts
// through the same message operation as the API.

// drawerConversation shows the card's conversation, or says the viewer may
// not see it (its inbox is not theirs): the card itself stays workable.
func (c *Console) drawerConversation(ctx context.Context, d *views.CardDrawer, it *ent.KanbanItem) error {
	cv := it.Edges.Conversation
	if it.ConversationID != nil && cv == nil {
		d.Conversation = &views.DrawerConversation{Hidden: true}
		return nil
	}
	if cv == nil {
		return nil
	}
	dc := &views.DrawerConversation{DisplayID: cv.DisplayID}
	d.Conversation = dc
	page, err := c.svc.Messages(ctx, cv.DisplayID, nil, nil)
	if ae, ok := err.(*apperr.Error); ok && ae.Kind == apperr.KindNotFound {
		dc.Hidden = true
		return nil
	}
	if err != nil {
		return err
	}
	dc.Status = string(page.Conversation.Status)
	if ct := cv.Edges.Contact; ct != nil {
		dc.ContactName = ct.Name
		dc.ContactURL = views.AccountURL(d.AccountID, "contacts/"+strconv.Itoa(ct.ID))
	}
	senders, err := c.messageSenders(ctx, page.Messages)
	if err != nil {
		return err
	}
	for _, m := range page.Messages {
		dc.Messages = append(dc.Messages, messageRow(m, dc.ContactName, senders))
	}
	return nil
}

// messageSenders names the agents who sent the messages, by user id.
func (c *Console) messageSenders(ctx context.Context, msgs []*ent.Message) (map[int]string, error) {
	var ids []int
	for _, m := range msgs {
		if m.SenderType != nil && *m.SenderType == message.SenderTypeUser && m.SenderID != nil {
			ids = append(ids, *m.SenderID)
		}
	}
	agents, err := c.svc.AgentsByUserID(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := map[int]string{}
	for _, a := range agents {
		if a.Edges.User != nil {
			out[a.UserID] = personName(a.Edges.User)
		}
	}
	return out, nil
}

func messageRow(m *ent.Message, contact string, senders map[int]string) views.MessageRow {
	row := views.MessageRow{Kind: string(m.MessageType), Private: m.Private,
		At: m.CreatedAt.UTC().Format("2 Jan, 15:04"), AtISO: m.CreatedAt.UTC().Format(time.RFC3339)}
	if m.Content != nil {
		row.Content = *m.Content
	}
	if row.Content == "" && len(m.Edges.Attachments) > 0 {
		row.Content = "(attachment)"
	}
	switch {
	case m.MessageType == message.MessageTypeIncoming:
		row.Author = contact
	case m.SenderID != nil && senders[*m.SenderID] != "":
		row.Author = senders[*m.SenderID]
	case m.MessageType == message.MessageTypeActivity:
		row.Author = "Activity"
	default:
		row.Author = "Switchboard"
	}
	return row
}

// replyToCard serves POST /kanban_items/:id/reply: a reply (or, with
// private, a private note) in the card's conversation.
func (c *Console) replyToCard(ctx *fiber.Ctx) error {
	id, err := cardID(ctx)
	if err != nil {
		return err
	}
	var f struct {
		Content string `form:"content"`
		Private bool   `form:"private"`
	}
	if err := decodeForm(ctx, &f); err != nil {
		return err
	}
	it, err := c.svc.Card(ctx.UserContext(), id)
	if err != nil {
		return err
	}
	switch {
	case it.ConversationID == nil:
		return apperr.Invalid("This card has no conversation to reply in", "content")
	case it.Edges.Conversation == nil: // in an inbox the viewer is not a member of
		return apperr.NotFound("Conversation")
	}
	in := conversations.MessageInput{Content: &f.Content, Private: f.Private}
	if _, err := c.svc.CreateMessage(ctx.UserContext(), it.Edges.Conversation.DisplayID, in, nil); err != nil {
		return err
	}
	return c.renderDrawer(ctx, id)
}
