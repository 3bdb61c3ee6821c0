package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// Firing of scheduled messages: on time through the real channel, failed
// when the channel fails, missed after downtime, occurrences of a series,
// and exactly once however many runners try.

// schedule reads a schedule through the API.
func (a *app) schedule(id int) *response {
	a.t.Helper()
	return a.mustDo(request{method: "GET", path: a.path("/scheduled_messages/%d", id)}, http.StatusOK)
}

// waitForScheduleStatus waits until schedule id has left pending and
// returns it.
func (a *app) waitForScheduleStatus(id int, want string) *response {
	a.t.Helper()
	var r *response
	waitFor(a.t, "schedule to be "+want, func() bool { r = a.schedule(id); return r.str(a.t, "status") != "pending" })
	if got := r.str(a.t, "status"); got != want {
		a.t.Fatalf("schedule %d is %s, want %s: %s", id, got, want, r)
	}
	return r
}

// backdate moves a schedule's start (and its clock) to at, as if it had
// been created long ago and the server had been down since.
func (a *app) backdate(id int, at time.Time) {
	a.t.Helper()
	a.srv.DB.Client.ScheduledMessage.UpdateOneID(id).SetScheduledAt(at).SetNextOccurrenceAt(at).ExecX(sys())
	a.srv.Jobs.Wake()
}

func TestScheduleFiresOnTimeThroughTheChannel(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		ok := newReceiver(t, http.StatusOK)
		down := newReceiver(t, http.StatusInternalServerError)
		a := newDeliveryApp(t, e, "")
		good := a.inbox("Good", H{"type": "api", "webhook_url": ok.URL})
		bad := a.inbox("Bad", H{"type": "api", "webhook_url": down.URL})
		ann, _ := a.contact(good, H{"name": "Ann"})
		bob, _ := a.contact(bad, H{"name": "Bob"})
		hook := a.mustDo(request{method: "POST", path: a.path("/webhooks"), body: H{"url": "https://hooks.example.com/s",
			"subscriptions": []string{"scheduled_message.sent", "scheduled_message.failed"}}}, http.StatusOK).int(t, "payload.webhook.id")

		at := time.Now().Add(2 * time.Second).UTC().Truncate(time.Millisecond)
		id := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), body: H{
			"inbox_id": good, "contact_id": ann, "content": "Your appointment is tomorrow", "scheduled_at": at.Format(time.RFC3339Nano),
		}}, http.StatusOK).int(t, "id")
		failing := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), body: H{
			"inbox_id": bad, "contact_id": bob, "content": "Nobody listens", "scheduled_at": at.Format(time.RFC3339Nano),
		}}, http.StatusOK).int(t, "id")
		if n := len(ok.requests()); n != 0 {
			t.Fatalf("the channel got %d requests before the time", n)
		}

		r := a.waitForScheduleStatus(id, "sent")
		sentAt, err := time.Parse(time.RFC3339Nano, r.str(t, "sent_at"))
		if err != nil {
			t.Fatalf("sent_at: %v", err)
		}
		if late := sentAt.Sub(at); late < 0 || late > time.Second {
			t.Errorf("sent %v after scheduled_at, want within a second (and not before)", late)
		}
		conv := r.int(t, "conversation_id")
		msgID := r.int(t, "message_id")
		if st, _ := a.messageStatus(conv, msgID); st != "delivered" {
			t.Errorf("the schedule's message is %s, want delivered", st)
		}
		reqs := ok.requests()
		if len(reqs) != 1 {
			t.Fatalf("the channel got %d requests, want exactly 1", len(reqs))
		}
		var body map[string]any
		if err := json.Unmarshal(reqs[0].Body, &body); err != nil || body["content"] != "Your appointment is tomorrow" {
			t.Errorf("the channel got %s, want the scheduled content", reqs[0].Body)
		}

		f := a.waitForScheduleStatus(failing, "failed")
		if reason, _ := f.get("failure_reason"); reason == nil || reason == "" {
			t.Errorf("a failed schedule has no failure_reason: %s", f)
		}
		events := map[string]int{}
		for _, d := range a.srv.DB.Client.WebhookDelivery.Query().Where(webhookdelivery.SubscriptionID(hook)).AllX(sys()) {
			events[d.Event]++
		}
		if events["scheduled_message.sent"] != 1 || events["scheduled_message.failed"] != 1 {
			t.Errorf("webhook events %v, want one scheduled_message.sent and one scheduled_message.failed", events)
		}
	})
}

func TestWeeklyScheduleOnMonWedFriFiresThreeOccurrences(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newAppWith(t, e, server.Config{Channels: &acceptingChannels{}, CatchUp: 60 * 24 * time.Hour})
		ib := a.apiInbox("API")
		ct, _ := a.contact(ib, H{"name": "Ann"})
		conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
		id := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/scheduled_messages", conv), body: H{
			"content": "Stand-up reminder", "scheduled_at": inAnHour(),
			"recurrence_type": "weekly", "recurrence_interval": 1, "recurrence_days": []int{1, 3, 5},
			"recurrence_end_type": "after_occurrences", "recurrence_max_occurrences": 3,
		}}, http.StatusOK).int(t, "id")
		// Monday 2 November 2026, 09:00 UTC: three weeks ago, inside the
		// catch-up window of this server.
		a.backdate(id, time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC))

		parent := a.waitForScheduleStatus(id, "sent")
		if n := parent.int(t, "occurrences_count"); n != 3 {
			t.Errorf("parent counts %d occurrences, want 3", n)
		}
		if next, _ := parent.get("next_occurrence_at"); next != nil {
			t.Errorf("a finished series still has a next occurrence %v", next)
		}
		waitFor(t, "every occurrence to be sent", func() bool {
			return a.srv.DB.Client.ScheduledMessage.Query().Where(scheduledmessage.ParentID(id),
				scheduledmessage.StatusEQ(scheduledmessage.StatusSent)).CountX(sys()) == 3
		})
		occ := a.srv.DB.Client.ScheduledMessage.Query().Where(scheduledmessage.ParentID(id)).
			Order(scheduledmessage.ByOccurrenceAt()).AllX(sys())
		want := []string{"2026-11-02T09:00:00Z", "2026-11-04T09:00:00Z", "2026-11-06T09:00:00Z"}
		if len(occ) != len(want) {
			t.Fatalf("%d occurrences, want %d", len(occ), len(want))
		}
		for i, o := range occ {
			if got := o.OccurrenceAt.UTC().Format(time.RFC3339); got != want[i] {
				t.Errorf("occurrence %d at %s, want %s", i, got, want[i])
			}
			if o.ParentID == nil || *o.ParentID != id || o.MessageID == nil {
				t.Errorf("occurrence %d: parent %v message %v, want parent %d and a message", i, o.ParentID, o.MessageID, id)
			}
		}
		r := a.mustDo(request{method: "GET", path: a.path("/scheduled_messages?status=sent")}, http.StatusOK)
		if got := len(r.ints(t, "payload.*.id")); got != 4 {
			t.Errorf("the list shows %d sent schedules, want the parent and its 3 occurrences", got)
		}
		if n := a.srv.DB.Client.Message.Query().Where(message.Content("Stand-up reminder")).CountX(sys()); n != 3 {
			t.Errorf("%d messages posted, want 3", n)
		}
	})
}

func TestScheduleMissedDuringDowntimeFails(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		ib := a.apiInbox("API")
		ct, _ := a.contact(ib, H{"name": "Ann"})
		id := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), body: H{
			"inbox_id": ib, "contact_id": ct, "content": "Too late", "scheduled_at": inAnHour()}}, http.StatusOK).int(t, "id")
		a.backdate(id, time.Now().Add(-time.Hour).UTC())
		r := a.waitForScheduleStatus(id, "failed")
		if reason := r.str(t, "failure_reason"); reason != "missed" {
			t.Errorf("failure_reason %q, want missed", reason)
		}
		if n := a.srv.DB.Client.Message.Query().Where(message.Content("Too late")).CountX(sys()); n != 0 {
			t.Errorf("a missed schedule posted %d messages", n)
		}
	})
}

func TestScheduleFiresExactlyOnceUnderConcurrentRunners(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		ib := a.apiInbox("API")
		ct, _ := a.contact(ib, H{"name": "Ann"})
		var ids []int
		for _, body := range []H{
			{"inbox_id": ib, "contact_id": ct, "content": "once"},
			{"inbox_id": ib, "contact_id": ct, "content": "daily", "recurrence_type": "daily"},
		} {
			body["scheduled_at"] = inAnHour()
			id := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), body: body}, http.StatusOK).int(t, "id")
			// Due a moment ago, so every caller below finds it due.
			a.srv.DB.Client.ScheduledMessage.UpdateOneID(id).SetScheduledAt(time.Now().Add(-time.Second).UTC()).ExecX(sys())
			ids = append(ids, id)
		}
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			for _, id := range ids {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := a.srv.Svc.FireSchedule(context.Background(), id); err != nil {
						t.Errorf("FireSchedule: %v", err)
					}
				}()
			}
		}
		wg.Wait()
		for _, content := range []string{"once", "daily"} {
			if n := a.srv.DB.Client.Message.Query().Where(message.Content(content)).CountX(sys()); n != 1 {
				t.Errorf("%q: %d messages from one due occurrence, want exactly 1", content, n)
			}
		}
		if n := a.srv.DB.Client.ScheduledMessage.Query().Where(scheduledmessage.ParentID(ids[1])).CountX(sys()); n != 1 {
			t.Errorf("%d occurrence rows for one due occurrence, want 1", n)
		}
		if next := a.schedule(ids[1]).str(t, "next_occurrence_at"); next <= time.Now().UTC().Format(time.RFC3339) {
			t.Errorf("the daily series did not move on: next %s", next)
		}
	})
}

func TestCancellingASeriesStopsItsFutureOccurrences(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		ib := a.apiInbox("API")
		ct, _ := a.contact(ib, H{"name": "Ann"})
		id := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), body: H{
			"inbox_id": ib, "contact_id": ct, "content": "daily tip", "scheduled_at": inAnHour(), "recurrence_type": "daily",
		}}, http.StatusOK).int(t, "id")
		// The first occurrence is due now; fire it as a runner would.
		a.srv.DB.Client.ScheduledMessage.UpdateOneID(id).SetScheduledAt(time.Now().Add(-time.Second).UTC()).ExecX(sys())
		if err := a.srv.Svc.FireSchedule(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		if r := a.schedule(id); r.int(t, "occurrences_count") != 1 || r.str(t, "status") != "pending" {
			t.Fatalf("after one occurrence the series is %s", r)
		}
		a.mustDo(request{method: "POST", path: a.path("/scheduled_messages/%d/cancel", id)}, http.StatusOK)
		// Even a runner that claimed the row before the cancel fires nothing more.
		a.srv.DB.Client.ScheduledMessage.UpdateOneID(id).SetScheduledAt(time.Now().Add(-48 * time.Hour).UTC()).ExecX(sys())
		if err := a.srv.Svc.FireSchedule(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		if n := a.srv.DB.Client.ScheduledMessage.Query().Where(scheduledmessage.ParentID(id)).CountX(sys()); n != 1 {
			t.Errorf("%d occurrences after the cancel, want the 1 from before", n)
		}
		r := a.schedule(id)
		if r.str(t, "status") != "cancelled" {
			t.Errorf("the series is %s, want cancelled", r.str(t, "status"))
		}
		if next, _ := r.get("next_occurrence_at"); next != nil {
			t.Errorf("a cancelled series still shows a next occurrence %v", next)
		}
		if n := a.srv.DB.Client.Message.Query().Where(message.Content("daily tip")).CountX(sys()); n != 1 {
			t.Errorf("%d messages, want 1", n)
		}
	})
}
