package kanban

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/automationrun"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/ent/kanbanautomation"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/internal/coerce"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Running kanban automations: a card change writes a durable run, the job
// runner runs it (RunAutomations); idle automations are checked by the job
// runner on their own (RunIdleAutomations).

// cardEvent is what happened to a card, for the automations to match.
type cardEvent struct {
	accountID, cardID, funnelID int
	trigger                     kanbanautomation.TriggerType
	stage, status               string
}

// enqueueAutomations writes a run of the automations ev fires, in the
// transaction of the change (c is its client), when one of the account's
// enabled automations matches: the job runner runs it after the commit,
// outside the request, and it survives a crash in between.
func (s *Service) enqueueAutomations(ctx context.Context, c *ent.Client, ev cardEvent) error {
	depth, _ := ctx.Value(automationDepthKey{}).(int)
	if depth >= maxAutomationDepth {
		return nil
	}
	sys := core.AsAccountSystem(ctx, ev.accountID, 0)
	if as, err := matchingAutomations(sys, c, ev); err != nil || len(as) == 0 {
		return err
	}
	run := c.AutomationRun.Create().SetAccountID(ev.accountID).SetKanbanItemID(ev.cardID).SetFunnelID(ev.funnelID).
		SetTriggerType(automationrun.TriggerType(ev.trigger)).SetStage(ev.stage).SetStatus(ev.status).
		SetDepth(depth + 1).SetRunAt(s.Now())
	if v, _ := viewer.FromContext(ctx); v.UserID != 0 {
		run.SetActorID(v.UserID)
	}
	return run.Exec(sys)
}

// RunAutomations runs a claimed automation run (see enqueueAutomations)
// and deletes it. A process that dies meanwhile leaves the run claimed until
// its lease ends; it then runs again (at least once). An action that fails
// is logged and skipped (retrying would not help); an error returned is the
// database's, and the job runner retries the run (RetryAutomations).
func (s *Service) RunAutomations(ctx context.Context, id int) error {
	sys := core.AsBackgroundWork(ctx)
	run, err := s.DB.AutomationRun.Get(sys, id)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	actor := 0
	if run.ActorID != nil {
		actor = *run.ActorID
	}
	ev := cardEvent{accountID: run.AccountID, cardID: run.KanbanItemID, funnelID: run.FunnelID,
		trigger: kanbanautomation.TriggerType(run.TriggerType), stage: run.Stage, status: run.Status}
	if err := s.runAutomations(context.WithValue(ctx, automationDepthKey{}, run.Depth), actor, ev); err != nil {
		return err // the run stays, due again when its lease ends
	}
	return s.DB.AutomationRun.DeleteOneID(id).Exec(sys)
}

// RetryAutomations records a failed attempt at run id (see RunAutomations):
// next gives the wait after its nth failed attempt, or false when the retry
// budget is spent. The run is then due again after that wait, with the
// card's later runs waiting behind it, or, with the budget spent, deleted
// without running: dropped reports that.
func (s *Service) RetryAutomations(ctx context.Context, id int, next func(failed int) (time.Duration, bool)) (dropped bool, err error) {
	sys := core.AsBackgroundWork(ctx)
	run, err := s.DB.AutomationRun.Get(sys, id)
	if ent.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	failed := run.Attempts + 1
	wait, retry := next(failed)
	if !retry {
		return true, s.DB.AutomationRun.DeleteOneID(id).Exec(sys)
	}
	return false, s.DB.AutomationRun.UpdateOneID(id).SetAttempts(failed).SetRunAt(s.Now().Add(wait)).Exec(sys)
}

// matchingAutomations lists the account's enabled automations that ev
// fires, in the order they run.
func matchingAutomations(sys context.Context, c *ent.Client, ev cardEvent) ([]*ent.KanbanAutomation, error) {
	as, err := c.KanbanAutomation.Query().Where(kanbanautomation.AccountID(ev.accountID),
		kanbanautomation.Enabled(true), kanbanautomation.TriggerTypeEQ(ev.trigger)).
		Order(ent.Asc(kanbanautomation.FieldID)).All(sys)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(as, func(a *ent.KanbanAutomation) bool { return !automationMatches(a, ev) }), nil
}

// runAutomations runs each automation ev fires as the member it acts for; a
// failing action is logged, and the others still run.
func (s *Service) runAutomations(ctx context.Context, userID int, ev cardEvent) error {
	sys := core.AsAccountSystem(ctx, ev.accountID, 0)
	matching, err := matchingAutomations(sys, s.DB, ev)
	if err != nil || len(matching) == 0 {
		return err
	}
	actor, err := s.automationActor(sys, ev.accountID, userID)
	if err != nil {
		slog.Error("kanban automations: no administrator to act as", "account", ev.accountID, "err", err)
		return nil // nobody can act: running again would not help
	}
	actCtx := core.AsAutomationActor(ctx, actor)
	for _, a := range matching {
		if err := s.runAction(actCtx, a, ev.cardID); err != nil {
			slog.Warn("kanban automation failed", "automation", a.ID, "card", ev.cardID, "err", err)
			continue
		}
		_ = s.DB.KanbanAutomation.UpdateOne(a).SetLastRunAt(s.Now()).Exec(sys)
	}
	return nil
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
		m, err := s.DB.AccountUser.Query().Where(accountuser.AccountID(accountID),
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
		if id, ok := coerce.Number(cfg["funnel_id"]); ok {
			n := int(id)
			in.FunnelID = &n
		}
		_, err = s.MoveCard(ctx, cardID, in)
	case kanbanautomation.ActionTypeAssign:
		id, _ := coerce.Number(cfg["agent_id"])
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
	_, err = s.conv.CreateMessage(ctx, it.Edges.Conversation.DisplayID, conversations.MessageInput{Content: &content}, nil)
	return err
}

// RunIdleAutomations fires the idle automations of every account: each card
// that has stayed in its stage (open) for the automation's hours fires it
// once per stay. A run covers the cards whose stay crossed the threshold
// since the automation's previous run; claiming that run (last_run_at,
// compared and set) keeps two job runners from firing it twice.
func (s *Service) RunIdleAutomations(ctx context.Context) {
	sys := core.AsBackgroundWork(ctx)
	as, err := s.DB.KanbanAutomation.Query().Where(kanbanautomation.Enabled(true),
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
	sys := core.AsAccountSystem(ctx, a.AccountID, 0)
	hours, _ := coerce.Number(a.TriggerConfig["hours"])
	idle := time.Duration(hours * float64(time.Hour))
	now := s.Now()
	claim := s.DB.KanbanAutomation.Update().Where(kanbanautomation.ID(a.ID))
	if a.LastRunAt == nil {
		claim.Where(kanbanautomation.LastRunAtIsNil())
	} else {
		claim.Where(kanbanautomation.LastRunAt(*a.LastRunAt))
	}
	if n, err := claim.SetLastRunAt(now).Save(sys); err != nil || n == 0 {
		return // another runner has it
	}
	q := s.DB.KanbanItem.Query().Where(kanbanitem.AccountID(a.AccountID), kanbanitem.StatusEQ(kanbanitem.StatusOpen),
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
	actCtx := context.WithValue(core.AsAutomationActor(ctx, actor), automationDepthKey{}, 1)
	for _, id := range ids {
		if err := s.runAction(actCtx, a, id); err != nil {
			slog.Warn("kanban automation failed", "automation", a.ID, "card", id, "err", err)
		}
	}
}
