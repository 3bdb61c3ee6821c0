package conversations

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/viewer"
)

// ConversationsPerPage is Chatwoot's page size for conversation lists.
const ConversationsPerPage = 25

// ConversationListParams selects a page of conversations.
type ConversationListParams struct {
	Status       string // open (default), resolved, pending, snoozed, all
	AssigneeType string // all (default), me, assigned, unassigned
	InboxID      int
	TeamID       int
	Labels       []string
	Page         int
}

// ConversationCounts are the counts Chatwoot's list carries in meta.
type ConversationCounts struct {
	Mine, Assigned, Unassigned, All int
}

// ConversationList is a page of conversations with the counts of its filter.
type ConversationList struct {
	Items  []*ent.Conversation
	Counts ConversationCounts
	Page   int
}

// Conversations lists the conversations the viewer may see (agents: their
// inboxes' only, by the conversation policy). A user's page is given from
// memory while nothing it shows has changed (list_cache.go); the list and
// its entities are shared then, and must not be changed.
func (s *Service) Conversations(ctx context.Context, p ConversationListParams) (*ConversationList, error) {
	k, keep := listKeyOf(ctx, p)
	if !keep {
		return s.readConversations(ctx, p)
	}
	return s.lists.Load(k, func() (*ConversationList, error) { return s.readConversations(ctx, p) })
}

// readConversations reads page p of the conversations from the database.
func (s *Service) readConversations(ctx context.Context, p ConversationListParams) (*ConversationList, error) {
	base, err := conversationFilter(p)
	if err != nil {
		return nil, err
	}
	v, _ := viewer.FromContext(ctx)
	q := s.Client(ctx).Conversation.Query().Where(base...)
	counts, err := countConversations(ctx, q.Clone(), v.UserID)
	if err != nil {
		return nil, err
	}
	assignee, err := assigneeFilter(p.AssigneeType, v.UserID)
	if err != nil {
		return nil, err
	}
	page := core.ClampPage(p.Page)
	items, err := q.Where(assignee...).
		Order(ent.Desc(conversation.FieldLastActivityAt), ent.Desc(conversation.FieldID)).
		Offset(core.PageOffset(page, ConversationsPerPage)).Limit(ConversationsPerPage).
		WithContact(listedContact).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	if err := s.attachInboxes(ctx, items); err != nil {
		return nil, err
	}
	if err := s.attachLastMessages(ctx, items); err != nil {
		return nil, err
	}
	return &ConversationList{Items: items, Counts: counts, Page: page}, nil
}

// listedContact reads what a listed conversation shows of its contact (all
// but the search text), not whole rows: a page's 25 contacts were most of
// the list's reading. The list's items carry only these fields of their
// contact.
func listedContact(q *ent.ContactQuery) {
	q.Select(contact.FieldCreatedAt, contact.FieldUpdatedAt, contact.FieldAccountID, contact.FieldName,
		contact.FieldEmail, contact.FieldPhoneNumber, contact.FieldIdentifier, contact.FieldBlocked,
		contact.FieldAvatarURL, contact.FieldAdditionalAttributes, contact.FieldCustomAttributes,
		contact.FieldLabels, contact.FieldLastActivityAt)
}

// countConversations counts q's conversations in all, the user's, the
// assigned and the unassigned in one statement (conditional aggregates)
// rather than one COUNT each: the list is the most read route.
func countConversations(ctx context.Context, q *ent.ConversationQuery, userID int) (ConversationCounts, error) {
	var rows []struct {
		All      int `json:"all_count"`
		Assigned int `json:"assigned_count"`
		Mine     int `json:"mine_count"`
	}
	err := q.Select().Modify(func(s *sql.Selector) {
		assignee := s.C(conversation.FieldAssigneeID)
		s.Select(sql.As(sql.Count("*"), "all_count"), sql.As(sql.Count(assignee), "assigned_count"))
		s.AppendSelectExprAs(sql.ExprFunc(func(b *sql.Builder) {
			b.WriteString("COALESCE(SUM(CASE WHEN " + assignee + " = ").Arg(userID).WriteString(" THEN 1 ELSE 0 END), 0)")
		}), "mine_count")
	}).Scan(ctx, &rows)
	if err != nil {
		return ConversationCounts{}, apperr.From(err)
	}
	if len(rows) != 1 {
		return ConversationCounts{}, fmt.Errorf("counting conversations: %d rows, want 1", len(rows))
	}
	r := rows[0]
	return ConversationCounts{All: r.All, Assigned: r.Assigned, Unassigned: r.All - r.Assigned, Mine: r.Mine}, nil
}

func conversationFilter(p ConversationListParams) ([]predicate.Conversation, error) {
	var preds []predicate.Conversation
	switch p.Status {
	case "", "open":
		preds = append(preds, conversation.StatusEQ(conversation.StatusOpen))
	case "all":
	default:
		st := conversation.Status(p.Status)
		if conversation.StatusValidator(st) != nil {
			return nil, apperr.Invalid("Status must be open, resolved, pending, snoozed or all", "status")
		}
		preds = append(preds, conversation.StatusEQ(st))
	}
	if p.InboxID != 0 {
		preds = append(preds, conversation.InboxID(p.InboxID))
	}
	if p.TeamID != 0 {
		preds = append(preds, conversation.TeamID(p.TeamID))
	}
	labels := core.UniqueStrings(p.Labels)
	if len(labels) > schema.MaxLabels {
		return nil, apperr.Invalidf("labels", "A list filters by at most %d labels", schema.MaxLabels)
	}
	if len(labels) > 0 { // any of them, as Chatwoot's tagged_with(labels, any: true)
		anyLabel := make([]predicate.Conversation, 0, len(labels))
		for _, l := range labels {
			anyLabel = append(anyLabel, func(s *sql.Selector) {
				s.Where(sqljson.ValueContains(s.C(conversation.FieldLabels), l))
			})
		}
		preds = append(preds, conversation.Or(anyLabel...))
	}
	return preds, nil
}

func assigneeFilter(t string, userID int) ([]predicate.Conversation, error) {
	switch t {
	case "", "all":
		return nil, nil
	case "me":
		return []predicate.Conversation{conversation.AssigneeID(userID)}, nil
	case "assigned":
		return []predicate.Conversation{conversation.AssigneeIDNotNil()}, nil
	case "unassigned":
		return []predicate.Conversation{conversation.AssigneeIDIsNil()}, nil
	}
	return nil, apperr.Invalid("Assignee type must be me, assigned, unassigned or all", "assignee_type")
}

// newestMessageIDs selects the newest message id of each conversation of
// ids, each found by its own seek down the (conversation_id, id) index: a
// MAX per group over "conversation_id IN (...)" would read every message of
// the page's conversations, however long they are.
func newestMessageIDs(ids []any) *sql.Selector {
	c := sql.Table(conversation.Table).As("c")
	m := sql.Table(message.Table).As("m")
	newest := sql.Select(sql.Max(m.C(message.FieldID))).From(m).
		Where(sql.ColumnsEQ(m.C(message.FieldConversationID), c.C(conversation.FieldID)))
	return sql.SelectExpr(sql.ExprFunc(func(b *sql.Builder) {
		b.Wrap(func(b *sql.Builder) { b.Join(newest) })
	})).From(c).Where(sql.In(c.C(conversation.FieldID), ids...))
}

// isNewestMessage is the predicate "sel's message is the newest of its
// conversation, of ids". PostgreSQL gets the ids as an array, which it
// looks up through the primary key: for "id IN (subquery)" it planned a
// hash join over a scan of all the account's messages once the table's
// statistics made that look cheap (2,000 messages: 0.96 ms against 0.08 ms
// warm, and growing with the account).
func isNewestMessage(sel *sql.Selector, ids []any) *sql.Predicate {
	newest := newestMessageIDs(ids)
	if sel.Dialect() != dialect.Postgres {
		return sql.In(sel.C(message.FieldID), newest)
	}
	return sql.P(func(b *sql.Builder) {
		b.Ident(sel.C(message.FieldID)).WriteString(" = ANY(ARRAY")
		b.Wrap(func(b *sql.Builder) { b.Join(newest) })
		b.WriteByte(')')
	})
}

// attachInboxes gives each conversation its inbox from the inboxes' memory
// (inboxes.InboxesOf, which reads what it does not hold in one statement):
// a page names few inboxes, which change rarely. One the viewer may not
// read stays unset.
func (s *Service) attachInboxes(ctx context.Context, convs []*ent.Conversation) error {
	ids := make([]int, len(convs))
	for i, cv := range convs {
		ids[i] = cv.InboxID
	}
	ibs, err := s.inboxes.InboxesOf(ctx, s.Client(ctx), ids)
	if err != nil {
		return err
	}
	for _, cv := range convs {
		cv.Edges.Inbox = ibs[cv.InboxID]
	}
	return nil
}

// attachLastMessages loads each conversation's latest message (Chatwoot's
// messages[] of a list item) in one statement, whatever the page size: the
// newest id per conversation, read through the (conversation_id, id) index.
func (s *Service) attachLastMessages(ctx context.Context, convs []*ent.Conversation) error {
	if len(convs) == 0 {
		return nil
	}
	ids := make([]any, len(convs))
	for i, cv := range convs {
		ids[i] = cv.ID
		cv.Edges.Messages = []*ent.Message{}
	}
	last, err := s.Client(ctx).Message.Query().Where(func(sel *sql.Selector) {
		sel.Where(isNewestMessage(sel, ids))
	}).All(ctx)
	if err != nil {
		return apperr.From(err)
	}
	byConversation := make(map[int]*ent.Message, len(last))
	for _, m := range last {
		byConversation[m.ConversationID] = m
	}
	for _, cv := range convs {
		if m := byConversation[cv.ID]; m != nil {
			cv.Edges.Messages = []*ent.Message{m}
		}
	}
	return nil
}
