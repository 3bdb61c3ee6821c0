package web

import (
	"context"
	"fmt"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/schedules"
	"github.com/switchboard/switchboard/views"
)

// What else is about a contact: the messages scheduled to it and the cards
// of its conversations, each linking to where it is managed (the calendar's
// drawer, the board's card). Both lists are first pages of the operations
// the API's lists use; the page says how many there are in all.

// contactCardsShown bounds the cards the contact's page lists.
const contactCardsShown = 20

func (c *Console) contactSchedules(ctx context.Context, p *views.ContactPage, ct *ent.Contact) error {
	page, err := c.svc.ScheduledMessages(ctx, schedules.ScheduleListParams{Status: "all", ContactID: ct.ID})
	if err != nil {
		return err
	}
	p.ScheduleTotal = page.Total
	for _, sm := range page.Items {
		at := sm.ScheduledAt.UTC()
		title := sm.Title
		if title == "" {
			title = clip(sm.Content, lastMessageLen)
		}
		p.Schedules = append(p.Schedules, views.ContactSchedule{
			ID: sm.ID, Title: orUntitled(title), When: at.Format("2 Jan 2006, 15:04 UTC"), Status: string(sm.Status),
			Recurring: sm.RecurrenceType != "none" || sm.ParentID != nil,
			URL:       views.AccountURL(p.Nav.AccountID, fmt.Sprintf("schedules?date=%s&schedule=%d", at.Format(time.DateOnly), sm.ID)),
		})
	}
	return nil
}

func (c *Console) contactCards(ctx context.Context, p *views.ContactPage, ct *ent.Contact) error {
	page, err := c.svc.Cards(ctx, kanban.CardFilter{ContactID: ct.ID, PerPage: contactCardsShown})
	if err != nil {
		return err
	}
	p.CardTotal = page.Total
	for _, it := range page.Items {
		card := views.ContactCard{ID: it.ID, Title: orUntitled(it.Title), Status: string(it.Status),
			URL: views.AccountURL(p.Nav.AccountID, fmt.Sprintf("funnels/%d/board?card=%d", it.FunnelID, it.ID))}
		if it.Edges.Stage != nil {
			card.Stage = it.Edges.Stage.Name
		}
		p.Cards = append(p.Cards, card)
	}
	return nil
}

func orUntitled(s string) string {
	if s == "" {
		return "(untitled)"
	}
	return s
}
