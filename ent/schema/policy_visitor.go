package schema

import (
	"context"
	"fmt"

	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/entql"

	gen "github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/ent/privacy"
	"github.com/switchboard/switchboard/internal/viewer"
)

// A visitor of the public client API (viewer.Visitor) reads its own
// contact inbox and contact, the contact's conversations in the inbox
// (every one once the identity is verified, as Chatwoot shows a verified
// contact's history on any device; otherwise those of this contact inbox),
// their public messages (no private note, no activity line) with their
// files, and the agents who sent those. It reads nothing else and writes
// nothing: its messages are stored by the inbox's channel. These rules are
// the only place that says so.

// ownContactInbox is the contact inbox the visitor names.
func ownContactInbox(v *viewer.Visitor) predicate.ContactInbox {
	return contactinbox.And(contactinbox.InboxID(v.InboxID), contactinbox.SourceID(v.SourceID))
}

// visitorConversations are the conversations the visitor may read.
func visitorConversations(v *viewer.Visitor) predicate.Conversation {
	own := ownContactInbox(v)
	return conversation.And(conversation.InboxID(v.InboxID), conversation.Or(
		conversation.HasContactInboxWith(own),
		conversation.HasContactWith(contact.HasContactInboxesWith(own, contactinbox.HmacVerified(true))),
	))
}

// visitorMessages are the messages the visitor may read (Chatwoot's
// filter_internal_messages).
func visitorMessages(v *viewer.Visitor) predicate.Message {
	return message.And(message.Private(false), message.MessageTypeNEQ(message.MessageTypeActivity),
		message.HasConversationWith(visitorConversations(v)))
}

// narrowToVisitor adds the visitor's part of one entity to f, and reports
// false for an entity a visitor may not read at all.
func narrowToVisitor(f privacy.Filter, v *viewer.Visitor) bool {
	switch f := f.(type) {
	case *gen.ContactInboxFilter:
		f.WhereInboxID(entql.IntEQ(v.InboxID))
		f.WhereSourceID(entql.StringEQ(v.SourceID))
	case *gen.ContactFilter:
		f.WhereHasContactInboxesWith(ownContactInbox(v))
	case *gen.ConversationFilter:
		own := ownContactInbox(v)
		f.WhereInboxID(entql.IntEQ(v.InboxID))
		f.Where(entql.Or(
			entql.HasEdgeWith(conversation.EdgeContactInbox, edgeWith(own)),
			entql.HasEdgeWith(conversation.EdgeContact, edgeWith(contact.HasContactInboxesWith(own, contactinbox.HmacVerified(true)))),
		))
	case *gen.MessageFilter:
		f.WherePrivate(entql.BoolEQ(false))
		f.WhereMessageType(entql.StringNEQ(string(message.MessageTypeActivity)))
		f.WhereHasConversationWith(visitorConversations(v))
	case *gen.AttachmentFilter:
		f.WhereHasMessageWith(visitorMessages(v))
	default:
		return false
	}
	return true
}

// visitorReads narrows a visitor's queries to its own rows (and its
// account's) and decides them: the member rules after it do not apply.
func visitorReads() privacy.QueryRule {
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		v, _ := viewer.FromContext(ctx)
		if !v.IsVisitor() {
			return privacy.Skip
		}
		af, ok := f.(interface{ WhereAccountID(entql.IntP) })
		if !ok || !narrowToVisitor(f, v.Visitor) {
			return privacy.Denyf("a visitor may not read %T", f)
		}
		af.WhereAccountID(entql.IntEQ(v.AccountID))
		return privacy.Allow
	})
}

// visitorsWriteNothing refuses every write of a visitor viewer.
func visitorsWriteNothing() privacy.MutationRule {
	return privacy.MutationRuleFunc(func(ctx context.Context, m ent.Mutation) error {
		if v, _ := viewer.FromContext(ctx); v.IsVisitor() {
			return fmt.Errorf("%w: a visitor writes nothing itself (%s)", privacy.Deny, m.Type())
		}
		return privacy.Skip
	})
}

// visitorSeesSenders lets a visitor read the agents who sent the messages
// it may read (their names and avatars are shown with them).
func visitorSeesSenders() privacy.QueryRule {
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		v, _ := viewer.FromContext(ctx)
		if !v.IsVisitor() {
			return privacy.Skip
		}
		uf, ok := f.(*gen.UserFilter)
		if !ok {
			return privacy.Denyf("unexpected filter %T", f)
		}
		// Through the membership: a member of the account who sent one of
		// the messages the visitor reads.
		uf.WhereHasMembershipsWith(accountuser.AccountID(v.AccountID), func(s *sql.Selector) {
			t := sql.Table(message.Table)
			sent := sql.Select(t.C(message.FieldSenderID)).From(t)
			message.SenderTypeEQ(message.SenderTypeUser)(sent)
			visitorMessages(v.Visitor)(sent)
			s.Where(sql.In(s.C(accountuser.FieldUserID), sent))
		})
		return privacy.Allow
	})
}
