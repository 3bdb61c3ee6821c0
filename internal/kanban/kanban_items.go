package kanban

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/cardnote"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/funnel"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Cards (kanban items). Every agent of the account sees and works every
// card (the forks' assigned-only rule is what their users complain about);
// deleting a card is for administrators.

// CardPriorities are the allowed values of a card's priority.
var CardPriorities = []string{"none", "low", "medium", "high", "urgent"}

// CardStatuses are the allowed values of a card's status.
var CardStatuses = []string{"open", "won", "lost"}

// CardInput carries the fields of a card create or update; nil means "not sent".
type CardInput struct {
	FunnelID *int
	// Stage is the slug of a stage of the funnel.
	Stage    *string
	Position *int
	// ConversationDisplayID links the card to a conversation;
	// ClearConversation unlinks it.
	ConversationDisplayID *int
	ClearConversation     bool
	AssignedAgents        *[]int
	Title                 *string
	Description           *string
	Priority              *string
	Value                 *float64
	Currency              map[string]string
	// Details are further item_details keys, kept as sent; on update they
	// are merged into the stored ones (a nil value removes a key).
	Details map[string]any
}

// CardFilter selects cards for the lists; zero values do not filter.
type CardFilter struct {
	FunnelID              int
	Stage                 string
	AgentID               int
	ConversationDisplayID int
	// Query matches title, description, notes and the linked contact's
	// name or e-mail, ignoring case.
	Query      string
	Priorities []string
	Statuses   []string
	ValueMin   *float64
	ValueMax   *float64
	// CreatedFrom and CreatedTo bound created_at: [from, to).
	CreatedFrom *time.Time
	CreatedTo   *time.Time
	Page        int
	PerPage     int
}

// UnassignedAgent as CardFilter.AgentID selects the cards nobody is
// assigned to (agent_id=-1, as the forks' clients send it).
const UnassignedAgent = -1

// Card page sizes: the forks' fixed 100, with a ceiling for boards that
// load a whole stage at once.
const (
	defaultCardPage = 100
	maxCardPage     = 500
)

// CardBatch is a page of cards with the per-stage counts of every match.
type CardBatch struct {
	core.Page[*ent.KanbanItem]
	StageCounts map[string]int
}

// Card returns one card.
func (s *Service) Card(ctx context.Context, id int) (*ent.KanbanItem, error) {
	return s.loadCard(ctx, s.Client(ctx), id)
}

// Cards lists the cards matching f, in board order: funnel, stage order,
// position.
func (s *Service) Cards(ctx context.Context, f CardFilter) (*core.Page[*ent.KanbanItem], error) {
	c := s.Client(ctx)
	q, err := s.cardQuery(ctx, c, f)
	if err != nil {
		return nil, err
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	size := pageSize(f.PerPage)
	order := boardOrder()
	if f.FunnelID != 0 && f.Stage != "" {
		order = []kanbanitem.OrderOption{kanbanitem.ByPosition()} // one stage: its (stage, position) index serves the page
	}
	items, err := s.loadCards(ctx, c, q.Order(order...).Offset(core.PageOffset(f.Page, size)).Limit(size))
	if err != nil {
		return nil, apperr.From(err)
	}
	page := core.ClampPage(f.Page)
	return &core.Page[*ent.KanbanItem]{Items: items, Total: total, Page: page, HasMore: page*size < total}, nil
}

// CardsBatch is Cards plus the number of matching cards in each stage slug.
func (s *Service) CardsBatch(ctx context.Context, f CardFilter) (*CardBatch, error) {
	p, err := s.Cards(ctx, f)
	if err != nil {
		return nil, err
	}
	c := s.Client(ctx)
	q, err := s.cardQuery(ctx, c, f)
	if err != nil {
		return nil, err
	}
	var rows []struct {
		StageID int `json:"stage_id"`
		Count   int `json:"count"`
	}
	if err := q.GroupBy(kanbanitem.FieldStageID).Aggregate(ent.Count()).Scan(ctx, &rows); err != nil {
		return nil, apperr.From(err)
	}
	counts := map[string]int{}
	if len(rows) > 0 {
		ids := make([]int, len(rows))
		for i, r := range rows {
			ids[i] = r.StageID
		}
		stages, err := c.FunnelStage.Query().Where(funnelstage.IDIn(ids...)).All(ctx)
		if err != nil {
			return nil, apperr.From(err)
		}
		slug := map[int]string{}
		for _, st := range stages {
			slug[st.ID] = st.Slug
		}
		for _, r := range rows {
			counts[slug[r.StageID]] += r.Count
		}
	}
	return &CardBatch{Page: *p, StageCounts: counts}, nil
}

// FunnelCards lists all cards of a funnel in board order.
func (s *Service) FunnelCards(ctx context.Context, funnelID int) ([]*ent.KanbanItem, error) {
	if _, err := s.Funnel(ctx, funnelID); err != nil {
		return nil, err
	}
	c := s.Client(ctx)
	items, err := s.loadCards(ctx, c, c.KanbanItem.Query().Where(kanbanitem.FunnelID(funnelID)).Order(boardOrder()...))
	return items, core.ApperrOrNil(err)
}

func pageSize(perPage int) int {
	switch {
	case perPage <= 0:
		return defaultCardPage
	case perPage > maxCardPage:
		return maxCardPage
	}
	return perPage
}

func boardOrder() []kanbanitem.OrderOption {
	return []kanbanitem.OrderOption{
		kanbanitem.ByFunnelID(), kanbanitem.ByStageField(funnelstage.FieldPosition),
		kanbanitem.ByStageID(), kanbanitem.ByPosition(),
	}
}

// cardQuery turns a filter into a query; an unknown funnel or stage simply
// matches nothing.
func (s *Service) cardQuery(ctx context.Context, c *ent.Client, f CardFilter) (*ent.KanbanItemQuery, error) {
	q := c.KanbanItem.Query()
	if f.FunnelID != 0 {
		q.Where(kanbanitem.FunnelID(f.FunnelID))
	}
	switch {
	case f.Stage != "" && f.FunnelID != 0:
		// A slug names one stage of a funnel: filter by its id, so the
		// (stage, position) index can answer.
		id, err := c.FunnelStage.Query().Where(funnelstage.FunnelID(f.FunnelID), funnelstage.Slug(f.Stage)).OnlyID(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return nil, apperr.From(err)
		}
		q.Where(kanbanitem.StageID(id)) // 0 when there is no such stage: matches nothing
	case f.Stage != "":
		q.Where(kanbanitem.HasStageWith(funnelstage.Slug(f.Stage)))
	}
	switch {
	case f.AgentID == UnassignedAgent:
		q.Where(kanbanitem.Not(kanbanitem.HasAssignedAgents()))
	case f.AgentID != 0:
		q.Where(kanbanitem.HasAssignedAgentsWith(user.ID(f.AgentID)))
	}
	if f.ConversationDisplayID != 0 {
		q.Where(kanbanitem.HasConversationWith(conversation.DisplayID(f.ConversationDisplayID)))
	}
	if err := checkFilter(f); err != nil {
		return nil, err
	}
	if len(f.Priorities) > 0 {
		q.Where(kanbanitem.PriorityIn(enumValues[kanbanitem.Priority](f.Priorities)...))
	}
	if len(f.Statuses) > 0 {
		q.Where(kanbanitem.StatusIn(enumValues[kanbanitem.Status](f.Statuses)...))
	}
	if f.ValueMin != nil {
		q.Where(kanbanitem.ValueGTE(*f.ValueMin))
	}
	if f.ValueMax != nil {
		q.Where(kanbanitem.ValueLTE(*f.ValueMax))
	}
	if f.CreatedFrom != nil {
		q.Where(kanbanitem.CreatedAtGTE(*f.CreatedFrom))
	}
	if f.CreatedTo != nil {
		q.Where(kanbanitem.CreatedAtLT(*f.CreatedTo))
	}
	if text := strings.TrimSpace(f.Query); text != "" {
		q.Where(kanbanitem.Or(
			kanbanitem.TitleContainsFold(text),
			kanbanitem.DescriptionContainsFold(text),
			kanbanitem.HasNotesWith(cardnote.ContentContainsFold(text)),
			kanbanitem.HasConversationWith(conversation.HasContactWith(
				contact.Or(contact.NameContainsFold(text), contact.EmailContainsFold(text)))),
		))
	}
	return q, nil
}

// checkFilter refuses filter values that can match nothing by mistake.
func checkFilter(f CardFilter) error {
	var errs core.FieldErrors
	for _, p := range f.Priorities {
		if !core.ContainsString(CardPriorities, p) {
			errs.Add("priority", "Priority must be one of "+strings.Join(CardPriorities, ", "))
			break
		}
	}
	for _, st := range f.Statuses {
		if !core.ContainsString(CardStatuses, st) {
			errs.Add("status", "Status must be one of "+strings.Join(CardStatuses, ", "))
			break
		}
	}
	if f.ValueMin != nil && f.ValueMax != nil && *f.ValueMin > *f.ValueMax {
		errs.Add("value_min", "value_min must not exceed value_max")
	}
	return errs.Err()
}

func enumValues[T ~string](xs []string) []T {
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = T(x)
	}
	return out
}

// loadCard reads one card with what its JSON shows.
func (s *Service) loadCard(ctx context.Context, c *ent.Client, id int) (*ent.KanbanItem, error) {
	items, err := s.loadCards(ctx, c, c.KanbanItem.Query().Where(kanbanitem.ID(id)))
	if err != nil {
		return nil, apperr.From(err)
	}
	if len(items) == 0 {
		return nil, apperr.NotFound("Kanban item")
	}
	return items[0], nil
}

// loadCards runs q with the stage and assigned agents of each card, and the
// linked conversations. Those are read as the system: a card shows the
// display id of its conversation even to an agent outside that inbox (the
// conversation itself stays out of reach).
func (s *Service) loadCards(ctx context.Context, c *ent.Client, q *ent.KanbanItemQuery) ([]*ent.KanbanItem, error) {
	items, err := q.WithStage().WithAssignedAgents(func(q *ent.UserQuery) { q.Order(ent.Asc(user.FieldID)) }).All(ctx)
	if err != nil {
		return nil, err
	}
	var convIDs []int
	for _, it := range items {
		if it.ConversationID != nil {
			convIDs = append(convIDs, *it.ConversationID)
		}
	}
	if len(convIDs) == 0 {
		return items, nil
	}
	convs, err := c.Conversation.Query().Where(conversation.IDIn(core.UniqueInts(convIDs)...)).
		WithContact().All(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[int]*ent.Conversation{}
	for _, cv := range convs {
		byID[cv.ID] = cv
	}
	for _, it := range items {
		if it.ConversationID != nil {
			it.Edges.Conversation = byID[*it.ConversationID]
		}
	}
	return items, nil
}

// CreateCard adds a card to a funnel stage, at the given position or last.
func (s *Service) CreateCard(ctx context.Context, in CardInput) (*ent.KanbanItem, error) {
	var errs core.FieldErrors
	if in.FunnelID == nil {
		errs.Add("funnel_id", "Funnel can't be blank")
	}
	if strings.TrimSpace(core.Deref(in.Title)) == "" {
		errs.Add("item_details.title", "Title can't be blank")
	}
	checkCardFields(in, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	var out *ent.KanbanItem
	err := s.cardTx(ctx, func(ctx context.Context, c *ent.Client) error {
		if err := lockFunnels(ctx, c, *in.FunnelID); err != nil {
			return err
		}
		stage, err := resolveStage(ctx, c, *in.FunnelID, in.Stage)
		if err != nil {
			return err
		}
		convID, err := resolveConversation(ctx, c, in.ConversationDisplayID)
		if err != nil {
			return err
		}
		agents := core.UniqueInts(derefInts(in.AssignedAgents))
		if err := checkCardAgents(ctx, c, "assigned_agents", agents); err != nil {
			return err
		}
		pos, err := openSlot(ctx, c, stage.ID, in.Position, 0)
		if err != nil {
			return err
		}
		v, _ := viewer.FromContext(ctx)
		create := c.KanbanItem.Create().SetFunnelID(stage.FunnelID).SetStageID(stage.ID).SetPosition(pos).
			SetNillableConversationID(convID).SetTitle(strings.TrimSpace(*in.Title)).
			SetNillableDescription(in.Description).SetNillableValue(in.Value).
			SetItemDetails(mergeDetails(nil, in.Details)).AddAssignedAgentIDs(agents...).
			SetStageEnteredAt(s.Now())
		if in.Priority != nil {
			create.SetPriority(kanbanitem.Priority(*in.Priority))
		}
		if in.Currency != nil {
			create.SetCurrency(in.Currency)
		}
		if v.UserID != 0 {
			create.SetCreatedByID(v.UserID)
		}
		it, err := create.Save(ctx)
		if err != nil {
			return err
		}
		if err := s.recordCreated(ctx, c, it.ID, stage); err != nil {
			return err
		}
		out, err = s.loadCard(ctx, c, it.ID)
		if err != nil {
			return err
		}
		return s.announceCard(ctx, c, events.KanbanItemCreated, out, nil)
	})
	return out, core.ApperrOrNil(err)
}

// UpdateCard changes a card. A sent funnel, stage or position moves it, as
// MoveCard does.
func (s *Service) UpdateCard(ctx context.Context, id int, in CardInput) (*ent.KanbanItem, error) {
	var errs core.FieldErrors
	if in.Title != nil && strings.TrimSpace(*in.Title) == "" {
		errs.Add("item_details.title", "Title can't be blank")
	}
	checkCardFields(in, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	var out *ent.KanbanItem
	err := s.cardTx(ctx, func(ctx context.Context, c *ent.Client) error {
		it, err := lockCard(ctx, c, id, core.Deref(in.FunnelID))
		if err != nil {
			return err
		}
		from, err := s.loadCard(ctx, c, id)
		if err != nil {
			return err
		}
		if err := s.updateCardFields(ctx, c, it, in); err != nil {
			return err
		}
		moved := false
		if in.FunnelID != nil || in.Stage != nil || in.Position != nil {
			if moved, err = s.moveLocked(ctx, c, it, core.Deref(in.FunnelID), in.Stage, in.Position); err != nil {
				return err
			}
		}
		if out, err = s.loadCard(ctx, c, id); err != nil {
			return err
		}
		if err := s.announceCard(ctx, c, events.KanbanItemUpdated, out, nil); err != nil {
			return err
		}
		if moved {
			return s.announceMove(ctx, c, from, out)
		}
		return nil
	})
	return out, core.ApperrOrNil(err)
}

func (s *Service) updateCardFields(ctx context.Context, c *ent.Client, it *ent.KanbanItem, in CardInput) error {
	upd := c.KanbanItem.UpdateOne(it).SetNillableDescription(in.Description).SetNillableValue(in.Value)
	if in.Title != nil {
		upd.SetTitle(strings.TrimSpace(*in.Title))
	}
	if in.Priority != nil {
		upd.SetPriority(kanbanitem.Priority(*in.Priority))
	}
	if in.Currency != nil {
		upd.SetCurrency(in.Currency)
	}
	if in.Details != nil {
		upd.SetItemDetails(mergeDetails(it.ItemDetails, in.Details))
	}
	switch {
	case in.ClearConversation:
		upd.ClearConversationID()
	case in.ConversationDisplayID != nil && !sameConversation(ctx, c, it, *in.ConversationDisplayID):
		convID, err := resolveConversation(ctx, c, in.ConversationDisplayID)
		if err != nil {
			return err
		}
		upd.SetNillableConversationID(convID)
	}
	if in.AssignedAgents != nil {
		agents := core.UniqueInts(*in.AssignedAgents)
		if err := checkCardAgents(ctx, c, "assigned_agents", agents); err != nil {
			return err
		}
		upd.ClearAssignedAgents().AddAssignedAgentIDs(agents...)
	}
	return upd.Exec(ctx)
}

// DeleteCard deletes a card (administrators only) and closes the gap it
// leaves in its stage.
func (s *Service) DeleteCard(ctx context.Context, id int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	return core.ApperrOrNil(s.cardTx(ctx, func(ctx context.Context, c *ent.Client) error {
		it, err := lockCard(ctx, c, id, 0)
		if err != nil {
			return err
		}
		card, err := s.loadCard(ctx, c, id)
		if err != nil {
			return err
		}
		if err := s.announceCard(ctx, c, events.KanbanItemDeleted, card, nil); err != nil {
			return err
		}
		if err := c.KanbanItem.DeleteOne(it).Exec(ctx); err != nil {
			return err
		}
		return closeSlot(ctx, c, it.StageID, it.Position)
	}))
}

// ChangeCardStatus sets a card's status (open, won or lost); the stage stays.
func (s *Service) ChangeCardStatus(ctx context.Context, id int, status string) (*ent.KanbanItem, error) {
	status = strings.TrimSpace(status)
	if !core.ContainsString(CardStatuses, status) {
		return nil, apperr.Invalidf("status", "Status must be one of %s", strings.Join(CardStatuses, ", "))
	}
	var out *ent.KanbanItem
	err := s.cardTx(ctx, func(ctx context.Context, c *ent.Client) error {
		it, err := lockCard(ctx, c, id, 0)
		if err != nil {
			return err
		}
		changed, err := s.setStatus(ctx, c, it, kanbanitem.Status(status))
		if err != nil {
			return err
		}
		if out, err = s.loadCard(ctx, c, id); err != nil || !changed {
			return err
		}
		return s.announceCard(ctx, c, events.KanbanItemStatusChanged, out,
			map[string]any{"changes": map[string]any{"status": map[string]any{"from": string(it.Status), "to": status}}})
	})
	return out, core.ApperrOrNil(err)
}

// setStatus changes the status and records it; closed_at marks when a card
// was won or lost. It reports whether anything changed.
func (s *Service) setStatus(ctx context.Context, c *ent.Client, it *ent.KanbanItem, status kanbanitem.Status) (bool, error) {
	if it.Status == status {
		return false, nil
	}
	upd := c.KanbanItem.UpdateOne(it).SetStatus(status)
	if status == kanbanitem.StatusOpen {
		upd.ClearClosedAt()
	} else {
		upd.SetClosedAt(s.Now())
	}
	if err := upd.Exec(ctx); err != nil {
		return false, err
	}
	hist := c.CardStageHistory.Create().SetKanbanItemID(it.ID).SetKind("status_changed").
		SetFromStatus(string(it.Status)).SetToStatus(string(status)).
		SetFromStageID(it.StageID).SetToStageID(it.StageID).
		SetFromFunnelID(it.FunnelID).SetToFunnelID(it.FunnelID).SetCreatedAt(s.Now())
	return true, withActor(ctx, hist).Exec(ctx)
}

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

// mergeDetails returns stored with the sent keys applied (nil removes one).
func mergeDetails(stored, sent map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range stored {
		out[k] = v
	}
	for k, v := range sent {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
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
