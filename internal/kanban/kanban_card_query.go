package kanban

import (
	"context"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/cardnote"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// CardFilter selects cards for the lists; zero values do not filter.
type CardFilter struct {
	FunnelID              int
	Stage                 string
	AgentID               int
	ConversationDisplayID int
	// ContactID keeps the cards whose conversation is the contact's.
	ContactID int
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

// FunnelCards is Cards within one funnel (the kanban fork's
// /funnels/{id}/kanban_items takes the card list's parameters): a page, in
// board order. An unknown funnel is a 404 here, where the list's filter
// simply matches nothing.
func (s *Service) FunnelCards(ctx context.Context, funnelID int, f CardFilter) (*core.Page[*ent.KanbanItem], error) {
	if _, err := s.Funnel(ctx, funnelID); err != nil {
		return nil, err
	}
	f.FunnelID = funnelID
	return s.Cards(ctx, f)
}

func pageSize(perPage int) int {
	switch {
	case perPage <= 0:
		return DefaultCardPage
	case perPage > MaxCardPage:
		return MaxCardPage
	}
	return perPage
}

func boardOrder() []kanbanitem.OrderOption {
	return []kanbanitem.OrderOption{
		kanbanitem.ByFunnelID(), kanbanitem.ByStageField(funnelstage.FieldPosition),
		kanbanitem.ByStageID(), kanbanitem.ByPosition(),
	}
}

// cardsBase is where a filter's cards come from: every card of the
// account, or, filtered by conversation or contact, the cards of the
// conversations the viewer may read. An edge predicate
// (HasConversationWith) would not run the conversation's privacy rule, and
// the filter would tell an agent which cards hang on conversations of
// inboxes they do not work in.
func cardsBase(c *ent.Client, f CardFilter) *ent.KanbanItemQuery {
	var convs []predicate.Conversation
	if f.ConversationDisplayID != 0 {
		convs = append(convs, conversation.DisplayID(f.ConversationDisplayID))
	}
	if f.ContactID != 0 {
		convs = append(convs, conversation.ContactID(f.ContactID))
	}
	if len(convs) == 0 {
		return c.KanbanItem.Query()
	}
	// A card hangs on one conversation: the path yields no duplicates, and
	// a DISTINCT would clash with the board order on PostgreSQL.
	return c.Conversation.Query().Where(convs...).QueryKanbanItems().Unique(false)
}

// cardQuery turns a filter into a query; an unknown funnel or stage simply
// matches nothing.
func (s *Service) cardQuery(ctx context.Context, c *ent.Client, f CardFilter) (*ent.KanbanItemQuery, error) {
	q := cardsBase(c, f)
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
			kanbanitem.HasConversationWith(visibleConversation(ctx, conversation.HasContactWith(
				contact.Or(contact.NameContainsFold(text), contact.EmailContainsFold(text))))...),
		))
	}
	return q, nil
}

// visibleConversation is ps and the inbox rule (schema.VisibleConversation):
// a card filter through its conversation is a subquery, which the privacy
// rules do not run, and it would tell an agent which cards hang on
// conversations of inboxes they do not work in.
func visibleConversation(ctx context.Context, ps ...predicate.Conversation) []predicate.Conversation {
	if p := schema.VisibleConversation(ctx); p != nil {
		return append(ps, p)
	}
	return ps
}

// checkFilter refuses filter values that can match nothing by mistake.
func checkFilter(f CardFilter) error {
	if err := core.CheckSearchText("query", strings.TrimSpace(f.Query)); err != nil {
		return err
	}
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

// enumValues is xs (checked by checkFilter) as enum values, each once: a
// filter lists at most every value of its enum.
func enumValues[T ~string](xs []string) []T {
	xs = core.UniqueStrings(xs)
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

// detachCards binds cards that loadCards read in the operation's own
// transaction to the database again, with the edges it loaded (stage,
// agents, the conversation and its contact; core.Detached), so that what
// reads their edges after the commit (GraphQL's resolvers) does not query
// through the closed transaction.
func detachCards(ctx context.Context, items []*ent.KanbanItem) []*ent.KanbanItem {
	for i, it := range items {
		items[i] = detachCard(ctx, it)
	}
	return items
}

func detachCard(ctx context.Context, it *ent.KanbanItem) *ent.KanbanItem {
	if it == nil {
		return nil
	}
	e := &it.Edges
	e.Stage = core.Detached(ctx, e.Stage)
	for i, u := range e.AssignedAgents {
		e.AssignedAgents[i] = core.Detached(ctx, u)
	}
	if cv := e.Conversation; cv != nil {
		cv.Edges.Contact = core.Detached(ctx, cv.Edges.Contact)
		e.Conversation = core.Detached(ctx, cv)
	}
	return core.Detached(ctx, it)
}

// cardWritten is what an operation answers of a card it wrote and loaded
// (loadCard) in a transaction that ended with err.
func cardWritten(ctx context.Context, it *ent.KanbanItem, err error) (*ent.KanbanItem, error) {
	if err != nil {
		return nil, apperr.From(err)
	}
	return detachCard(ctx, it), nil
}

// cardsWritten is cardWritten for an operation on several cards.
func cardsWritten(ctx context.Context, items []*ent.KanbanItem, err error) ([]*ent.KanbanItem, error) {
	if err != nil {
		return nil, apperr.From(err)
	}
	return detachCards(ctx, items), nil
}

// loadCards runs q with the stage and assigned agents of each card, and the
// linked conversations with their contacts. Those are read under the
// caller's rules, like any conversation: to an agent outside the
// conversation's inbox a card shows no conversation and no display id, while
// the webhook payload, built for the account, names it
// (rest.TestCardWebhookCarriesTheConversationWhoeverMoves).
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
