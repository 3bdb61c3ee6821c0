package events

// Installation is the account number of events about the whole installation
// rather than one account (no account has id 0): they travel between
// instances like any other event, and only in-process listeners of account 0
// receive them.
const Installation = 0

// KindCredentialsChanged says an access token, a membership, a role or an
// account's status changed somewhere: every instance drops the tokens it
// verified, so the change takes effect at once everywhere.
const KindCredentialsChanged Kind = "credentials_changed"

// KindInboxesChanged says an inbox was written (or an account deleted)
// somewhere: every instance forgets the inboxes it remembered (those its
// channel lookups found, those read by id).
const KindInboxesChanged Kind = "inboxes_changed"

// KindWebhooksChanged says a webhook subscription was written somewhere:
// every instance forgets which accounts it found without one.
const KindWebhooksChanged Kind = "webhooks_changed"

// KindConversationsChanged says something a conversation page shows was
// written somewhere: every instance forgets the pages it kept.
const KindConversationsChanged Kind = "conversations_changed"

// Listen calls f with every event of accountID delivered to this instance
// until cancel is called. f runs inside Deliver, so it must be quick and
// must not publish.
func (h *Hub) Listen(accountID int, f func(Event)) (cancel func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.funcs == nil {
		h.funcs = map[int]map[*func(Event)]struct{}{}
	}
	if h.funcs[accountID] == nil {
		h.funcs[accountID] = map[*func(Event)]struct{}{}
	}
	key := &f
	h.funcs[accountID][key] = struct{}{}
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.funcs[accountID], key)
	}
}
