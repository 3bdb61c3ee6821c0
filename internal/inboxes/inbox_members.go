package inboxes

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/inboxmember"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/core"
)

// InboxMembers lists the agents of an inbox.
func (s *Service) InboxMembers(ctx context.Context, inboxID int) ([]*ent.AccountUser, error) {
	if _, err := s.Inbox(ctx, inboxID); err != nil {
		return nil, err
	}
	ids, err := s.Client(ctx).InboxMember.Query().Where(inboxmember.InboxID(inboxID)).
		Select(inboxmember.FieldUserID).Ints(ctx)
	if err != nil {
		return nil, core.ApperrOrNil(err)
	}
	return s.accounts.AgentsByUserID(ctx, ids)
}

// ChangeInboxMembers adds, replaces or removes an inbox's agents
// (administrators only).
func (s *Service) ChangeInboxMembers(ctx context.Context, inboxID int, change accounts.MemberChange, userIDs []int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	if _, err := s.Inbox(ctx, inboxID); err != nil {
		return err
	}
	return s.accounts.ChangeMembers(ctx, accounts.MemberSet{
		Current: func(ctx context.Context, c *ent.Client) ([]int, error) {
			return c.InboxMember.Query().Where(inboxmember.InboxID(inboxID)).Select(inboxmember.FieldUserID).Ints(ctx)
		},
		Add: func(ctx context.Context, c *ent.Client, ids []int) error {
			return c.InboxMember.MapCreateBulk(ids, func(b *ent.InboxMemberCreate, i int) {
				b.SetInboxID(inboxID).SetUserID(ids[i])
			}).Exec(ctx)
		},
		Remove: func(ctx context.Context, c *ent.Client, ids []int) error {
			_, err := c.InboxMember.Delete().Where(inboxmember.InboxID(inboxID), inboxmember.UserIDIn(ids...)).Exec(ctx)
			return err
		},
	}, change, userIDs)
}

// DeleteInbox deletes an inbox with its conversations and contact inboxes
// (administrators only).
func (s *Service) DeleteInbox(ctx context.Context, id int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	return core.ApperrOrNil(core.NotFound(s.Client(ctx).Inbox.DeleteOneID(id).Exec(ctx), "Inbox"))
}

// WorksIn reports whether the viewer may see what is inside an inbox, for a
// listener told about a row that is gone. It asks the inbox rule itself
// (could the viewer create a conversation there?) rather than restate it.
func (s *Service) WorksIn(ctx context.Context, inboxID int) bool {
	return core.PolicyAllows(ctx, conversation.Policy, s.DB.Conversation.Create().SetInboxID(inboxID).Mutation()) == nil
}
