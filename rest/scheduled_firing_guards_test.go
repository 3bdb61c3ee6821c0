package rest_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/schedules"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// The firing's guards: an edit made while a runner fires wins, an author who
// left the inbox fails the occurrence, and a refused firing in a batch leaves
// the others fired once.

// An edit that commits while a runner is firing the schedule wins: the
// runner posts nothing of the old text and the schedule is due as edited.
func TestAnEditDuringFiringWins(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		ib := a.apiInbox("API")
		ct, _ := a.contact(ib, H{"name": "Ann"})
		id := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), body: H{
			"inbox_id": ib, "contact_id": ct, "content": "old text", "scheduled_at": inAnHour()}}, http.StatusOK).int(t, "id")
		a.srv.DB.Client.ScheduledMessage.UpdateOneID(id).SetScheduledAt(time.Now().Add(-time.Second).UTC()).ExecX(sys())
		admin := viewer.NewContext(context.Background(), viewer.Viewer{UserID: a.AdminID, AccountID: a.Account, Role: viewer.RoleAdministrator})
		tx, err := a.srv.DB.Client.Tx(admin)
		if err != nil {
			t.Fatal(err)
		}
		newText, newAt := "new text", time.Now().Add(2*time.Hour).UTC()
		if _, err := a.srv.Svc.UpdateScheduledMessage(ent.NewTxContext(admin, tx), schedules.ScheduleScope{}, id,
			schedules.ScheduleInput{Content: &newText, ScheduledAt: &newAt}, nil); err != nil {
			t.Fatalf("update: %v", err)
		}
		done := make(chan error, 1)
		go func() { done <- a.srv.Svc.FireSchedule(context.Background(), id) }()
		// On PostgreSQL the firing reads the row and then waits for the
		// edit's row lock: wait until it does. On SQLite a transaction takes
		// the one write lock when it begins, so the firing cannot read inside
		// its transaction before the edit commits: there is nothing to wait
		// for.
		if e.Name == "postgres" {
			waitFor(t, "the firing to wait for the edit's lock", func() bool {
				var waiting int
				err := a.srv.DB.SQL.QueryRow(`SELECT count(*) FROM pg_stat_activity
					WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting)
				return err == nil && waiting > 0
			})
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatalf("fire: %v", err)
		}
		sm := a.srv.DB.Client.ScheduledMessage.GetX(sys(), id)
		if n := a.srv.DB.Client.Message.Query().Where(message.Content("old text")).CountX(sys()); n != 0 || sm.MessageID != nil {
			t.Errorf("after a committed edit the runner posted %d message(s) of the old text (message_id %v)", n, sm.MessageID)
		}
		if sm.Status != scheduledmessage.StatusPending || sm.NextOccurrenceAt == nil || !sm.NextOccurrenceAt.Equal(sm.ScheduledAt) {
			t.Errorf("the edited schedule is %s, due %v, want pending and due at its new time %v", sm.Status, sm.NextOccurrenceAt, sm.ScheduledAt)
		}
	})
}

// A schedule speaks in its author's name: once the author has left the
// inbox, its occurrences fail instead of posting.
func TestScheduleOfAnAuthorWhoLeftTheInboxFails(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		ib := a.apiInbox("API")
		ct, _ := a.contact(ib, H{"name": "Ann"})
		agentID, agent := a.agent(a.Account)
		a.mustDo(request{method: "POST", path: a.path("/inbox_members"), body: H{"inbox_id": ib, "user_ids": []int{agentID}}}, http.StatusOK)
		id := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), token: agent, body: H{
			"inbox_id": ib, "contact_id": ct, "content": "from a former member", "scheduled_at": inAnHour()}}, http.StatusOK).int(t, "id")
		a.mustDo(request{method: "DELETE", path: a.path("/inbox_members"), body: H{"inbox_id": ib, "user_ids": []int{agentID}}}, http.StatusOK)
		a.srv.DB.Client.ScheduledMessage.UpdateOneID(id).SetScheduledAt(time.Now().Add(-time.Second).UTC()).ExecX(sys())
		if err := a.srv.Svc.FireSchedule(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		r := a.schedule(id)
		if r.str(t, "status") != "failed" || !strings.Contains(r.str(t, "failure_reason"), "no longer a member") {
			t.Errorf("the schedule of an author who left is %s", r)
		}
		if n := a.srv.DB.Client.Message.Query().Where(message.Content("from a former member")).CountX(sys()); n != 0 {
			t.Errorf("%d messages posted in the name of an author who left", n)
		}
	})
}

// TestABatchOfFiringsFiresEachOnceAndIsolatesARefusal: the runner's
// workers take a burst's due schedules in batches (FireDue). The ordinary
// ones share a transaction; one the channel rules refuse (its author left
// the inbox) fails its batch, whose rows the runner then claims and fires
// alone, each with its own outcome: the refused one fails with its reason,
// and every other one, a series among them, fires exactly once — however
// many workers take batches of the same rows at once.
func TestABatchOfFiringsFiresEachOnceAndIsolatesARefusal(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		ib := a.apiInbox("API")
		ct, _ := a.contact(ib, H{"name": "Ann"})
		agentID, agent := a.agent(a.Account)
		a.mustDo(request{method: "POST", path: a.path("/inbox_members"), body: H{"inbox_id": ib, "user_ids": []int{agentID}}}, http.StatusOK)
		create := func(token string, body H) int {
			body["inbox_id"], body["contact_id"], body["scheduled_at"] = ib, ct, inAnHour()
			return a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), token: token, body: body}, http.StatusOK).int(t, "id")
		}
		var ids []int
		for _, content := range []string{"first", "second", "third"} {
			ids = append(ids, create(a.Admin, H{"content": content}))
		}
		series := create(a.Admin, H{"content": "daily", "recurrence_type": "daily"})
		refused := create(agent, H{"content": "from a former member"})
		ids = append(ids, series, refused)
		a.mustDo(request{method: "DELETE", path: a.path("/inbox_members"), body: H{"inbox_id": ib, "user_ids": []int{agentID}}}, http.StatusOK)
		// All due a moment ago, at once: the app's own runner takes its
		// share of them too.
		due := time.Now().Add(-time.Second).UTC()
		a.srv.DB.Client.ScheduledMessage.Update().Where(scheduledmessage.IDIn(ids...)).
			SetScheduledAt(due).SetNextOccurrenceAt(due).ExecX(sys())

		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Batches beside the runner's own workers, until one fires
				// nothing: the rows a batch leaves alone are the runner's to
				// claim and fire each (a lone firing of a row a batch holds
				// would wait for it, and could deadlock with it).
				for {
					took, alone, err := a.srv.Svc.FireDue(context.Background(), 50, time.Now())
					if err != nil {
						t.Errorf("FireDue: %v", err)
						return
					}
					if took == len(alone) {
						return
					}
				}
			}()
		}
		wg.Wait()
		// The runner's firings may still run: until every one is settled
		// (fired, failed, or the series at its next day).
		waitFor(t, "the five schedules settled", func() bool {
			return a.srv.DB.Client.ScheduledMessage.Query().Where(scheduledmessage.IDIn(ids...),
				scheduledmessage.NextOccurrenceAtLT(time.Now().Add(time.Hour))).CountX(sys()) == 0
		})
		for _, content := range []string{"first", "second", "third", "daily"} {
			if n := a.srv.DB.Client.Message.Query().Where(message.Content(content)).CountX(sys()); n != 1 {
				t.Errorf("%q: %d messages, want exactly 1", content, n)
			}
		}
		if n := a.srv.DB.Client.Message.Query().Where(message.Content("from a former member")).CountX(sys()); n != 0 {
			t.Errorf("%d messages posted in the name of an author who left", n)
		}
		if r := a.schedule(refused); r.str(t, "status") != "failed" || !strings.Contains(r.str(t, "failure_reason"), "no longer a member") {
			t.Errorf("the refused schedule is %s, want failed with its reason", r)
		}
		if n := a.srv.DB.Client.ScheduledMessage.Query().Where(scheduledmessage.ParentID(series)).CountX(sys()); n != 1 {
			t.Errorf("%d occurrence rows for one due occurrence of the series, want 1", n)
		}
		for _, id := range ids[:3] {
			if r := a.schedule(id); r.str(t, "status") == "failed" {
				t.Errorf("schedule %d failed beside the refused one: %s", id, r)
			}
		}
	})
}
