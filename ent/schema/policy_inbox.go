package schema

import (
	"context"
	"fmt"

	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqlgraph"
	"entgo.io/ent/entql"

	gen "github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/cardnote"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/inboxmember"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/ent/privacy"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Inbox visibility: an agent works in the inboxes it is a member of, and
// everything inside an inbox (conversations, messages, scheduled messages,
// the files of both) exists for it only there. Administrators see the whole
// account. These rules are the only place that says so.

// memberInbox is the one definition of "an inbox the user is a member of".
func memberInbox(userID int) predicate.Inbox {
	return inbox.HasMembersWith(inboxmember.UserID(userID))
}

// VisibleConversation is the inbox rule as a predicate on conversations,
// for filters that reach conversations through another entity's edge (a
// card's conversation's contact): such a filter is a subquery, which the
// privacy rules do not run. For an agent it holds the conversations of its
// inboxes; for anyone else it is nil, and narrows nothing.
func VisibleConversation(ctx context.Context) predicate.Conversation {
	worked := WorkedInbox(ctx)
	if worked == nil {
		return nil
	}
	return conversation.HasInboxWith(worked)
}

// WorkedInbox is the inbox rule as a predicate on inboxes: every member
// reads the account's inboxes, but an agent works (reads conversations and
// contacts' links, writes) only in its own. For an agent it holds those;
// for anyone else it is nil, and narrows nothing.
func WorkedInbox(ctx context.Context) predicate.Inbox {
	v, ok := actingAgent(ctx)
	if !ok {
		return nil
	}
	return memberInbox(v.UserID)
}

// actingAgent returns the viewer when it is an agent (a member who is not an
// administrator): the only caller the inbox rules narrow.
func actingAgent(ctx context.Context) (viewer.Viewer, bool) {
	v, _ := viewer.FromContext(ctx)
	return v, v.IsMember() && !v.IsAdmin()
}

// agentInboxRule narrows one entity's queries (and updates and deletes) to
// the agent's inboxes; apply adds the entity's own path to the inbox.
func agentInboxRule(apply func(f privacy.Filter, memberInbox predicate.Inbox) bool) privacy.QueryMutationRule {
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		v, ok := actingAgent(ctx)
		if !ok {
			return privacy.Skip
		}
		if !apply(f, memberInbox(v.UserID)) {
			return privacy.Denyf("unexpected filter %T", f)
		}
		return privacy.Skip
	})
}

// agentCreatesInMemberInbox refuses an agent a new row in an inbox it is not
// a member of (the inbox itself is visible to it, so this is a 403).
func agentCreatesInMemberInbox() privacy.MutationRule {
	return privacy.MutationRuleFunc(func(ctx context.Context, m ent.Mutation) error {
		v, ok := actingAgent(ctx)
		if !ok || !m.Op().Is(ent.OpCreate) {
			return privacy.Skip
		}
		value, set := m.Field("inbox_id")
		id, isInt := value.(int)
		if !set || !isInt {
			return privacy.Skip
		}
		cm, ok := m.(interface{ Client() *gen.Client })
		if !ok {
			return privacy.Denyf("unexpected mutation %T", m)
		}
		member, err := cm.Client().Inbox.Query().Where(inbox.ID(id), memberInbox(v.UserID)).Exist(ctx)
		if err != nil {
			return privacy.Denyf("checking inbox membership: %v", err)
		}
		if !member {
			return fmt.Errorf("%w: %w", privacy.Deny, viewer.ErrNotInboxMember)
		}
		return privacy.Skip
	})
}

// inboxPolicy is the inbox rule for an entity: filtered reads, updates and
// deletes, and creates only in the agent's inboxes.
func inboxPolicy(apply func(f privacy.Filter, memberInbox predicate.Inbox) bool) privacy.Policy {
	rule := agentInboxRule(apply)
	return privacy.Policy{
		Query: privacy.QueryPolicy{rule},
		Mutation: privacy.MutationPolicy{
			agentCreatesInMemberInbox(),
			privacy.OnMutationOperation(rule, ent.OpUpdate|ent.OpUpdateOne|ent.OpDelete|ent.OpDeleteOne),
		},
	}
}

// conversationPolicy: agents work the conversations of their inboxes only.
func conversationPolicy() ent.Policy {
	return inboxPolicy(func(f privacy.Filter, memberInbox predicate.Inbox) bool {
		cf, ok := f.(interface{ WhereHasInboxWith(...predicate.Inbox) })
		if ok {
			cf.WhereHasInboxWith(memberInbox)
		}
		return ok
	})
}

// contactInboxPolicy: a contact is the account's, but its link to an inbox
// is the inbox's. The link's source id is what the inbox's channel, and its
// public client API, know the contact by: with it and the inbox's public
// identifier anyone reads the contact's conversations there. So an agent
// reads the links of its own inboxes only. (It may still link a contact to
// any inbox of the account, as Chatwoot's agents may: contacts are the
// account's. It is answered the link it made, as written, and reads no link
// there afterwards.)
func contactInboxPolicy() ent.Policy {
	return privacy.Policy{Query: privacy.QueryPolicy{agentInboxRule(func(f privacy.Filter, memberInbox predicate.Inbox) bool {
		cf, ok := f.(interface{ WhereHasInboxWith(...predicate.Inbox) })
		if ok {
			cf.WhereHasInboxWith(memberInbox)
		}
		return ok
	})}}
}

// messagePolicy: agents see the messages of their inboxes only.
func messagePolicy() ent.Policy {
	return inboxPolicy(func(f privacy.Filter, memberInbox predicate.Inbox) bool {
		mf, ok := f.(interface {
			WhereHasConversationWith(...predicate.Conversation)
		})
		if ok {
			mf.WhereHasConversationWith(conversation.HasInboxWith(memberInbox))
		}
		return ok
	})
}

// scheduledMessagePolicy: agents see and schedule in their inboxes only, and
// change only the schedules they wrote.
func scheduledMessagePolicy() ent.Policy {
	p := inboxPolicy(func(f privacy.Filter, memberInbox predicate.Inbox) bool {
		sf, ok := f.(interface{ WhereHasInboxWith(...predicate.Inbox) })
		if ok {
			sf.WhereHasInboxWith(memberInbox)
		}
		return ok
	})
	p.Mutation = append(p.Mutation, authorOrAdmin(viewer.ErrNotScheduleAuthor,
		func(ctx context.Context, m ent.Mutation, userID int) (bool, error) {
			sm, ok := m.(*gen.ScheduledMessageMutation)
			if !ok {
				return false, fmt.Errorf("unexpected mutation %T", m)
			}
			ids, err := sm.IDs(ctx)
			if err != nil || len(ids) == 0 {
				return false, err
			}
			return sm.Client().ScheduledMessage.Query().Where(scheduledmessage.IDIn(ids...),
				scheduledmessage.Or(scheduledmessage.AuthorIDIsNil(), scheduledmessage.AuthorIDNEQ(userID))).Exist(ctx)
		}))
	return p
}

// cardNotePolicy: a note is changed by its author or an administrator.
func cardNotePolicy() ent.Policy {
	return privacy.Policy{Mutation: privacy.MutationPolicy{authorOrAdmin(viewer.ErrNotNoteAuthor,
		func(ctx context.Context, m ent.Mutation, userID int) (bool, error) {
			nm, ok := m.(*gen.CardNoteMutation)
			if !ok {
				return false, fmt.Errorf("unexpected mutation %T", m)
			}
			ids, err := nm.IDs(ctx)
			if err != nil || len(ids) == 0 {
				return false, err
			}
			return nm.Client().CardNote.Query().Where(cardnote.IDIn(ids...),
				cardnote.Or(cardnote.AuthorIDIsNil(), cardnote.AuthorIDNEQ(userID))).Exist(ctx)
		})}}
}

// authorOrAdmin is the author-or-administrator rule: an agent's update or
// delete that would touch a row written by someone else is refused with
// reason. othersRows reports whether the mutation reaches such a row.
func authorOrAdmin(reason error, othersRows func(ctx context.Context, m ent.Mutation, userID int) (bool, error)) privacy.MutationRule {
	return privacy.OnMutationOperation(privacy.MutationRuleFunc(func(ctx context.Context, m ent.Mutation) error {
		v, ok := actingAgent(ctx)
		if !ok {
			return privacy.Skip
		}
		others, err := othersRows(ctx, m, v.UserID)
		if err != nil {
			return privacy.Denyf("checking the author: %v", err)
		}
		if others {
			return fmt.Errorf("%w: %w", privacy.Deny, reason)
		}
		return privacy.Skip
	}), ent.OpUpdate|ent.OpUpdateOne|ent.OpDelete|ent.OpDeleteOne)
}

// attachmentPolicy: a file is visible where its message or its scheduled
// message is.
func attachmentPolicy() ent.Policy {
	rule := agentInboxRule(func(f privacy.Filter, memberInbox predicate.Inbox) bool {
		af, ok := f.(interface{ Where(entql.P) })
		if ok {
			af.Where(entql.Or(
				entql.HasEdgeWith("message", edgeWith(message.HasConversationWith(conversation.HasInboxWith(memberInbox)))),
				entql.HasEdgeWith("scheduled_message", edgeWith(scheduledmessage.HasInboxWith(memberInbox))),
			))
		}
		return ok
	})
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule},
		Mutation: privacy.MutationPolicy{privacy.OnMutationOperation(rule, ent.OpUpdate|ent.OpUpdateOne|ent.OpDelete|ent.OpDeleteOne)},
	}
}

// edgeWith turns a generated predicate of the edge's target into an entql
// predicate for HasEdgeWith.
func edgeWith[P ~func(*sql.Selector)](p P) entql.P {
	return sqlgraph.WrapFunc(func(s *sql.Selector) { p(s) })
}
