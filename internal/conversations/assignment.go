package conversations

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// Assignment changes who handles a conversation. A nil field stays as it
// is; 0 clears it (unassigned, no team).
type Assignment struct {
	AssigneeID *int
	TeamID     *int
}

// AssignConversation sets a conversation's assignee and team. The assignee
// must be an agent of the account and the team one of its teams, as when
// the conversation is created.
func (s *Service) AssignConversation(ctx context.Context, displayID int, in Assignment) (*ent.Conversation, error) {
	if in.AssigneeID == nil && in.TeamID == nil {
		return nil, apperr.Invalid("Name an assignee or a team to assign (or clear one)", "assignee_id", "team_id")
	}
	cv, err := s.Conversation(ctx, displayID)
	if err != nil {
		return nil, err
	}
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		errs := checkAssignment(ctx, c, nonZero(in.AssigneeID), nonZero(in.TeamID))
		if err := errs.Err(); err != nil {
			return err
		}
		upd := c.Conversation.UpdateOneID(cv.ID)
		switch {
		case in.AssigneeID == nil:
		case *in.AssigneeID == 0:
			upd.ClearAssigneeID()
		default:
			upd.SetAssigneeID(*in.AssigneeID)
		}
		switch {
		case in.TeamID == nil:
		case *in.TeamID == 0:
			upd.ClearTeamID()
		default:
			upd.SetTeamID(*in.TeamID)
		}
		if err := upd.Exec(ctx); err != nil {
			return err
		}
		return s.EmitConversationEvent(ctx, c, events.ConversationUpdated, cv)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Conversation(ctx, displayID)
}

// checkAssignment checks an assignee and a team named for a conversation
// (nil: none named).
func checkAssignment(ctx context.Context, c *ent.Client, assigneeID, teamID *int) core.FieldErrors {
	var errs core.FieldErrors
	if assigneeID != nil {
		if ok, err := c.AccountUser.Query().Where(accountuser.UserID(*assigneeID)).Exist(ctx); err != nil || !ok {
			errs.Add("assignee_id", "Assignee is not an agent of this account")
		}
	}
	if teamID != nil {
		if _, err := c.Team.Get(ctx, *teamID); err != nil {
			errs.Add("team_id", "Team does not exist in this account")
		}
	}
	return errs
}

func nonZero(p *int) *int {
	if p == nil || *p == 0 {
		return nil
	}
	return p
}

// SetConversationPriority sets a conversation's priority, as Chatwoot's toggle_priority
// does: low, medium, high or urgent; "" or "none" clears it. The same
// priority again changes nothing and tells nobody.
func (s *Service) SetConversationPriority(ctx context.Context, displayID int, priority string) (*ent.Conversation, error) {
	cv, err := s.Conversation(ctx, displayID)
	if err != nil {
		return nil, err
	}
	var p *conversation.Priority
	if priority != "" && priority != "none" {
		v := conversation.Priority(priority)
		if conversation.PriorityValidator(v) != nil {
			return nil, apperr.Invalid("Priority must be low, medium, high or urgent (none or null clears it)", "priority")
		}
		p = &v
	}
	if (p == nil && cv.Priority == nil) || (p != nil && cv.Priority != nil && *p == *cv.Priority) {
		return cv, nil
	}
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		upd := c.Conversation.UpdateOneID(cv.ID)
		if p == nil {
			upd.ClearPriority()
		} else {
			upd.SetPriority(*p)
		}
		if cv, err = upd.Save(ctx); err != nil {
			return err
		}
		return s.EmitConversationEvent(ctx, c, events.ConversationUpdated, cv)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Conversation(ctx, displayID)
}
