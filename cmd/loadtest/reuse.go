package main

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/account"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/db"
)

const (
	accountName = "Load Test"
	adminEmail  = "load@test.example"
)

// attach finds the account an earlier run seeded (-reuse), so a large
// dataset is seeded once and measured many times. It returns nil when the
// database holds no such account.
func attach(ctx context.Context, srv *server.Server, raw *db.DB, base string) (*world, error) {
	sys := core.AsSeeding(ctx)
	c := raw.Client
	acc, err := c.Account.Query().Where(account.Name(accountName)).Order(ent.Asc(account.FieldID)).First(sys)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	admin, err := c.User.Query().Where(user.Email(adminEmail)).Only(sys)
	if err != nil {
		return nil, err
	}
	// Tokens are stored hashed: the run needs a new one.
	token, err := srv.Svc.RotateAccessToken(ctx, adminEmail)
	if err != nil {
		return nil, err
	}
	w := &world{base: base, token: token, accountID: acc.ID, userID: admin.ID,
		client: newClient()}
	if w.inboxID, err = c.Inbox.Query().Where(inbox.AccountID(acc.ID)).Order(ent.Asc(inbox.FieldID)).FirstID(sys); err != nil {
		return nil, err
	}
	if w.contacts, err = c.Contact.Query().Where(contact.AccountID(acc.ID)).Order(ent.Asc(contact.FieldID)).IDs(sys); err != nil {
		return nil, err
	}
	err = c.Conversation.Query().Where(conversation.AccountID(acc.ID)).Order(ent.Asc(conversation.FieldDisplayID)).
		Select(conversation.FieldDisplayID).Scan(sys, &w.convs)
	if err != nil || len(w.convs) == 0 {
		return nil, fmt.Errorf("reading the seeded conversations: %v (%d found)", err, len(w.convs))
	}
	w.busyConv = w.convs[0]
	busy, err := c.Conversation.Query().Where(conversation.AccountID(acc.ID), conversation.DisplayID(w.busyConv)).OnlyID(sys)
	if err != nil {
		return nil, err
	}
	msgs := c.Message.Query().Where(message.ConversationID(busy))
	if w.firstMsg, err = msgs.Clone().Order(ent.Asc(message.FieldID)).FirstID(sys); err != nil {
		return nil, err
	}
	if w.lastMsg, err = msgs.Clone().Order(ent.Desc(message.FieldID)).FirstID(sys); err != nil {
		return nil, err
	}
	n, err := msgs.Clone().Count(sys)
	if err != nil {
		return nil, err
	}
	if err := attachBoard(sys, c, w); err != nil {
		return nil, err
	}
	w.sizes = sizes{contacts: len(w.contacts), conversations: len(w.convs), messages: n, cards: len(w.board.cards)}
	return w, nil
}

// analyze refreshes PostgreSQL's planner statistics after bulk seeding, as
// autovacuum would shortly after: plans are measured as production has them.
// SQLite is left as a fresh installation is, without statistics.
func analyze(ctx context.Context, raw *db.DB) error {
	if raw.Dialect != dialect.Postgres {
		return nil
	}
	_, err := raw.SQL.ExecContext(ctx, "ANALYZE")
	return err
}
