package kanban

import (
	"context"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/funnel"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// MaxCardValue bounds a card's value, so that a funnel's sums stay finite
// (two cards of 1e308 would make every total +Inf).
const MaxCardValue = 1e15

// checkCardFields checks the fields whose values alone can be wrong.
func checkCardFields(in CardInput, errs *core.FieldErrors) {
	if in.Priority != nil && !core.ContainsString(CardPriorities, *in.Priority) {
		errs.Add("item_details.priority", "Priority must be one of "+strings.Join(CardPriorities, ", "))
	}
	if in.Value != nil && (*in.Value < 0 || *in.Value > MaxCardValue || math.IsNaN(*in.Value)) {
		errs.Add("item_details.value", fmt.Sprintf("Value must be a number from 0 to %.0f", MaxCardValue))
	}
	if in.Position != nil && *in.Position < 0 {
		errs.Add("position", "Position must be 0 or more")
	}
	if in.Stage != nil && strings.TrimSpace(*in.Stage) == "" {
		errs.Add("funnel_stage", "Funnel stage can't be blank")
	}
	if in.Title != nil && utf8.RuneCountInString(*in.Title) > schema.MaxNameRunes {
		// The schema's validator holds every path; this names the field as
		// the REST body spells it.
		errs.Add("item_details.title", fmt.Sprintf("Title is too long (at most %d characters)", schema.MaxNameRunes))
	}
}

// resolveStage finds the stage slug names in the funnel; no slug means the
// funnel's first stage.
func resolveStage(ctx context.Context, c *ent.Client, funnelID int, slug *string) (*ent.FunnelStage, error) {
	exists, err := c.Funnel.Query().Where(funnel.ID(funnelID)).Exist(ctx)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, apperr.Invalidf("funnel_id", "Funnel %d does not exist in this account", funnelID)
	}
	q := c.FunnelStage.Query().Where(funnelstage.FunnelID(funnelID))
	if slug == nil {
		st, err := q.Order(ent.Asc(funnelstage.FieldPosition), ent.Asc(funnelstage.FieldID)).First(ctx)
		if ent.IsNotFound(err) {
			return nil, apperr.Invalid("The funnel has no stages: add one first", "funnel_stage")
		}
		return st, err
	}
	st, err := q.Where(funnelstage.Slug(strings.TrimSpace(*slug))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.Invalidf("funnel_stage", "Funnel stage %q is not a stage of funnel %d", *slug, funnelID)
	}
	return st, err
}

// sameConversation reports whether the card is linked to the conversation
// of displayID already: a client sending the whole card back keeps the link
// even when the agent cannot see that conversation's inbox (agents work
// every card of the account).
func sameConversation(ctx context.Context, c *ent.Client, it *ent.KanbanItem, displayID int) bool {
	if it.ConversationID == nil {
		return false
	}
	cv, err := c.Conversation.Query().Where(conversation.ID(*it.ConversationID), conversation.AccountID(it.AccountID)).
		Only(core.AsLinkEcho(ctx, it.AccountID))
	return err == nil && cv.DisplayID == displayID
}

// resolveConversation turns a conversation display id into the row id; a
// conversation the viewer cannot see does not exist for it.
func resolveConversation(ctx context.Context, c *ent.Client, displayID *int) (*int, error) {
	if displayID == nil {
		return nil, nil
	}
	id, err := c.Conversation.Query().Where(conversation.DisplayID(*displayID)).OnlyID(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.Invalidf("conversation_display_id", "Conversation %d does not exist in this account", *displayID)
	}
	if err != nil {
		return nil, err
	}
	return &id, nil
}

// checkCardAgents fails with 422 on field unless every id is an agent of
// the account.
func checkCardAgents(ctx context.Context, c *ent.Client, field string, ids []int) error {
	if err := core.CheckListLen(field, len(ids), core.MaxIDs); err != nil {
		return err
	}
	err := accounts.CheckAccountUsers(ctx, c, ids)
	if ae, ok := err.(*apperr.Error); ok && ae.Kind == apperr.KindInvalid {
		return apperr.Invalid(ae.Message, field)
	}
	return err
}

func derefInts(p *[]int) []int {
	if p == nil {
		return nil
	}
	return *p
}

// CurrencyOf is the one coercion of a card's currency as clients send it:
// {symbol, code, locale} with string values, or a bare code as the kanban
// forks also send; nil means not sent. field names the input in errors.
func CurrencyOf(v any, field string) (map[string]string, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		return map[string]string{"code": strings.TrimSpace(v)}, nil
	case map[string]any:
		out := map[string]string{}
		for k, x := range v {
			s, ok := x.(string)
			if !ok && x != nil {
				return nil, apperr.Invalidf(field, "Currency %s must be a string", k)
			}
			out[k] = strings.TrimSpace(s)
		}
		return out, nil
	}
	return nil, apperr.Invalidf(field, "Currency must be an object {symbol, code, locale}")
}
