package accounts

import (
	"context"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/team"
	"github.com/switchboard/switchboard/ent/teammember"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// TeamInput carries the fields of a team create or update; nil means "not sent".
type TeamInput struct {
	Name            *string
	Description     *string
	AllowAutoAssign *bool
}

// Teams lists the account's teams with their members.
func (s *Service) Teams(ctx context.Context) ([]*ent.Team, error) {
	ts, err := s.Client(ctx).Team.Query().WithMembers().Order(ent.Asc(team.FieldID)).All(ctx)
	return ts, core.ApperrOrNil(err)
}

// Team returns one team with its members.
func (s *Service) Team(ctx context.Context, id int) (*ent.Team, error) {
	t, err := s.Client(ctx).Team.Query().Where(team.ID(id)).WithMembers().Only(ctx)
	return t, core.ApperrOrNil(core.NotFound(err, "Team"))
}

// CreateTeam creates a team (administrators only); names are stored
// lower-cased and unique in the account, as in Chatwoot.
func (s *Service) CreateTeam(ctx context.Context, in TeamInput) (*ent.Team, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	name, err := s.checkTeamName(ctx, 0, in.Name)
	if err != nil {
		return nil, err
	}
	t, err := s.Client(ctx).Team.Create().SetName(name).SetNillableDescription(in.Description).
		SetNillableAllowAutoAssign(in.AllowAutoAssign).Save(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Team(ctx, t.ID)
}

// UpdateTeam changes a team (administrators only).
func (s *Service) UpdateTeam(ctx context.Context, id int, in TeamInput) (*ent.Team, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	if _, err := s.Team(ctx, id); err != nil {
		return nil, err
	}
	upd := s.Client(ctx).Team.UpdateOneID(id).SetNillableDescription(in.Description).
		SetNillableAllowAutoAssign(in.AllowAutoAssign)
	if in.Name != nil {
		name, err := s.checkTeamName(ctx, id, in.Name)
		if err != nil {
			return nil, err
		}
		upd.SetName(name)
	}
	if err := upd.Exec(ctx); err != nil {
		return nil, apperr.From(err)
	}
	return s.Team(ctx, id)
}

// UpdateTeamAndMembers is UpdateTeam and, when members is not nil, the
// team's members replaced by them, all or nothing: the console's team form
// sends both, and a refused member must not leave the rename saved.
func (s *Service) UpdateTeamAndMembers(ctx context.Context, id int, in TeamInput, members []int) (*ent.Team, error) {
	var t *ent.Team
	err := s.InTx(ctx, func(ctx context.Context, _ *ent.Client) error {
		var err error
		if t, err = s.UpdateTeam(ctx, id, in); err != nil || members == nil {
			return err
		}
		return s.ChangeTeamMembers(ctx, id, ReplaceMembers, members)
	})
	if err != nil {
		return nil, core.ApperrOrNil(err)
	}
	return core.Detached(ctx, t), nil
}

// DeleteTeam deletes a team (administrators only); its conversations stay,
// without a team.
func (s *Service) DeleteTeam(ctx context.Context, id int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	return core.ApperrOrNil(s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		t, err := c.Team.Get(ctx, id)
		if err != nil {
			return core.NotFound(err, "Team")
		}
		if err := c.Conversation.Update().Where(conversation.TeamID(id)).ClearTeamID().Exec(ctx); err != nil {
			return err
		}
		return c.Team.DeleteOne(t).Exec(ctx)
	}))
}

func (s *Service) checkTeamName(ctx context.Context, selfID int, raw *string) (string, error) {
	name := strings.ToLower(strings.TrimSpace(core.Deref(raw)))
	if name == "" {
		return "", apperr.Invalid("Name can't be blank", "name")
	}
	taken, err := s.Client(ctx).Team.Query().Where(team.Name(name), team.IDNEQ(selfID)).Exist(ctx)
	if err != nil {
		return "", apperr.From(err)
	}
	if taken {
		return "", apperr.Invalid("Name has already been taken", "name")
	}
	return name, nil
}

// TeamMembers lists a team's agents.
func (s *Service) TeamMembers(ctx context.Context, teamID int) ([]*ent.AccountUser, error) {
	t, err := s.Team(ctx, teamID)
	if err != nil {
		return nil, err
	}
	ids := make([]int, len(t.Edges.Members))
	for i, m := range t.Edges.Members {
		ids[i] = m.UserID
	}
	return s.AgentsByUserID(ctx, ids)
}

// ChangeTeamMembers adds, replaces or removes a team's agents (administrators only).
func (s *Service) ChangeTeamMembers(ctx context.Context, teamID int, change MemberChange, userIDs []int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	if _, err := s.Team(ctx, teamID); err != nil {
		return err
	}
	return s.ChangeMembers(ctx, MemberSet{
		Current: func(ctx context.Context, c *ent.Client) ([]int, error) {
			return c.TeamMember.Query().Where(teammember.TeamID(teamID)).Select(teammember.FieldUserID).Ints(ctx)
		},
		Add: func(ctx context.Context, c *ent.Client, ids []int) error {
			return c.TeamMember.MapCreateBulk(ids, func(b *ent.TeamMemberCreate, i int) {
				b.SetTeamID(teamID).SetUserID(ids[i])
			}).Exec(ctx)
		},
		Remove: func(ctx context.Context, c *ent.Client, ids []int) error {
			_, err := c.TeamMember.Delete().Where(teammember.TeamID(teamID), teammember.UserIDIn(ids...)).Exec(ctx)
			return err
		},
	}, change, userIDs)
}
