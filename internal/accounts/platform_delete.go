package accounts

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accesstoken"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/consolesession"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/viewer"
)

// DeleteUser deletes a user (platform API), in one transaction: each
// membership ends as RemoveAccountUser ends it, the user's tokens and
// console sessions go, cards lose them as an assignee and their pending
// schedules fail (a schedule never outlives its author's rights). Messages they sent keep their sender_id,
// as Chatwoot's do.
func (s *Service) DeleteUser(ctx context.Context, id int) error {
	if v, _ := viewer.FromContext(ctx); !v.Platform {
		return apperr.Forbidden("You are not authorized to do this action: users are deleted through the platform API")
	}
	return core.ApperrOrNil(s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		if _, err := c.User.Get(ctx, id); err != nil {
			return core.NotFound(err, "User")
		}
		accounts, err := c.AccountUser.Query().Where(accountuser.UserID(id)).
			Select(accountuser.FieldAccountID).Ints(ctx)
		if err != nil {
			return err
		}
		for _, accountID := range accounts {
			if err := removeMembership(ctx, c, accountID, id); err != nil {
				return err
			}
		}
		return deleteUserRow(ctx, c, id)
	}))
}

// deleteUserRow removes what still points at the user, then the user.
func deleteUserRow(ctx context.Context, c *ent.Client, id int) error {
	if _, err := c.AccessToken.Delete().Where(accesstoken.UserID(id)).Exec(ctx); err != nil {
		return err
	}
	if _, err := c.ConsoleSession.Delete().Where(consolesession.UserID(id)).Exec(ctx); err != nil {
		return err
	}
	// A schedule speaks in its author's name and must not outlive them
	// (see authorMayPost): what was still to fire fails, and the history
	// keeps its rows without the author.
	if err := c.ScheduledMessage.Update().
		Where(scheduledmessage.AuthorID(id), scheduledmessage.StatusEQ(scheduledmessage.StatusPending)).
		SetStatus(scheduledmessage.StatusFailed).SetFailureReason("The author of this scheduled message was deleted").
		ClearNextOccurrenceAt().Exec(ctx); err != nil {
		return err
	}
	if err := c.ScheduledMessage.Update().Where(scheduledmessage.AuthorID(id)).ClearAuthorID().Exec(ctx); err != nil {
		return err
	}
	if err := c.KanbanItem.Update().Where(kanbanitem.HasAssignedAgentsWith(user.ID(id))).
		RemoveAssignedAgentIDs(id).Exec(ctx); err != nil {
		return err
	}
	return c.User.DeleteOneID(id).Exec(ctx)
}
