package core

import (
	"context"
	"errors"
	"time"

	"github.com/switchboard/switchboard/ent/privacy"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Every place where an operation steps past the privacy rules is one of the
// functions below, each with its reason. None of them hands what it reads to
// the user of a request: they serve credentials before a viewer exists,
// background work that has no user, and data that leaves for the account's
// own integrations, or a channel's own customer. TestPrivacyBypassesStayListed
// fails when code anywhere else reaches for the system viewer or a privacy
// decision.

// AsCredentialCheck reads or writes credentials (tokens, password hashes)
// while authenticating: there is no viewer yet, and credentials are readable
// by the system only. A live console page re-checks its session this way
// (accounts.SessionLive): only the viewer the session still signs in as comes back.
func AsCredentialCheck(ctx context.Context) context.Context { return viewer.SystemContext(ctx) }

// AsBackgroundWork runs a job (a schedule firing, a channel delivery, a
// kanban automation run and its retries, file clean-up, the delivery logs'
// retention sweep, reopening the snoozed conversations whose time has come)
// that no user started; account-bound work narrows itself with
// AsAccountSystem.
func AsBackgroundWork(ctx context.Context) context.Context { return viewer.SystemContext(ctx) }

// AsWarmUp finds the inbox a starting server stores a synthetic customer's
// message through, in transactions it rolls back (conversations.WarmInbound):
// nothing it writes is kept, and nothing it reads leaves the process.
func AsWarmUp(ctx context.Context) context.Context { return viewer.SystemContext(ctx) }

// AsSeeding writes a synthetic dataset in bulk (cmd/loadtest): it runs
// before any request, outside every transport, and reads nothing for a user.
func AsSeeding(ctx context.Context) context.Context { return viewer.SystemContext(ctx) }

// AsAccountSystem acts for one account's system (a schedule firing in its
// author's name, the outbox of its webhooks, the record of its messages'
// deliveries, a snoozed conversation reopened): it passes every rule but stays inside the account (see
// scopeSystemToAccount in ent/schema/policy.go), so the caches know its
// writes are that account's (core.Scoped).
func AsAccountSystem(ctx context.Context, accountID, userID int) context.Context {
	return viewer.SystemInAccount(ctx, accountID, userID)
}

// AsOutbox reads what a webhook payload of the account needs: subscribers
// receive every event of their account, whoever caused it, so the payload
// must not depend on the inboxes of the user who acted. Nothing read this way
// goes back to that user.
func AsOutbox(ctx context.Context, accountID int) context.Context {
	return viewer.SystemInAccount(ctx, accountID, 0)
}

// AsUserDirectory finds a platform user by e-mail when an administrator adds
// an agent: the user may not belong to the account yet. Only the id is used
// to attach them; the profile is not changed.
func AsUserDirectory(ctx context.Context) context.Context { return viewer.SystemContext(ctx) }

// AsSignedLink serves an attachment whose download URL carries a valid
// signature: the signature, made for a viewer who could see the file, is
// the permission.
func AsSignedLink(ctx context.Context, accountID int) context.Context {
	return viewer.SystemInAccount(ctx, accountID, 0)
}

// AsContactMerge moves every conversation, schedule and contact inbox of the
// merged contact (which the caller loaded under its own rules) to the base
// contact and deletes it: the whole contact moves, not only the part in the
// caller's inboxes or of the caller's authorship, and an agent may merge
// where its role alone would not allow a plain delete (as in Chatwoot).
// Nothing is read back to the caller but the base contact, under its rules.
func AsContactMerge(ctx context.Context, accountID int) context.Context {
	return viewer.SystemInAccount(ctx, accountID, 0)
}

// AsStartup is the installation's own set-up (first start, bootstrap): there
// is no user yet.
func AsStartup(ctx context.Context) context.Context { return viewer.SystemContext(ctx) }

// AsLinkEcho compares a card's linked conversation with the display id a
// client sent back, so that an agent who cannot see that conversation may
// still save the card unchanged; only the comparison's result is used.
func AsLinkEcho(ctx context.Context, accountID int) context.Context {
	return viewer.SystemInAccount(ctx, accountID, 0)
}

// AsAuthor is the viewer a schedule's author would be, for asking the rules
// whether the author may still post what the schedule posts in their name.
// It is used to ask, never to read.
func AsAuthor(ctx context.Context, accountID, userID int, role viewer.Role) context.Context {
	return viewer.NewContext(ctx, viewer.Viewer{UserID: userID, AccountID: accountID, Role: role})
}

// AsAutomationActor runs a kanban automation's action as the member it acts
// for (the one whose change triggered it, or an administrator): the action
// then obeys the rules that member obeys.
func AsAutomationActor(ctx context.Context, actor viewer.Viewer) context.Context {
	return viewer.NewContext(ctx, actor)
}

// WithDisplayCounter lets any member take the account's next conversation
// display id (a counter on the account row, which only administrators may
// otherwise change); nothing else of the account is written or read back.
func WithDisplayCounter(ctx context.Context) context.Context {
	return privacy.DecisionContext(ctx, privacy.Allow)
}

// TakeDisplayIDApart takes the next n conversation display ids of the
// viewer's own account (it answers the first) with take (db.DB.TakeDisplayID: one UPDATE …
// RETURNING outside ent, so outside its rules), in a statement that commits
// at once, before the transaction that starts the conversation (see
// conversations.takesDisplayIDsApart). As with WithDisplayCounter, only the
// counter is written and only the new number is read: it becomes the
// conversation's own id, which whoever starts it sees anyway.
func TakeDisplayIDApart(ctx context.Context, take func(context.Context, int, int, time.Time) (int, error), n int, now time.Time) (int, error) {
	v, _ := viewer.FromContext(ctx)
	if v.AccountID == 0 {
		return 0, errors.New("taking a display id: the viewer acts in no account")
	}
	return take(ctx, v.AccountID, n, now)
}

// AsOwnProfile reads and writes the caller's own user row, named by their
// token (members may not set passwords through the privacy rules, and the
// user row is not account-scoped).
func AsOwnProfile(ctx context.Context) context.Context { return viewer.SystemContext(ctx) }

// AsMembershipCheck asks yes or no whether a user also belongs to another
// account, which the tenant filter hides; nothing of that account is read
// back.
func AsMembershipCheck(ctx context.Context) context.Context { return viewer.SystemContext(ctx) }

// AsIdempotencyRecord keeps the stored answers of Idempotency-Key requests,
// which only the system reads; a stored answer goes back only to the user
// who made it, under the same key.
func AsIdempotencyRecord(ctx context.Context) context.Context { return viewer.SystemContext(ctx) }

// AsOperator is the operator at the server's command line (switchboard
// users reset-password, tokens rotate): whoever runs it already holds the
// database, so no user rule applies; what it prints goes to that operator.
func AsOperator(ctx context.Context) context.Context { return viewer.SystemContext(ctx) }

// AsInboxLookup finds the inbox a channel's address names (a WhatsApp
// number, a mailbox, a widget's public identifier), in whichever account it
// is: the request is not verified yet, and is then checked against that
// inbox's own secret. Only the inbox's id, account and channel settings are
// used.
func AsInboxLookup(ctx context.Context) context.Context { return viewer.SystemContext(ctx) }

// AsChannel stores what a customer sent through an inbox's channel (a
// message, a delivery receipt) in the inbox's account, once the channel has
// proved itself (a signature, a verify token, the inbox's public
// identifier): no user acts. Nothing read this way goes back to anyone: a
// public API visitor's reads run as the visitor (viewer.VisitorContext),
// under the privacy rules.
func AsChannel(ctx context.Context, accountID int) context.Context {
	return viewer.SystemInAccount(ctx, accountID, 0)
}
