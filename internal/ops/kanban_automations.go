package ops

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/ent/kanbanautomation"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Kanban automations: when a card enters a stage, changes status or sits in
// a stage for N hours, move it, assign an agent, set its priority or send a
// message to its conversation. (The forks store automations and never run
// them.) Triggered actions run right after the change that fired them
// commits, in their own transactions, on behalf of the account's
// administrators (who alone define automations); a failing action is logged
// and never undoes the change. Idle triggers are checked by the job runner.

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
	return as, apperrOrNil(err)
}

// Automation returns one automation (administrators only).
func (s *Service) Automation(ctx context.Context, id int) (*ent.KanbanAutomation, error) {
	a, err := s.Client(ctx).KanbanAutomation.Get(ctx, id)
	return a, apperrOrNil(notFound(err, "Automation"))
}

// CreateAutomation adds an automation (administrators only).
func (s *Service) CreateAutomation(ctx context.Context, in AutomationInput) (*ent.KanbanAutomation, error) {
	if err := requireAdmin(ctx); err != nil {
		return nil, err
	}
	var errs fieldErrors
	if strings.TrimSpace(deref(in.Name)) == "" {
		errs.add("name", "Name can't be blank")
	}
	if in.TriggerType == nil {
		errs.add("trigger_type", "Trigger type can't be blank: use stage_entered, status_changed or idle")
	}
	if in.ActionType == nil {
		errs.add("action_type", "Action type can't be blank: use move, assign, set_priority or send_message")
	}
	if err := errs.err(); err != nil {
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
	return a, apperrOrNil(err)
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
	return a, apperrOrNil(err)
}

// DeleteAutomation removes an automation (administrators only).
func (s *Service) DeleteAutomation(ctx context.Context, id int) error {
	if err := requireAdmin(ctx); err != nil {
		return err
	}
	return apperrOrNil(notFound(s.Client(ctx).KanbanAutomation.DeleteOneID(id).Exec(ctx), "Automation"))
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
		if st, ok := cfg["status"]; ok && !containsString(CardStatuses, fmt.Sprint(st)) {
			return apperr.Invalid("trigger_config.status must be one of "+strings.Join(CardStatuses, ", "), "trigger_config")
		}
	case kanbanautomation.TriggerTypeIdle:
		if hours, ok := numberOf(cfg["hours"]); !ok || hours <= 0 {
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
		funnelID, ok := numberOf(cfg["funnel_id"])
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
		id, ok := numberOf(cfg["agent_id"])
		if !ok {
			return apperr.Invalid("An assign needs action_config.agent_id", "action_config")
		}
		if err := checkCardAgents(ctx, c, "action_config", []int{int(id)}); err != nil {
			return err
		}
	case kanbanautomation.ActionTypeSetPriority:
		if p, _ := cfg["priority"].(string); !containsString(CardPriorities, p) {
			return apperr.Invalid("A set_priority needs action_config.priority: one of "+strings.Join(CardPriorities, ", "), "action_config")
		}
	case kanbanautomation.ActionTypeSendMessage:
		if m, _ := cfg["content"].(string); strings.TrimSpace(m) == "" {
			return apperr.Invalid("A send_message needs action_config.content", "action_config")
		}
	}
	return nil
}

// numberOf reads a number as JSON (float64) or GraphQL (int64) decode it,
// or a numeric string.
func numberOf(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	case fmt.Stringer: // json.Number
		f, err := strconv.ParseFloat(x.String(), 64)
		return f, err == nil
	}
	return 0, false
}

// cardEvent is what happened to a card, for the automations to match.
type cardEvent struct {
	accountID, cardID, funnelID int
	trigger                     kanbanautomation.TriggerType
	stage, status               string
}

// triggerAutomations runs the automations matching ev once the current
// transaction commits (at once when there is none).
func (s *Service) triggerAutomations(ctx context.Context, ev cardEvent) {
	depth, _ := ctx.Value(automationDepthKey{}).(int)
	if depth >= maxAutomationDepth {
		return
	}
	v, _ := viewer.FromContext(ctx)
	run := func() {
		// A fresh context: no transaction, the same caller, one level deeper.
		runCtx := ent.NewTxContext(context.WithoutCancel(ctx), nil)
		runCtx = context.WithValue(runCtx, automationDepthKey{}, depth+1)
		s.runAutomations(runCtx, v.UserID, ev)
	}
	tx := ent.TxFromContext(ctx)
	if tx == nil {
		run()
		return
	}
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Commit(ctx, tx)
			if err == nil {
				run()
			}
			return err
		})
	})
}

func (s *Service) runAutomations(ctx context.Context, userID int, ev cardEvent) {
	sys := asAccountSystem(ctx, ev.accountID, 0)
	as, err := s.client.KanbanAutomation.Query().Where(kanbanautomation.AccountID(ev.accountID),
		kanbanautomation.Enabled(true), kanbanautomation.TriggerTypeEQ(ev.trigger)).
		Order(ent.Asc(kanbanautomation.FieldID)).All(sys)
	if err != nil {
		slog.Error("loading kanban automations", "account", ev.accountID, "err", err)
		return
	}
	var matching []*ent.KanbanAutomation
	for _, a := range as {
		if automationMatches(a, ev) {
			matching = append(matching, a)
		}
	}
	if len(matching) == 0 {
		return
	}
	actor, err := s.automationActor(sys, ev.accountID, userID)
	if err != nil {
		slog.Error("kanban automations: no administrator to act as", "account", ev.accountID, "err", err)
		return
	}
	actCtx := asAutomationActor(ctx, actor)
	for _, a := range matching {
		if err := s.runAction(actCtx, a, ev.cardID); err != nil {
			slog.Warn("kanban automation failed", "automation", a.ID, "card", ev.cardID, "err", err)
			continue
		}
		_ = s.client.KanbanAutomation.UpdateOne(a).SetLastRunAt(s.now()).Exec(sys)
	}
}

func automationMatches(a *ent.KanbanAutomation, ev cardEvent) bool {
	if a.FunnelID != nil && *a.FunnelID != ev.funnelID {
		return false
	}
	switch a.TriggerType {
	case kanbanautomation.TriggerTypeStageEntered:
		return a.TriggerConfig["stage"] == ev.stage
	case kanbanautomation.TriggerTypeStatusChanged:
		want, set := a.TriggerConfig["status"]
		return !set || want == ev.status
	}
	return false
}

// automationActor is who an automation acts as: the administrator role in
// the account, under the triggering user's name when there is one, else the
// account's first administrator.
func (s *Service) automationActor(sys context.Context, accountID, userID int) (viewer.Viewer, error) {
	if userID == 0 {
		m, err := s.client.AccountUser.Query().Where(accountuser.AccountID(accountID),
			accountuser.RoleEQ(accountuser.RoleAdministrator)).Order(ent.Asc(accountuser.FieldUserID)).First(sys)
		if err != nil {
			return viewer.Viewer{}, err
		}
		userID = m.UserID
	}
	return viewer.Viewer{UserID: userID, AccountID: accountID, Role: viewer.RoleAdministrator}, nil
}

// runAction performs one automation's action on a card.
func (s *Service) runAction(ctx context.Context, a *ent.KanbanAutomation, cardID int) error {
	cfg := a.ActionConfig
	var err error
	switch a.ActionType {
	case kanbanautomation.ActionTypeMove:
		stage, _ := cfg["funnel_stage"].(string)
		in := MoveInput{Stage: &stage}
		if id, ok := numberOf(cfg["funnel_id"]); ok {
			n := int(id)
			in.FunnelID = &n
		}
		_, err = s.MoveCard(ctx, cardID, in)
	case kanbanautomation.ActionTypeAssign:
		id, _ := numberOf(cfg["agent_id"])
		var assigned bool
		if assigned, err = s.cardHasAgent(ctx, cardID, int(id)); err == nil && !assigned {
			// Any refusal now (an agent who left the account) is a failure.
			_, err = s.AssignCardAgent(ctx, cardID, int(id))
		}
	case kanbanautomation.ActionTypeSetPriority:
		p, _ := cfg["priority"].(string)
		_, err = s.UpdateCard(ctx, cardID, CardInput{Priority: &p})
	case kanbanautomation.ActionTypeSendMessage:
		err = s.sendCardMessage(ctx, cardID, fmt.Sprint(cfg["content"]))
	}
	return err
}

func (s *Service) sendCardMessage(ctx context.Context, cardID int, content string) error {
	it, err := s.Card(ctx, cardID)
	if err != nil {
		return err
	}
	if it.Edges.Conversation == nil {
		return fmt.Errorf("card %d has no conversation", cardID)
	}
	_, err = s.CreateMessage(ctx, it.Edges.Conversation.DisplayID, MessageInput{Content: &content}, nil)
	return err
}

// RunIdleAutomations fires the idle automations of every account: each card
// that has stayed in its stage (open) for the automation's hours fires it
// once per stay. A run covers the cards whose stay crossed the threshold
// since the automation's previous run; claiming that run (last_run_at,
// compared and set) keeps two job runners from firing it twice.
func (s *Service) RunIdleAutomations(ctx context.Context) {
	sys := AsBackgroundWork(ctx)
	as, err := s.client.KanbanAutomation.Query().Where(kanbanautomation.Enabled(true),
		kanbanautomation.TriggerTypeEQ(kanbanautomation.TriggerTypeIdle)).All(sys)
	if err != nil {
		slog.Error("loading idle kanban automations", "err", err)
		return
	}
	for _, a := range as {
		s.runIdle(ctx, a)
	}
}

func (s *Service) runIdle(ctx context.Context, a *ent.KanbanAutomation) {
	sys := asAccountSystem(ctx, a.AccountID, 0)
	hours, _ := numberOf(a.TriggerConfig["hours"])
	idle := time.Duration(hours * float64(time.Hour))
	now := s.now()
	claim := s.client.KanbanAutomation.Update().Where(kanbanautomation.ID(a.ID))
	if a.LastRunAt == nil {
		claim.Where(kanbanautomation.LastRunAtIsNil())
	} else {
		claim.Where(kanbanautomation.LastRunAt(*a.LastRunAt))
	}
	if n, err := claim.SetLastRunAt(now).Save(sys); err != nil || n == 0 {
		return // another runner has it
	}
	q := s.client.KanbanItem.Query().Where(kanbanitem.AccountID(a.AccountID), kanbanitem.StatusEQ(kanbanitem.StatusOpen),
		kanbanitem.StageEnteredAtLTE(now.Add(-idle)))
	if a.LastRunAt != nil {
		q.Where(kanbanitem.StageEnteredAtGT(a.LastRunAt.Add(-idle)))
	}
	if a.FunnelID != nil {
		q.Where(kanbanitem.FunnelID(*a.FunnelID))
	}
	if stage, _ := a.TriggerConfig["stage"].(string); stage != "" {
		q.Where(kanbanitem.HasStageWith(funnelstage.Slug(stage)))
	}
	ids, err := q.IDs(sys)
	if err != nil {
		slog.Error("finding idle cards", "automation", a.ID, "err", err)
		return
	}
	actor, err := s.automationActor(sys, a.AccountID, 0)
	if err != nil {
		slog.Error("kanban automations: no administrator to act as", "account", a.AccountID, "err", err)
		return
	}
	actCtx := context.WithValue(asAutomationActor(ctx, actor), automationDepthKey{}, 1)
	for _, id := range ids {
		if err := s.runAction(actCtx, a, id); err != nil {
			slog.Warn("kanban automation failed", "automation", a.ID, "card", id, "err", err)
		}
	}
}
