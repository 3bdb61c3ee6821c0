package web

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/views"
)

// The conversations list: status, inbox, assignee and label filters over
// the operation the API's list uses.

// lastMessageLen is how much of a conversation's last message its row shows.
const lastMessageLen = 120

func (c *Console) conversations(ctx *fiber.Ctx) error {
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	f := views.ConversationFilter{Status: ctx.Query("status", "open"), Assignee: ctx.Query("assignee_type", "all"),
		Inbox: ctx.Query("inbox_id"), Label: ctx.Query("label")}
	p := conversations.ConversationListParams{Status: f.Status, AssigneeType: f.Assignee}
	p.Page, _ = strconv.Atoi(ctx.Query("page"))
	if f.Inbox != "" {
		if p.InboxID, err = strconv.Atoi(f.Inbox); err != nil {
			return apperr.Invalid("inbox_id must be an inbox's id", "inbox_id")
		}
	}
	if f.Label != "" {
		p.Labels = []string{f.Label}
	}
	list, err := c.svc.Conversations(ctx.UserContext(), p)
	if err != nil {
		return err
	}
	people, err := c.people(ctx.UserContext())
	if err != nil {
		return err
	}
	if f.Inboxes, f.Labels, err = c.filterChoices(ctx.UserContext()); err != nil {
		return err
	}
	colours, err := c.labelColours(ctx.UserContext())
	if err != nil {
		return err
	}
	l := views.ConversationList{Nav: nav, Filter: f, Page: list.Page,
		Counts: fmt.Sprintf("%d mine · %d assigned · %d unassigned", list.Counts.Mine, list.Counts.Assigned, list.Counts.Unassigned)}
	for _, cv := range list.Items {
		l.Rows = append(l.Rows, conversationRow(cv, people, colours))
	}
	shown := map[string]int{"me": list.Counts.Mine, "assigned": list.Counts.Assigned, "unassigned": list.Counts.Unassigned}[f.Assignee]
	if f.Assignee == "all" || f.Assignee == "" {
		shown = list.Counts.All
	}
	if list.Page > 1 {
		l.PrevURL = listPageURL(ctx, list.Page-1)
	}
	if list.Page*conversations.ConversationsPerPage < shown {
		l.NextURL = listPageURL(ctx, list.Page+1)
	}
	return render(ctx, fiber.StatusOK, views.Conversations(l))
}

// listPageURL is the current list's URL at another page.
func listPageURL(ctx *fiber.Ctx, page int) string {
	q, _ := url.ParseQuery(string(ctx.Request().URI().QueryString()))
	q.Set("page", strconv.Itoa(page))
	return ctx.Path() + "?" + q.Encode()
}

func conversationRow(cv *ent.Conversation, people map[int]string, colours map[string]string) views.ConversationRow {
	r := views.ConversationRow{ID: cv.DisplayID, Status: string(cv.Status), Assignee: "Unassigned",
		LastActivity: cv.LastActivityAt.UTC().Format("2 Jan 15:04 UTC"), Labels: chips(cv.Labels, colours)}
	if ct := cv.Edges.Contact; ct != nil {
		r.Contact = ct.Name
	}
	if ib := cv.Edges.Inbox; ib != nil {
		r.Inbox = ib.Name
	}
	if cv.AssigneeID != nil {
		r.Assignee = nameOr(people, *cv.AssigneeID, "Former member")
	}
	if len(cv.Edges.Messages) > 0 {
		m := cv.Edges.Messages[0]
		r.LastMessage, r.LastMessageAt = clip(messageText(m), lastMessageLen), m.CreatedAt.UTC().Format("2 Jan 15:04 UTC")
	}
	return r
}

func clip(s string, n int) string {
	if r := []rune(strings.TrimSpace(s)); len(r) > n {
		return string(r[:n]) + "…"
	}
	return strings.TrimSpace(s)
}

func messageText(m *ent.Message) string {
	if m.Content != nil && *m.Content != "" {
		return *m.Content
	}
	if n := len(m.Edges.Attachments); n > 0 {
		return fmt.Sprintf("(%d attachment(s))", n)
	}
	return ""
}

func nameOr(people map[int]string, id int, fallback string) string {
	if n, ok := people[id]; ok {
		return n
	}
	return fallback
}

// people names the account's agents by user id.
func (c *Console) people(ctx context.Context) (map[int]string, error) {
	agents, err := c.svc.Agents(ctx)
	if err != nil {
		return nil, err
	}
	out := map[int]string{}
	for _, a := range agents {
		if u := a.Edges.User; u != nil {
			out[u.ID] = personName(u)
		}
	}
	return out, nil
}

// filterChoices are the inboxes and labels the list filters by.
func (c *Console) filterChoices(ctx context.Context) (inboxes, labels []views.Option, err error) {
	if inboxes, err = c.inboxChoices(ctx); err != nil {
		return nil, nil, err
	}
	lbs, err := c.svc.Labels(ctx)
	if err != nil {
		return nil, nil, err
	}
	for _, lb := range lbs {
		labels = append(labels, views.Option{Value: lb.Title, Text: lb.Title})
	}
	return inboxes, labels, nil
}

// inboxChoices are the inboxes the viewer may see, as a select offers them.
func (c *Console) inboxChoices(ctx context.Context) ([]views.Option, error) {
	ibs, err := c.svc.Inboxes(ctx)
	if err != nil {
		return nil, err
	}
	return inboxOptions(ibs), nil
}

func inboxOptions(ibs []*ent.Inbox) []views.Option {
	out := make([]views.Option, 0, len(ibs))
	for _, ib := range ibs {
		out = append(out, views.Option{Value: strconv.Itoa(ib.ID), Text: ib.Name})
	}
	return out
}

// labelColours maps the account's labels to their colours.
func (c *Console) labelColours(ctx context.Context) (map[string]string, error) {
	lbs, err := c.svc.Labels(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(lbs))
	for _, lb := range lbs {
		out[lb.Title] = lb.Color
	}
	return out, nil
}

func chips(titles []string, colours map[string]string) []views.LabelChip {
	out := make([]views.LabelChip, 0, len(titles))
	for _, t := range titles {
		out = append(out, views.LabelChip{Title: t, Color: colours[t]})
	}
	return out
}

// when is an instant as the console shows it.
func when(t time.Time) string { return t.UTC().Format("2 Jan 2006, 15:04 UTC") }
