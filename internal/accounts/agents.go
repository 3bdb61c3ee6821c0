package accounts

import (
	"context"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/inboxmember"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/ent/teammember"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/viewer"
)

// An agent is a user's membership of the account; its public id is the
// user's id (as in Chatwoot), so user_ids everywhere name the same ids.

// AgentInput carries the fields of an agent create or update; nil means "not sent".
type AgentInput struct {
	Name         *string
	Email        *string
	Role         *string
	Availability *string
	AutoOffline  *bool
}

// Agents lists the account's agents.
func (s *Service) Agents(ctx context.Context) ([]*ent.AccountUser, error) {
	ms, err := s.Client(ctx).AccountUser.Query().WithUser().
		Order(ent.Asc(accountuser.FieldUserID)).All(ctx)
	return ms, core.ApperrOrNil(err)
}

// Agent returns the agent whose user id is userID.
func (s *Service) Agent(ctx context.Context, userID int) (*ent.AccountUser, error) {
	m, err := s.Client(ctx).AccountUser.Query().Where(accountuser.UserID(userID)).WithUser().Only(ctx)
	return m, core.ApperrOrNil(core.NotFound(err, "Agent"))
}

// CreateAgent attaches the platform user with the e-mail to the account, or
// invites a new user (without a password: the account API never sets one).
func (s *Service) CreateAgent(ctx context.Context, in AgentInput) (*ent.AccountUser, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	var errs core.FieldErrors
	name := strings.TrimSpace(core.Deref(in.Name))
	email := core.NormalizeEmail(core.Deref(in.Email))
	if name == "" {
		errs.Add("name", "Name can't be blank")
	}
	if !core.ValidEmail(email) {
		errs.Add("email", "Email is missing or invalid")
	}
	if in.Role == nil {
		errs.Add("role", "Role can't be blank: use agent or administrator")
	}
	checkAgentEnums(in, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	var id int
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		u, err := s.findOrInviteUser(ctx, c, name, email)
		if err != nil {
			return err
		}
		member, err := c.AccountUser.Query().Where(accountuser.UserID(u.ID)).Exist(ctx)
		if err != nil {
			return err
		}
		if member {
			return apperr.Invalid("Email is already an agent of this account", "email")
		}
		create := c.AccountUser.Create().SetUserID(u.ID).SetRole(accountuser.Role(*in.Role)).
			SetNillableAutoOffline(in.AutoOffline)
		if in.Availability != nil {
			create.SetAvailability(accountuser.Availability(*in.Availability))
		}
		id = u.ID
		return create.Exec(ctx)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Agent(ctx, id)
}

// findOrInviteUser returns the platform user with email, creating an invited
// one if there is none. The lookup spans the installation, so it runs as the
// system; the invite runs as the caller, whose policy forbids passwords.
func (s *Service) findOrInviteUser(ctx context.Context, c *ent.Client, name, email string) (*ent.User, error) {
	u, err := c.User.Query().Where(user.Email(email)).Only(core.AsUserDirectory(ctx))
	if err == nil || !ent.IsNotFound(err) {
		return u, err
	}
	return c.User.Create().SetName(name).SetEmail(email).SetConfirmed(false).Save(ctx)
}

// UpdateAgent changes an agent's role, availability or auto-offline, and
// the name of a user who works in this account only. A user who also
// belongs to another account keeps their name: it is theirs, and the other
// account sees it too (see checkAgentIdentity). E-mail is never changed here.
func (s *Service) UpdateAgent(ctx context.Context, userID int, in AgentInput) (*ent.AccountUser, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	var errs core.FieldErrors
	if in.Name != nil && strings.TrimSpace(*in.Name) == "" {
		errs.Add("name", "Name can't be blank")
	}
	checkAgentEnums(in, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		m, err := c.AccountUser.Query().Where(accountuser.UserID(userID)).Only(ctx)
		if err != nil {
			return core.NotFound(err, "Agent")
		}
		if err := s.checkAgentIdentity(ctx, c, userID, in); err != nil {
			return err
		}
		if in.Role != nil && *in.Role != string(accountuser.RoleAdministrator) {
			if err := keepAnAdministrator(ctx, c, m); err != nil {
				return err
			}
		}
		upd := m.Update().SetNillableAutoOffline(in.AutoOffline)
		if in.Role != nil {
			upd.SetRole(accountuser.Role(*in.Role))
		}
		if in.Availability != nil {
			upd.SetAvailability(accountuser.Availability(*in.Availability))
		}
		if err := upd.Exec(ctx); err != nil {
			return err
		}
		if in.Name != nil {
			return c.User.UpdateOneID(userID).SetName(strings.TrimSpace(*in.Name)).Exec(ctx)
		}
		return nil
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Agent(ctx, userID)
}

// DeleteAgent removes a user from the account (its inbox and team
// memberships too, and its conversation and card assignments); the platform
// user stays.
func (s *Service) DeleteAgent(ctx context.Context, userID int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	return core.ApperrOrNil(s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		m, err := c.AccountUser.Query().Where(accountuser.UserID(userID)).Only(ctx)
		if err != nil {
			return core.NotFound(err, "Agent")
		}
		if err := keepAnAdministrator(ctx, c, m); err != nil {
			return err
		}
		if _, err := c.InboxMember.Delete().Where(inboxmember.UserID(userID)).Exec(ctx); err != nil {
			return err
		}
		if _, err := c.TeamMember.Delete().Where(teammember.UserID(userID)).Exec(ctx); err != nil {
			return err
		}
		// Its conversations go back to the queue, as in Chatwoot.
		if err := c.Conversation.Update().Where(conversation.AssigneeID(userID)).ClearAssigneeID().Exec(ctx); err != nil {
			return err
		}
		// And it leaves the kanban cards of this account (not of its others).
		err = c.KanbanItem.Update().Where(kanbanitem.HasAssignedAgentsWith(user.ID(userID))).
			RemoveAssignedAgentIDs(userID).Exec(ctx)
		if err != nil {
			return err
		}
		return c.AccountUser.DeleteOne(m).Exec(ctx)
	}))
}

// checkAgentIdentity refuses, with a 403, what an account's administrator
// may not change about a user: their e-mail (their sign-in, shared by all
// their accounts), and their name once they also belong to another account.
// Sending the current value back is no change and passes. 403, not 422: the
// same request is valid from the user (PUT /api/v1/profile) or the platform
// API; what is missing is this caller's authority over another account's
// person.
func (s *Service) checkAgentIdentity(ctx context.Context, c *ent.Client, userID int, in AgentInput) error {
	if in.Email == nil && in.Name == nil {
		return nil
	}
	u, err := c.User.Get(ctx, userID)
	if err != nil {
		return core.NotFound(err, "Agent")
	}
	if in.Email != nil && core.NormalizeEmail(*in.Email) != u.Email {
		return apperr.Forbidden("You are not authorized to do this action: an agent's e-mail is their own sign-in; " +
			"they change it in their profile (PUT /api/v1/profile), or the platform API does")
	}
	if in.Name == nil || strings.TrimSpace(*in.Name) == u.Name {
		return nil
	}
	v, _ := viewer.FromContext(ctx)
	elsewhere, err := c.AccountUser.Query().
		Where(accountuser.UserID(userID), accountuser.AccountIDNEQ(v.AccountID)).Exist(core.AsMembershipCheck(ctx))
	if err != nil {
		return err
	}
	if elsewhere {
		return apperr.Forbidden("You are not authorized to do this action: this agent also belongs to another account, " +
			"so their name is their own; they change it in their profile (PUT /api/v1/profile). " +
			"An administrator may change role, availability and auto_offline")
	}
	return nil
}

// keepAnAdministrator refuses to demote or remove m when it is the account's
// last administrator.
func keepAnAdministrator(ctx context.Context, c *ent.Client, m *ent.AccountUser) error {
	if m.Role != accountuser.RoleAdministrator {
		return nil
	}
	others, err := c.AccountUser.Query().
		Where(accountuser.RoleEQ(accountuser.RoleAdministrator), accountuser.IDNEQ(m.ID)).Exist(ctx)
	if err != nil {
		return err
	}
	if !others {
		return apperr.Invalid("An account must keep at least one administrator", "role")
	}
	return nil
}

func checkAgentEnums(in AgentInput, errs *core.FieldErrors) {
	if in.Role != nil && accountuser.RoleValidator(accountuser.Role(*in.Role)) != nil {
		errs.Add("role", "Role must be agent or administrator")
	}
	if in.Availability != nil && accountuser.AvailabilityValidator(accountuser.Availability(*in.Availability)) != nil {
		errs.Add("availability", "Availability must be online, busy or offline")
	}
}
