package inboxes

import (
	"context"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/agentbot"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// AgentBotInput carries the fields of an agent bot; nil means "not sent".
type AgentBotInput struct {
	Name        *string
	Description *string
	OutgoingURL *string
	BotConfig   map[string]any
}

// AgentBots lists the account's agent bots.
func (s *Service) AgentBots(ctx context.Context) ([]*ent.AgentBot, error) {
	bs, err := s.Client(ctx).AgentBot.Query().Order(ent.Asc(agentbot.FieldID)).All(ctx)
	return bs, core.ApperrOrNil(err)
}

// AgentBot returns one agent bot.
func (s *Service) AgentBot(ctx context.Context, id int) (*ent.AgentBot, error) {
	b, err := s.Client(ctx).AgentBot.Get(ctx, id)
	return b, core.ApperrOrNil(core.NotFound(err, "Agent bot"))
}

// CreateAgentBot creates an agent bot (administrators only).
func (s *Service) CreateAgentBot(ctx context.Context, in AgentBotInput) (*ent.AgentBot, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	if strings.TrimSpace(core.Deref(in.Name)) == "" {
		return nil, apperr.Invalid("Name can't be blank", "name")
	}
	if err := checkOutgoingURL(in.OutgoingURL); err != nil {
		return nil, err
	}
	create := s.Client(ctx).AgentBot.Create().SetName(strings.TrimSpace(*in.Name)).
		SetNillableDescription(in.Description).SetNillableOutgoingURL(in.OutgoingURL)
	if in.BotConfig != nil {
		create.SetBotConfig(in.BotConfig)
	}
	b, err := create.Save(ctx)
	return b, core.ApperrOrNil(err)
}

// UpdateAgentBot changes an agent bot (administrators only).
func (s *Service) UpdateAgentBot(ctx context.Context, id int, in AgentBotInput) (*ent.AgentBot, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	if in.Name != nil && strings.TrimSpace(*in.Name) == "" {
		return nil, apperr.Invalid("Name can't be blank", "name")
	}
	if err := checkOutgoingURL(in.OutgoingURL); err != nil {
		return nil, err
	}
	b, err := s.AgentBot(ctx, id)
	if err != nil {
		return nil, err
	}
	upd := b.Update().SetNillableDescription(in.Description).SetNillableOutgoingURL(in.OutgoingURL)
	if in.Name != nil {
		upd.SetName(strings.TrimSpace(*in.Name))
	}
	if in.BotConfig != nil {
		upd.SetBotConfig(in.BotConfig)
	}
	b, err = upd.Save(ctx)
	return b, core.ApperrOrNil(err)
}

// DeleteAgentBot deletes an agent bot; inboxes it answered go without one.
func (s *Service) DeleteAgentBot(ctx context.Context, id int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	return core.ApperrOrNil(s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		b, err := c.AgentBot.Get(ctx, id)
		if err != nil {
			return core.NotFound(err, "Agent bot")
		}
		if err := c.Inbox.Update().Where(inbox.AgentBotID(id)).ClearAgentBotID().Exec(ctx); err != nil {
			return err
		}
		return c.AgentBot.DeleteOne(b).Exec(ctx)
	}))
}

// InboxAgentBot returns the agent bot of an inbox (nil when it has none).
func (s *Service) InboxAgentBot(ctx context.Context, inboxID int) (*ent.AgentBot, error) {
	ib, err := s.Inbox(ctx, inboxID)
	if err != nil || ib.AgentBotID == nil {
		return nil, err
	}
	return s.AgentBot(ctx, *ib.AgentBotID)
}

// SetInboxAgentBot switches an inbox's agent bot on (botID) or off (nil)
// (administrators only).
func (s *Service) SetInboxAgentBot(ctx context.Context, inboxID int, botID *int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	ib, err := s.Inbox(ctx, inboxID)
	if err != nil {
		return err
	}
	upd := ib.Update()
	if botID == nil {
		upd.ClearAgentBotID()
	} else {
		if _, err := s.Client(ctx).AgentBot.Get(ctx, *botID); err != nil {
			return apperr.Invalidf("agent_bot", "Agent bot %d does not exist in this account", *botID)
		}
		upd.SetAgentBotID(*botID)
	}
	return core.ApperrOrNil(upd.Exec(ctx))
}

func checkOutgoingURL(u *string) error {
	var errs core.FieldErrors
	if u != nil && *u != "" {
		core.CheckOutboundURL(&errs, "outgoing_url", "Outgoing url", *u)
	}
	return errs.Err()
}
