package conversations

import (
	"context"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Conversation pages. The list is the most read route and the dearest of
// the hot reads: a page of 25 conversations with their contacts and last
// messages costs several times a contact's show however its statements are
// written (docs/performance.md). Consoles and integrations ask for the same
// page again and again between changes, so the page a user was given is
// kept for a moment and given to the same user again, until anything it
// shows is written: then the pages of the account written are forgotten
// (every page, when the write's account is not known), in this process as
// the write happens and on the other instances through the hub
// (core.Cache).
// The lifetime bounds what no write announces: the reply window closing
// with time (can_reply), and an instance that missed an announcement.
const (
	listCacheTTL  = 2 * time.Second
	listCacheSize = 200
	// maxKeptPage bounds a page kept: a page is some 30 kB, but its texts
	// and attributes may hold megabytes (150,000-character messages), and
	// those are read again instead. The cache holds 25 MB at worst.
	maxKeptPage = 128 << 10
)

// listKey is a page as one user asked for it. The whole viewer is part of
// it: what a page holds depends on the user's role and inboxes (the
// privacy rules) and on who "me" is.
type listKey struct {
	userID, accountID int
	role              viewer.Role
	platform          bool
	status, assignee  string
	inboxID, teamID   int
	labels            string
	page              int
}

func newListCache(c *core.Core) *core.Cache[listKey, *ConversationList] {
	return core.NewScopedCache[listKey, *ConversationList](c, core.CacheOptions{Name: "conversation_pages", Kind: events.KindConversationsChanged,
		TTL: listCacheTTL, Size: listCacheSize, Changes: changesConversationList, Keep: smallPage})
}

// Scope is the account whose pages a change there forgets (core.Scoped).
func (k listKey) Scope() int { return k.accountID }

// listKeyOf is the key of ctx's page p, and whether it may be kept: only a
// user's, read outside a transaction (what is read inside one is bound to
// it, and may be rolled back). Its texts are copies: a caller's strings may
// alias a request buffer (Fiber's query values do), which the next request
// overwrites, and a kept key that changed under the map would then find
// another filter's page ("pending" and "snoozed" are both seven bytes).
func listKeyOf(ctx context.Context, p ConversationListParams) (listKey, bool) {
	v, ok := viewer.FromContext(ctx)
	if !ok || v.UserID == 0 || v.System || v.Visitor != nil || ent.TxFromContext(ctx) != nil {
		return listKey{}, false
	}
	return listKey{userID: v.UserID, accountID: v.AccountID, role: v.Role, platform: v.Platform,
		status: strings.Clone(p.Status), assignee: strings.Clone(p.AssigneeType), inboxID: p.InboxID, teamID: p.TeamID,
		labels: strings.Clone(strings.Join(p.Labels, "\x00")), page: core.ClampPage(p.Page)}, true
}

// unlistedTypes are the entities a conversation page shows nothing of.
// Any other write forgets the pages: a type added later does too, until it
// is named here.
var unlistedTypes = map[string]bool{
	ent.TypeAccessToken: true, ent.TypeAutomationRun: true, ent.TypeCardNote: true,
	ent.TypeCardStageHistory: true, ent.TypeChecklistItem: true, ent.TypeConsoleSession: true,
	ent.TypeFunnel: true, ent.TypeFunnelStage: true, ent.TypeIdempotencyKey: true,
	ent.TypeKanbanAutomation: true, ent.TypeKanbanConfig: true, ent.TypeKanbanItem: true,
	ent.TypeMailboxState: true, ent.TypeMessageDeliveryAttempt: true, ent.TypePlatformToken: true,
	ent.TypeScheduledMessage: true, ent.TypeWebhookDelivery: true, ent.TypeWebhookDeliveryAttempt: true,
	ent.TypeWebhookSubscription: true,
}

// changesConversationList: a write of anything a page shows or depends on
// (conversations, messages and their files, contacts, inboxes, teams,
// users, memberships, roles, accounts, and the rare writes of labels and
// attribute definitions).
func changesConversationList(m ent.Mutation) bool { return !unlistedTypes[m.Type()] }

// smallPage reports whether page l (a *ConversationList) is small enough
// to keep.
func smallPage(l any) bool {
	page, ok := l.(*ConversationList)
	return ok && pageBytes(page) <= maxKeptPage
}

// pageBytes estimates what a page holds: its texts and attributes, and a
// fixed share for each conversation's other fields.
func pageBytes(l *ConversationList) int {
	const fixed = 512
	n := 0
	for _, cv := range l.Items {
		n += fixed + valueBytes(cv.AdditionalAttributes) + valueBytes(cv.CustomAttributes) + valueBytes(cv.Labels)
		if ct := cv.Edges.Contact; ct != nil {
			n += fixed + len(ct.Name) + len(ct.AvatarURL) + valueBytes(ct.Email) + valueBytes(ct.PhoneNumber) +
				valueBytes(ct.Identifier) + valueBytes(ct.AdditionalAttributes) + valueBytes(ct.CustomAttributes) +
				valueBytes(ct.Labels)
		}
		for _, m := range cv.Edges.Messages {
			n += fixed + valueBytes(m.Content) + valueBytes(m.ContentAttributes) +
				valueBytes(m.AdditionalAttributes) + valueBytes(m.TemplateParams)
		}
	}
	return n
}

// valueBytes estimates the size of a decoded JSON value or a text field.
func valueBytes(v any) int {
	switch x := v.(type) {
	case string:
		return len(x)
	case *string:
		if x == nil {
			return 0
		}
		return len(*x)
	case []string:
		n := 0
		for _, s := range x {
			n += 16 + len(s)
		}
		return n
	case map[string]any:
		n := 0
		for k, e := range x {
			n += 16 + len(k) + valueBytes(e)
		}
		return n
	case []any:
		n := 0
		for _, e := range x {
			n += 16 + valueBytes(e)
		}
		return n
	}
	return 8 // a number, a bool or null
}
