package jobs

import (
	"context"
	"database/sql"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// TestAFailingAutomationRunIsRetriedWithinItsBudget: a run that fails on
// the database (here an automation whose stored trigger no longer reads) is
// due again after a wait that grows with its attempts, not at every lease's
// end for ever; once the budget is spent it is dropped without running. A
// run whose failure passes runs its automation at the next attempt. Each
// attempt is counted by its outcome.
func TestAFailingAutomationRunIsRetriedWithinItsBudget(t *testing.T) {
	// Waits of about an hour, then two: the budget allows two retries.
	budget := Backoff{First: time.Hour, Max: 2 * time.Hour, Budget: 3 * time.Hour}
	for _, tc := range []struct {
		name string
		// healAfter is the attempt after which the automation reads again
		// (0: never).
		healAfter int
		// waits are the nominal waits set after each failed attempt; the
		// run is then gone, dropped or done.
		waits    []time.Duration
		outcomes map[string]float64
		priority string
	}{
		{name: "failing for good", waits: []time.Duration{time.Hour, 2 * time.Hour},
			outcomes: map[string]float64{outcomeRetrying: 2, outcomeFailed: 1, outcomeDone: 0}, priority: "none"},
		{name: "failing once", healAfter: 1, waits: []time.Duration{time.Hour},
			outcomes: map[string]float64{outcomeRetrying: 1, outcomeFailed: 0, outcomeDone: 1}, priority: "urgent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
				database := e.New(t)
				svc := ops.New(database.Client)
				ctx, card := seedAutomatedCard(t, svc)
				runID := onlyAutomationRun(t, svc)
				setTrigger(t, database.SQL, `"not an object"`)
				r := New(database, svc, newChannels(), Options{Retries: Retries{Automations: budget}})
				for i, want := range tc.waits {
					before := time.Now()
					if err := r.runAutomations(ctx, runID); err != nil {
						t.Fatalf("attempt %d: %v", i+1, err)
					}
					run, err := svc.DB.AutomationRun.Get(core.AsBackgroundWork(ctx), runID)
					if err != nil {
						t.Fatalf("after failed attempt %d the run is gone: %v", i+1, err)
					}
					if wait := run.RunAt.Sub(before); run.Attempts != i+1 || wait < want*8/10 || wait > want*12/10+time.Minute {
						t.Fatalf("after failed attempt %d: attempts %d, due in %v; want %d, in %v ±20 %%", i+1, run.Attempts, wait, i+1, want)
					}
					if tc.healAfter == i+1 {
						setTrigger(t, database.SQL, `{"stage": "qualified"}`)
					}
				}
				if err := r.runAutomations(ctx, runID); err != nil {
					t.Fatalf("last attempt: %v", err)
				}
				if n, err := svc.DB.AutomationRun.Query().Count(core.AsBackgroundWork(ctx)); err != nil || n != 0 {
					t.Fatalf("after the last attempt %d runs are left (%v), want none", n, err)
				}
				got, err := svc.DB.KanbanItem.Query().Where(kanbanitem.ID(card)).Only(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if string(got.Priority) != tc.priority {
					t.Errorf("the card's priority is %q, want %q", got.Priority, tc.priority)
				}
				for outcome, want := range tc.outcomes {
					if got := outcomeCount(t, r, "automation_runs", outcome); got != want {
						t.Errorf("outcome %s counted %v times, want %v", outcome, got, want)
					}
				}
			})
		})
	}
}

// seedAutomatedCard makes a funnel whose automation sets a card urgent when
// it enters "qualified", and a card moved there: one automation run due.
// It returns the administrator's context and the card.
func seedAutomatedCard(t *testing.T, s *ops.Service) (context.Context, int) {
	t.Helper()
	b, err := s.Bootstrap(context.Background(), accounts.BootstrapInput{AccountName: "Acme", Email: "admin@acme.test", Name: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := viewer.NewContext(context.Background(), viewer.Viewer{UserID: b.UserID, AccountID: b.AccountID, Role: viewer.RoleAdministrator})
	name, newStage, qualified := "Sales", "New", "Qualified"
	f, err := s.CreateFunnel(ctx, kanban.FunnelInput{Name: &name, Stages: &[]kanban.StageInput{{Name: &newStage}, {Name: &qualified}}})
	if err != nil {
		t.Fatal(err)
	}
	auto, trigger, action := "urgent", "stage_entered", "set_priority"
	if _, err := s.CreateAutomation(ctx, kanban.AutomationInput{Name: &auto, FunnelID: &f.ID, TriggerType: &trigger,
		TriggerConfig: map[string]any{"stage": "qualified"}, ActionType: &action,
		ActionConfig: map[string]any{"priority": "urgent"}}); err != nil {
		t.Fatal(err)
	}
	title, first, target := "Deal", "new", "qualified"
	card, err := s.CreateCard(ctx, kanban.CardInput{FunnelID: &f.ID, Stage: &first, Title: &title})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.MoveCard(ctx, card.ID, kanban.MoveInput{Stage: &target}); err != nil {
		t.Fatal(err)
	}
	return ctx, card.ID
}

func onlyAutomationRun(t *testing.T, s *ops.Service) int {
	t.Helper()
	ids, err := s.DB.AutomationRun.Query().IDs(viewer.SystemContext(context.Background()))
	if err != nil || len(ids) != 1 {
		t.Fatalf("automation runs %v (%v), want one", ids, err)
	}
	return ids[0]
}

// setTrigger stores the automations' trigger as raw JSON, past the
// validators: a trigger that is not an object fails every read of it.
func setTrigger(t *testing.T, db *sql.DB, raw string) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), "UPDATE kanban_automations SET trigger_config = '"+raw+"'"); err != nil {
		t.Fatal(err)
	}
}

func outcomeCount(t *testing.T, r *Runner, kind, outcome string) float64 {
	t.Helper()
	var m dto.Metric
	if err := r.metrics.outcomes.WithLabelValues(kind, outcome).Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}
