// Package viewer says who is acting, and in which account, for the request or
// job that carries the context. Privacy rules in ent/schema read it, so it must
// stay free of any transport or database import.
package viewer

import (
	"context"
	"errors"
)

// Role is a member's role in an account.
type Role string

const (
	RoleAdministrator Role = "administrator"
	RoleAgent         Role = "agent"
)

// Viewer describes the caller. Exactly one of the kinds applies: a member of an
// account (UserID, AccountID, Role), the platform (provisioning API), the
// system itself (start-up, bootstrap, background jobs), or a visitor of the
// public client API (AccountID, Visitor).
type Viewer struct {
	UserID    int
	AccountID int
	Role      Role
	Platform  bool
	System    bool
	Visitor   *Visitor
}

// Visitor is a customer of a public inbox (an API or web widget inbox),
// named as they name themselves: the inbox and their contact inbox's source
// id. The privacy rules let them read their own contact, its conversations
// in that inbox and those conversations' public messages, and nothing else;
// they write nothing themselves (their messages are stored by the inbox's
// channel).
type Visitor struct {
	InboxID  int
	SourceID string
}

// IsVisitor reports whether the viewer is a public API visitor.
func (v Viewer) IsVisitor() bool { return v.Visitor != nil && !v.System && v.UserID == 0 }

// VisitorContext returns a copy of ctx acting for the visitor of inbox
// inboxID (of account accountID) whose contact inbox has sourceID.
func VisitorContext(ctx context.Context, accountID, inboxID int, sourceID string) context.Context {
	return NewContext(ctx, Viewer{AccountID: accountID, Visitor: &Visitor{InboxID: inboxID, SourceID: sourceID}})
}

// IsAdmin reports whether the viewer administers its account.
func (v Viewer) IsAdmin() bool { return v.Role == RoleAdministrator }

// SameAccess reports whether v and o are the same user in the same account
// with the same role: a live connection authenticated again goes on only
// while its viewer does (GraphQL's websockets, the console's live pages).
func (v Viewer) SameAccess(o Viewer) bool {
	return v.UserID == o.UserID && v.AccountID == o.AccountID && v.Role == o.Role
}

// IsMember reports whether the viewer is a user acting inside one account
// (the system acting on an account's behalf is not).
func (v Viewer) IsMember() bool { return !v.System && v.AccountID != 0 && v.UserID != 0 }

type ctxKey struct{}

// NewContext returns a copy of ctx that carries v.
func NewContext(ctx context.Context, v Viewer) context.Context {
	return context.WithValue(ctx, ctxKey{}, v)
}

// FromContext returns the viewer of ctx; ok is false when there is none.
func FromContext(ctx context.Context) (Viewer, bool) {
	v, ok := ctx.Value(ctxKey{}).(Viewer)
	return v, ok
}

// SystemContext marks ctx as acting for the system: it passes every privacy
// rule. Use it only where no caller is involved.
func SystemContext(ctx context.Context) context.Context {
	return NewContext(ctx, Viewer{System: true})
}

// ErrAdminOnly is the reason privacy rules give when an agent attempts an
// administrator-only action; transports map it to 403.
var ErrAdminOnly = errors.New("only administrators of the account may do this")

// ErrNotInboxMember is the reason given when an agent acts in an inbox it is
// not a member of; transports map it to 403.
var ErrNotInboxMember = errors.New("you are not a member of this inbox")

// ErrNotScheduleAuthor and ErrNotNoteAuthor are the reasons of the
// author-or-administrator rule; transports map them to 403.
var (
	ErrNotScheduleAuthor = errors.New("only the author of a scheduled message or an administrator may change it")
	ErrNotNoteAuthor     = errors.New("only the note's author or an administrator may change it")
)

// ErrNoViewer is the reason given when a context carries no viewer at all.
var ErrNoViewer = errors.New("no viewer in context")

// SystemInAccount acts for the system on one account's behalf (a schedule
// firing): it passes every privacy rule, and rows it creates belong to that
// account. userID, when not zero, is who the work is done for (the author
// of a scheduled message becomes its message's sender).
func SystemInAccount(ctx context.Context, accountID, userID int) context.Context {
	return NewContext(ctx, Viewer{System: true, AccountID: accountID, UserID: userID})
}
