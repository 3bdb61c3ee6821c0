package kanban

import (
	"context"
	"fmt"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/kanbanautomation"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/coerce"
	"github.com/switchboard/switchboard/internal/core"
)

// Kanban automations: when a card enters a stage, changes status or sits in
// a stage for N hours, move it, assign an agent, set its priority or send a
// message to its conversation. (The forks store automations and never run
// them.) A change that fires automations writes a durable run in its own
// transaction; the job runner runs it after the commit, each action in its
// own transaction, on behalf of the account's administrators (who alone
// define automations); a failing action is logged and never undoes the
// change. Idle triggers are checked by the job runner too.

// AutomationInput carries an automation's fields; nil means "not sent".
type AutomationInput struct {
	Name          *string
	FunnelID      *int
	ClearFunnel   bool
	TriggerType   *string
	TriggerConfig map[string]any
	ActionType    *string
	ActionConfig  map[string]any
	Enabled       *bool
}

// maxAutomationDepth bounds chains of automations firing automations.
const maxAutomationDepth = 3

type automationDepthKey struct{}

// Automations lists the account's automations (administrators only).
func (s *Service) Automations(ctx context.Context) ([]*ent.KanbanAutomation, error) {
	as, err := s.Client(ctx).KanbanAutomation.Query().Order(ent.Asc(kanbanautomation.FieldID)).All(ctx)
	return as, core.ApperrOrNil(err)
}

// Automation returns one automation (administrators only).
func (s *Service) Automation(ctx context.Context, id int) (*ent.KanbanAutomation, error) {
	a, err := s.Client(ctx).KanbanAutomation.Get(ctx, id)
	return a, core.ApperrOrNil(core.NotFound(err, "Automation"))
}

// CreateAutomation adds an automation (administrators only).
func (s *Service) CreateAutomation(ctx context.Context, in AutomationInput) (*ent.KanbanAutomation, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	var errs core.FieldErrors
	if strings.TrimSpace(core.Deref(in.Name)) == "" {
		errs.Add("name", "Name can't be blank")
	}
	if in.TriggerType == nil {
		errs.Add("trigger_type", "Trigger type can't be blank: use stage_entered, status_changed or idle")
	}
	if in.ActionType == nil {
		errs.Add("action_type", "Action type can't be blank: use move, assign, set_priority or send_message")
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	draft := &ent.KanbanAutomation{Name: strings.TrimSpace(*in.Name), FunnelID: in.FunnelID,
		TriggerType: kanbanautomation.TriggerType(*in.TriggerType), TriggerConfig: orEmptySettings(in.TriggerConfig),
		ActionType: kanbanautomation.ActionType(*in.ActionType), ActionConfig: orEmptySettings(in.ActionConfig), Enabled: true}
	if in.Enabled != nil {
		draft.Enabled = *in.Enabled
	}
	if err := s.checkAutomation(ctx, draft); err != nil {
		return nil, err
	}
	a, err := s.Client(ctx).KanbanAutomation.Create().SetName(draft.Name).SetNillableFunnelID(draft.FunnelID).
		SetTriggerType(draft.TriggerType).SetTriggerConfig(draft.TriggerConfig).SetActionType(draft.ActionType).
		SetActionConfig(draft.ActionConfig).SetEnabled(draft.Enabled).Save(ctx)
	return a, core.ApperrOrNil(err)
}

// UpdateAutomation changes the sent fields of an automation and checks the
// result as a whole.
func (s *Service) UpdateAutomation(ctx context.Context, id int, in AutomationInput) (*ent.KanbanAutomation, error) {
	a, err := s.Automation(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.Name != nil {
		if a.Name = strings.TrimSpace(*in.Name); a.Name == "" {
			return nil, apperr.Invalid("Name can't be blank", "name")
		}
	}
	switch {
	case in.ClearFunnel:
		a.FunnelID = nil
	case in.FunnelID != nil:
		a.FunnelID = in.FunnelID
	}
	if in.TriggerType != nil {
		a.TriggerType = kanbanautomation.TriggerType(*in.TriggerType)
	}
	if in.TriggerConfig != nil {
		a.TriggerConfig = in.TriggerConfig
	}
	if in.ActionType != nil {
		a.ActionType = kanbanautomation.ActionType(*in.ActionType)
	}
	if in.ActionConfig != nil {
		a.ActionConfig = in.ActionConfig
	}
	if in.Enabled != nil {
		a.Enabled = *in.Enabled
	}
	if err := s.checkAutomation(ctx, a); err != nil {
		return nil, err
	}
	upd := a.Update().SetName(a.Name).SetTriggerType(a.TriggerType).SetTriggerConfig(a.TriggerConfig).
		SetActionType(a.ActionType).SetActionConfig(a.ActionConfig).SetEnabled(a.Enabled)
	if a.FunnelID == nil {
		upd.ClearFunnelID()
	} else {
		upd.SetFunnelID(*a.FunnelID)
	}
	a, err = upd.Save(ctx)
	return a, core.ApperrOrNil(err)
}

// DeleteAutomation removes an automation (administrators only).
func (s *Service) DeleteAutomation(ctx context.Context, id int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	return core.ApperrOrNil(core.NotFound(s.Client(ctx).KanbanAutomation.DeleteOneID(id).Exec(ctx), "Automation"))
}

// checkAutomation validates the trigger and action against the account's
// funnels, stages and agents, so that a saved automation can run.
func (s *Service) checkAutomation(ctx context.Context, a *ent.KanbanAutomation) error {
	c := s.Client(ctx)
	if kanbanautomation.TriggerTypeValidator(a.TriggerType) != nil {
		return apperr.Invalid("Trigger type must be stage_entered, status_changed or idle", "trigger_type")
	}
	if kanbanautomation.ActionTypeValidator(a.ActionType) != nil {
		return apperr.Invalid("Action type must be move, assign, set_priority or send_message", "action_type")
	}
	if a.FunnelID != nil {
		if _, err := resolveStage(ctx, c, *a.FunnelID, nil); err != nil && isField(err, "funnel_id") {
			return err
		}
	}
	if err := s.checkTrigger(ctx, c, a); err != nil {
		return err
	}
	return s.checkAction(ctx, c, a)
}

// cardHasAgent reports whether the card is assigned to agentID already.
func (s *Service) cardHasAgent(ctx context.Context, cardID, agentID int) (bool, error) {
	return s.Client(ctx).KanbanItem.Query().Where(kanbanitem.ID(cardID),
		kanbanitem.HasAssignedAgentsWith(user.ID(agentID))).Exist(ctx)
}

func isField(err error, field string) bool {
	ae, ok := err.(*apperr.Error)
	return ok && len(ae.Fields) == 1 && ae.Fields[0] == field
}

func (s *Service) checkTrigger(ctx context.Context, c *ent.Client, a *ent.KanbanAutomation) error {
	cfg := a.TriggerConfig
	stage, _ := cfg["stage"].(string)
	switch a.TriggerType {
	case kanbanautomation.TriggerTypeStageEntered:
		if stage == "" || a.FunnelID == nil {
			return apperr.Invalid("A stage_entered trigger needs funnel_id and trigger_config.stage", "trigger_config")
		}
	case kanbanautomation.TriggerTypeStatusChanged:
		if st, ok := cfg["status"]; ok && !core.ContainsString(CardStatuses, fmt.Sprint(st)) {
			return apperr.Invalid("trigger_config.status must be one of "+strings.Join(CardStatuses, ", "), "trigger_config")
		}
	case kanbanautomation.TriggerTypeIdle:
		if hours, ok := coerce.Number(cfg["hours"]); !ok || hours <= 0 {
			return apperr.Invalid("An idle trigger needs trigger_config.hours greater than 0", "trigger_config")
		}
		if stage != "" && a.FunnelID == nil {
			return apperr.Invalid("An idle trigger on a stage needs funnel_id", "trigger_config")
		}
	}
	if stage != "" && a.FunnelID != nil {
		if _, err := resolveStage(ctx, c, *a.FunnelID, &stage); err != nil {
			return apperr.Invalidf("trigger_config", "trigger_config.stage %q is not a stage of funnel %d", stage, *a.FunnelID)
		}
	}
	return nil
}

func (s *Service) checkAction(ctx context.Context, c *ent.Client, a *ent.KanbanAutomation) error {
	cfg := a.ActionConfig
	switch a.ActionType {
	case kanbanautomation.ActionTypeMove:
		stage, _ := cfg["funnel_stage"].(string)
		funnelID, ok := coerce.Number(cfg["funnel_id"])
		if !ok && a.FunnelID != nil {
			funnelID, ok = float64(*a.FunnelID), true
		}
		if stage == "" || !ok {
			return apperr.Invalid("A move needs action_config.funnel_stage (and funnel_id, or the automation's funnel)", "action_config")
		}
		if _, err := resolveStage(ctx, c, int(funnelID), &stage); err != nil {
			return apperr.Invalidf("action_config", "action_config.funnel_stage %q is not a stage of funnel %d", stage, int(funnelID))
		}
	case kanbanautomation.ActionTypeAssign:
		id, ok := coerce.Number(cfg["agent_id"])
		if !ok {
			return apperr.Invalid("An assign needs action_config.agent_id", "action_config")
		}
		if err := checkCardAgents(ctx, c, "action_config", []int{int(id)}); err != nil {
			return err
		}
	case kanbanautomation.ActionTypeSetPriority:
		if p, _ := cfg["priority"].(string); !core.ContainsString(CardPriorities, p) {
			return apperr.Invalid("A set_priority needs action_config.priority: one of "+strings.Join(CardPriorities, ", "), "action_config")
		}
	case kanbanautomation.ActionTypeSendMessage:
		if m, _ := cfg["content"].(string); strings.TrimSpace(m) == "" {
			return apperr.Invalid("A send_message needs action_config.content", "action_config")
		}
	}
	return nil
}
