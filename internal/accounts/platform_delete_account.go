package accounts

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accesstoken"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/agentbot"
	"github.com/switchboard/switchboard/ent/attachment"
	"github.com/switchboard/switchboard/ent/automationrun"
	"github.com/switchboard/switchboard/ent/cardnote"
	"github.com/switchboard/switchboard/ent/cardstagehistory"
	"github.com/switchboard/switchboard/ent/checklistitem"
	"github.com/switchboard/switchboard/ent/consolesession"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/customattributedefinition"
	"github.com/switchboard/switchboard/ent/funnel"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/ent/idempotencykey"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/inboxmember"
	"github.com/switchboard/switchboard/ent/kanbanautomation"
	"github.com/switchboard/switchboard/ent/kanbanconfig"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/ent/label"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/messagedeliveryattempt"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/ent/team"
	"github.com/switchboard/switchboard/ent/teammember"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/ent/webhookdeliveryattempt"
	"github.com/switchboard/switchboard/ent/webhooksubscription"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/viewer"
)

// DeleteAccount deletes an account and everything in it (platform API), in
// one transaction, so that a failure leaves the account whole. Its users
// stay (they may belong to other accounts); its attachment files go after
// commit once nothing refers to them.
func (s *Service) DeleteAccount(ctx context.Context, id int) error {
	if v, _ := viewer.FromContext(ctx); !v.Platform {
		return apperr.Forbidden("You are not authorized to do this action: accounts are deleted through the platform API")
	}
	var keys []string
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		if _, err := c.Account.Get(ctx, id); err != nil {
			return core.NotFound(err, "Account")
		}
		var err error
		if keys, err = c.Attachment.Query().Where(attachment.AccountID(id)).
			Select(attachment.FieldStorageKey).Strings(ctx); err != nil {
			return err
		}
		for _, del := range accountContents(c, id) {
			if err := del(ctx); err != nil {
				return err
			}
		}
		return c.Account.DeleteOneID(id).Exec(ctx)
	})
	if err != nil {
		return core.ApperrOrNil(err)
	}
	if s.Files != nil {
		s.RemoveUnreferenced(ctx, keys)
	}
	return nil
}

// accountContents deletes an account's rows, each table after the tables
// whose rows point at it.
func accountContents(c *ent.Client, id int) []func(context.Context) error {
	exec := func(del interface {
		Exec(context.Context) (int, error)
	}) func(context.Context) error {
		return func(ctx context.Context) error { _, err := del.Exec(ctx); return err }
	}
	bots := agentbot.AccountID(id)
	return []func(context.Context) error{
		exec(c.WebhookDeliveryAttempt.Delete().Where(webhookdeliveryattempt.AccountID(id))),
		exec(c.MessageDeliveryAttempt.Delete().Where(messagedeliveryattempt.AccountID(id))),
		exec(c.WebhookDelivery.Delete().Where(webhookdelivery.AccountID(id))),
		exec(c.WebhookSubscription.Delete().Where(webhooksubscription.AccountID(id))),
		exec(c.Attachment.Delete().Where(attachment.AccountID(id))),
		exec(c.CardStageHistory.Delete().Where(cardstagehistory.AccountID(id))),
		exec(c.CardNote.Delete().Where(cardnote.AccountID(id))),
		exec(c.ChecklistItem.Delete().Where(checklistitem.AccountID(id))),
		func(ctx context.Context) error {
			return c.KanbanItem.Update().Where(kanbanitem.AccountID(id)).ClearAssignedAgents().Exec(ctx)
		},
		exec(c.KanbanItem.Delete().Where(kanbanitem.AccountID(id))),
		exec(c.AutomationRun.Delete().Where(automationrun.AccountID(id))),
		exec(c.KanbanAutomation.Delete().Where(kanbanautomation.AccountID(id))),
		exec(c.KanbanConfig.Delete().Where(kanbanconfig.AccountID(id))),
		exec(c.FunnelStage.Delete().Where(funnelstage.AccountID(id))),
		exec(c.Funnel.Delete().Where(funnel.AccountID(id))),
		exec(c.ScheduledMessage.Delete().Where(scheduledmessage.AccountID(id), scheduledmessage.ParentIDNotNil())),
		exec(c.ScheduledMessage.Delete().Where(scheduledmessage.AccountID(id))),
		// Through their conversations: messages have no index of account_id.
		exec(c.Message.Delete().Where(message.HasConversationWith(conversation.AccountID(id)))),
		exec(c.Conversation.Delete().Where(conversation.AccountID(id))),
		exec(c.ContactInbox.Delete().Where(contactinbox.AccountID(id))),
		exec(c.Contact.Delete().Where(contact.AccountID(id))),
		exec(c.InboxMember.Delete().Where(inboxmember.AccountID(id))),
		exec(c.TeamMember.Delete().Where(teammember.AccountID(id))),
		exec(c.Team.Delete().Where(team.AccountID(id))),
		exec(c.Label.Delete().Where(label.AccountID(id))),
		exec(c.CustomAttributeDefinition.Delete().Where(customattributedefinition.AccountID(id))),
		exec(c.Inbox.Delete().Where(inbox.AccountID(id))),
		exec(c.AccessToken.Delete().Where(accesstoken.HasAgentBotWith(bots))),
		exec(c.AgentBot.Delete().Where(bots)),
		exec(c.ConsoleSession.Delete().Where(consolesession.AccountID(id))),
		exec(c.IdempotencyKey.Delete().Where(idempotencykey.AccountID(id))),
		exec(c.AccountUser.Delete().Where(accountuser.AccountID(id))),
	}
}
