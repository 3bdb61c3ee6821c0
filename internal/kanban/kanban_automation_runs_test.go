package kanban_test

import (
	"context"
	"testing"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

func ptr[T any](v T) *T { return &v }

// A change that fires an automation leaves a durable run in its own
// transaction, and nothing else happens until the job runner runs it (no job
// runner here): a process that dies after the commit loses nothing. A change
// that fails leaves no run; a change that fires none leaves none; running it
// applies the action once and removes the run.
func TestAFiredAutomationIsADurableRun(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		s := ops.New(e.New(t).Client)
		b, err := s.Bootstrap(context.Background(), accounts.BootstrapInput{AccountName: "Acme", Email: "admin@acme.test", Name: "Ada"})
		if err != nil {
			t.Fatal(err)
		}
		ctx := viewer.NewContext(context.Background(), viewer.Viewer{UserID: b.UserID, AccountID: b.AccountID, Role: viewer.RoleAdministrator})
		f, err := s.CreateFunnel(ctx, kanban.FunnelInput{Name: ptr("Sales"), Stages: &[]kanban.StageInput{{Name: ptr("New")}, {Name: ptr("Qualified")}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateAutomation(ctx, kanban.AutomationInput{Name: ptr("urgent"), FunnelID: &f.ID, TriggerType: ptr("stage_entered"),
			TriggerConfig: map[string]any{"stage": "qualified"}, ActionType: ptr("set_priority"),
			ActionConfig: map[string]any{"priority": "urgent"}}); err != nil {
			t.Fatal(err)
		}
		card, err := s.CreateCard(ctx, kanban.CardInput{FunnelID: &f.ID, Stage: ptr("new"), Title: ptr("Deal")})
		if err != nil {
			t.Fatal(err)
		}
		runs := func() []int {
			t.Helper()
			ids, err := s.DB.AutomationRun.Query().IDs(core.AsBackgroundWork(ctx))
			if err != nil {
				t.Fatal(err)
			}
			return ids
		}
		if got := runs(); len(got) != 0 {
			t.Fatalf("entering a stage no automation watches left runs %v", got)
		}
		if _, err := s.MoveCard(ctx, card.ID, kanban.MoveInput{Stage: ptr("ghost")}); err == nil {
			t.Fatal("a move to an unknown stage succeeded")
		}
		if got := runs(); len(got) != 0 {
			t.Fatalf("a failed move left runs %v", got)
		}
		if _, err := s.MoveCard(ctx, card.ID, kanban.MoveInput{Stage: ptr("qualified")}); err != nil {
			t.Fatal(err)
		}
		pending := runs()
		if len(pending) != 1 {
			t.Fatalf("the move left runs %v, want one", pending)
		}
		if c, _ := s.Card(ctx, card.ID); c.Priority != "none" {
			t.Fatalf("the action ran inside the request (priority %s)", c.Priority)
		}
		if err := s.RunAutomations(context.Background(), pending[0]); err != nil {
			t.Fatal(err)
		}
		if c, _ := s.Card(ctx, card.ID); c.Priority != "urgent" {
			t.Errorf("after the run the priority is %s, want urgent", c.Priority)
		}
		if got := runs(); len(got) != 0 {
			t.Errorf("the run was not removed after it ran: %v", got)
		}
		if err := s.RunAutomations(context.Background(), pending[0]); err != nil {
			t.Errorf("running a run that is gone (another runner had it): %v", err)
		}
	})
}
