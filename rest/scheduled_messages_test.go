package rest_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent/attachment"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of scheduled messages over REST (spec §2 Scheduled
// message, §3, §4 both scopes, §6, §7): fields, validation, permissions and
// tenancy. Firing is tested in scheduled_firing_test.go.

func inAnHour() string { return time.Now().Add(time.Hour).UTC().Format(time.RFC3339) }

func TestScheduledMessagesAPI(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("API")
		other := a.apiInbox("Elsewhere")
		ct, _ := a.contact(ib, H{"name": "Alice"})
		conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
		accB, adminB := a.otherAccount("Globex")
		ibB := a.inboxIn(accB, adminB, "B", H{"type": "api"})

		author, authorTok := a.agent(a.Account)
		colleague, colleagueTok := a.agent(a.Account)
		_, outsiderTok := a.agent(a.Account)
		a.mustDo(request{method: "POST", path: a.path("/inbox_members"), body: H{"inbox_id": ib, "user_ids": []int{author, colleague}}}, http.StatusOK)
		hook := a.mustDo(request{method: "POST", path: a.path("/webhooks"), body: H{"url": "https://hooks.example.com/sched",
			"subscriptions": []string{"scheduled_message.created", "scheduled_message.updated", "scheduled_message.deleted"}}}, http.StatusOK)
		hookID := hook.int(t, "payload.webhook.id")

		list := a.path("/scheduled_messages")
		convList := a.path("/conversations/%d/scheduled_messages", conv)
		create := func(body any) request { return request{method: "POST", path: list, body: body} }
		one := func(method string, id int, body any) request {
			return request{method: method, path: a.path("/scheduled_messages/%d", id), body: body}
		}
		base := func(extra H) H {
			b := H{"inbox_id": ib, "contact_id": ct, "content": "Your order ships today", "scheduled_at": inAnHour()}
			for k, v := range extra {
				b[k] = v
			}
			return b
		}
		soon := time.Now().Add(30 * time.Minute).UTC().Truncate(time.Second)
		later := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
		var simple, inConv, agentOwn, weekly int
		a.run(t, []scenario{
			{
				name:       "the account list is empty at first, items in payload",
				request:    request{method: "GET", path: list},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 0, "meta.count": 0},
			},
			{
				name:       "create to a contact through an inbox stores every field, pending",
				request:    create(base(H{"title": "Shipping", "scheduled_at": soon.Format(time.RFC3339), "status": "sent"})),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": present, "inbox_id": ib, "contact_id": ct, "conversation_id": nil, "title": "Shipping",
					"content": "Your order ships today", "scheduled_at": soon.Format("2006-01-02T15:04:05.000Z"),
					"status": "pending", "parent_id": nil, "author_id": a.AdminID, "recurrence_type": "none",
					"recurrence_interval": 1, "recurrence_days": []any{}, "recurrence_end_type": "never",
					"next_occurrence_at": soon.Format("2006-01-02T15:04:05.000Z"), "attachments": []any{},
					"created_at": isoTime, "account_id": a.Account,
				},
				check: func(t *testing.T, r *response) { simple = r.int(t, "id") },
			},
			{
				name:       "create in the conversation scope takes the conversation's inbox and contact",
				request:    request{method: "POST", path: convList, body: H{"content": "Checking in", "scheduled_at": later.Format(time.RFC3339)}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"conversation_id": conv, "inbox_id": ib, "contact_id": ct, "status": "pending"},
				check:      func(t *testing.T, r *response) { inConv = r.int(t, "id") },
			},
			{
				name: "a weekly recurring schedule keeps its rule",
				request: create(base(H{"recurrence_type": "weekly", "recurrence_interval": 2, "recurrence_days": []int{1, 3, 5},
					"recurrence_end_type": "after_occurrences", "recurrence_max_occurrences": 3})),
				wantStatus: http.StatusOK,
				want: map[string]any{"recurrence_type": "weekly", "recurrence_interval": 2, "recurrence_days": []any{1, 3, 5},
					"recurrence_end_type": "after_occurrences", "recurrence_max_occurrences": 3, "next_occurrence_at": isoTime},
				check: func(t *testing.T, r *response) { weekly = r.int(t, "id") },
			},
			status("on_date with an end after the start is accepted", create(base(H{"recurrence_type": "daily",
				"recurrence_end_type": "on_date", "recurrence_end_date": later.Format(time.RFC3339)})), http.StatusOK),
			invalid("scheduled_at in the past is 422", create(base(H{"scheduled_at": "2020-01-01T00:00:00Z"})), "scheduled_at"),
			invalid("scheduled_at that is not IS 8601 is 422", create(base(H{"scheduled_at": "tomorrow"})), "scheduled_at"),
			invalid("a missing scheduled_at is 422", create(H{"inbox_id": ib, "contact_id": ct, "content": "x"}), "scheduled_at"),
			invalid("blank content is 422", create(base(H{"content": " "})), "content"),
			invalid("no inbox nor contact is 422 naming both", create(H{"content": "x", "scheduled_at": inAnHour()}), "inbox_id", "contact_id"),
			invalid("an inbox of another account is 422", create(base(H{"inbox_id": ibB})), "inbox_id"),
			invalid("an unknown recurrence type is 422", create(base(H{"recurrence_type": "hourly"})), "recurrence_type"),
			invalid("an interval of 0 is 422", create(base(H{"recurrence_type": "daily", "recurrence_interval": 0})), "recurrence_interval"),
			invalid("an interval over 1000 is 422 (2^63-1 made the runner fire missed occurrences without end)",
				create(base(H{"recurrence_type": "daily", "recurrence_interval": 1001})), "recurrence_interval"),
			invalid("more than 10000 occurrences are 422", create(base(H{"recurrence_type": "daily",
				"recurrence_end_type": "after_occurrences", "recurrence_max_occurrences": 10001})), "recurrence_max_occurrences"),
			invalid("recurrence days with a daily schedule are 422", create(base(H{"recurrence_type": "daily", "recurrence_days": []int{1}})), "recurrence_days"),
			invalid("a recurrence day of 7 is 422", create(base(H{"recurrence_type": "weekly", "recurrence_days": []int{1, 7}})), "recurrence_days"),
			invalid("on_date without an end date is 422", create(base(H{"recurrence_type": "daily", "recurrence_end_type": "on_date"})), "recurrence_end_date"),
			invalid("an end date before the start is 422", create(base(H{"recurrence_type": "daily", "recurrence_end_type": "on_date",
				"recurrence_end_date": time.Now().Add(time.Minute).UTC().Format(time.RFC3339)})), "recurrence_end_date"),
			invalid("after_occurrences without a count is 422", create(base(H{"recurrence_type": "monthly", "recurrence_end_type": "after_occurrences"})), "recurrence_max_occurrences"),
			invalid("an unknown end type is 422", create(base(H{"recurrence_type": "monthly", "recurrence_end_type": "someday"})), "recurrence_end_type"),
			status("an unknown conversation in the scope is 404", request{method: "POST", path: a.path("/conversations/9999/scheduled_messages"),
				body: H{"content": "x", "scheduled_at": inAnHour()}}, http.StatusNotFound),
		})
		a.run(t, []scenario{
			{
				name:       "the account list is ordered by scheduled_at, latest first",
				request:    request{method: "GET", path: list},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.0.id": inConv, "meta.count": 4},
				check: func(t *testing.T, r *response) {
					if got := r.ints(t, "payload.*.id"); got[len(got)-1] != simple {
						t.Errorf("the earliest schedule (%d) is not last: %v", simple, got)
					}
				},
			},
			{
				name:       "the conversation scope lists its own schedules only",
				request:    request{method: "GET", path: convList},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{inConv}},
			},
			{
				name:       "count of pending schedules of the conversation",
				request:    request{method: "GET", path: convList + "/count?status=pending"},
				wantStatus: http.StatusOK,
				want:       map[string]any{"count": 1},
			},
			status("a schedule of another conversation is 404 in this scope", request{method: "GET", path: convList + fmt.Sprintf("/%d", simple)}, http.StatusNotFound),
			{
				name:       "PUT changes the fields sent and never the status",
				request:    one("PUT", simple, H{"content": "Ships tomorrow", "status": "sent"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"content": "Ships tomorrow", "status": "pending", "title": "Shipping"},
			},
			invalid("PUT into the past is 422", one("PUT", simple, H{"scheduled_at": "2020-01-01T00:00:00Z"}), "scheduled_at"),
			{
				name:       "PUT turns a weekly schedule daily and drops its days",
				request:    one("PUT", weekly, H{"recurrence_type": "daily", "scheduled_at": inAnHour()}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"recurrence_type": "daily", "recurrence_days": []any{}},
			},
			{
				name:       "cancel makes a pending schedule cancelled",
				request:    request{method: "POST", path: a.path("/scheduled_messages/%d/cancel", simple)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"status": "cancelled", "next_occurrence_at": nil},
			},
			invalid("cancel again is 422", request{method: "POST", path: a.path("/scheduled_messages/%d/cancel", simple)}, "status"),
			invalid("PUT of a cancelled schedule is 422", one("PUT", simple, H{"content": "again"}), "status"),
			{
				name:       "the status filter",
				request:    request{method: "GET", path: list + "?status=cancelled"},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{simple}},
			},
			invalid("an unknown status filter is 422", request{method: "GET", path: list + "?status=lost"}, "status"),

			// Permissions: the author and administrators manage a schedule.
			{
				name:       "an agent of the inbox schedules a message",
				request:    as(authorTok, create(base(nil))),
				wantStatus: http.StatusOK,
				want:       map[string]any{"author_id": author},
				check:      func(t *testing.T, r *response) { agentOwn = r.int(t, "id") },
			},
		})
		a.run(t, []scenario{
			status("the author updates it", as(authorTok, one("PUT", agentOwn, H{"content": "mine"})), http.StatusOK),
			status("another agent of the inbox may see it", as(colleagueTok, one("GET", agentOwn, nil)), http.StatusOK),
			status("another agent's PUT is 403", as(colleagueTok, one("PUT", agentOwn, H{"content": "theirs"})), http.StatusForbidden),
			status("another agent's cancel is 403", as(colleagueTok, request{method: "POST", path: a.path("/scheduled_messages/%d/cancel", agentOwn)}), http.StatusForbidden),
			status("another agent's delete is 403", as(colleagueTok, one("DELETE", agentOwn, nil)), http.StatusForbidden),
			status("an agent outside the inbox does not find it (404, as for its conversation)", as(outsiderTok, one("GET", agentOwn, nil)), http.StatusNotFound),
			status("an agent outside the inbox cannot schedule there", as(outsiderTok, create(base(nil))), http.StatusForbidden),
			status("an agent schedules only in inboxes it is a member of", as(outsiderTok, create(base(H{"inbox_id": other}))), http.StatusForbidden),
			{
				name:       "an agent outside the inbox sees none of its schedules",
				request:    as(outsiderTok, request{method: "GET", path: list}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 0},
			},
			status("an administrator updates an agent's schedule", one("PUT", agentOwn, H{"title": "checked"}), http.StatusOK),

			// Tenancy: another account's schedule does not exist.
			status("another account's GET is 404", as(adminB, request{method: "GET", path: accountPath(accB, "/scheduled_messages/%d", simple)}), http.StatusNotFound),
			status("another account's PUT is 404", as(adminB, request{method: "PUT", path: accountPath(accB, "/scheduled_messages/%d", inConv), body: H{"content": "x"}}), http.StatusNotFound),
			status("another account's cancel is 404", as(adminB, request{method: "POST", path: accountPath(accB, "/scheduled_messages/%d/cancel", inConv)}), http.StatusNotFound),
			status("another account's DELETE is 404", as(adminB, request{method: "DELETE", path: accountPath(accB, "/scheduled_messages/%d", inConv)}), http.StatusNotFound),
			{
				name:       "another account's list does not show them",
				request:    as(adminB, request{method: "GET", path: accountPath(accB, "/scheduled_messages")}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 0},
			},

			status("DELETE of a cancelled schedule is 204", one("DELETE", simple, nil), http.StatusNoContent),
			status("it is gone", one("GET", simple, nil), http.StatusNotFound),
			status("DELETE of a pending one is 204 too", request{method: "DELETE", path: convList + fmt.Sprintf("/%d", inConv)}, http.StatusNoContent),
			status("DELETE again is 404", one("DELETE", inConv, nil), http.StatusNotFound),
		})

		events := map[string]int{}
		for _, d := range a.srv.DB.Client.WebhookDelivery.Query().Where(webhookdelivery.SubscriptionID(hookID)).AllX(sys()) {
			events[d.Event]++
		}
		for _, ev := range []string{"scheduled_message.created", "scheduled_message.updated", "scheduled_message.deleted"} {
			if events[ev] == 0 {
				t.Errorf("no %s event in the webhook outbox: %v", ev, events)
			}
		}
	})
}

func TestScheduledMessageAttachmentsAndTemplates(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("API")
		ct, _ := a.contact(ib, H{"name": "Alice"})
		wa := whatsappChannel("+15550001000")
		wa["message_templates"] = []H{{"name": "reminder", "language": "en", "status": "APPROVED", "category": "UTILITY",
			"components": []H{{"type": "BODY", "text": "Hi {{1}}, see you at {{2}}"}}}}
		wib := a.inbox("WA", wa)
		wct, _ := a.contact(wib, H{"name": "Maria", "phone_number": "+5511912345678"})
		filesForm := func(n int) *form {
			f := fields("inbox_id", fmt.Sprint(ib), "contact_id", fmt.Sprint(ct), "content", "See attached", "scheduled_at", inAnHour(),
				"private", "false")
			for i := 0; i < n; i++ {
				f.file("attachments[]", fmt.Sprintf("page%d.txt", i), "text/plain", []byte(fmt.Sprintf("page %d", i)))
			}
			return f
		}
		storageFiles := func() int {
			n := 0
			_ = filepath.Walk(a.srv.Svc.Storage().Path(""), func(p string, info os.FileInfo, err error) error {
				if err == nil && !info.IsDir() && filepath.Base(p) != ".signing-key" {
					n++
				}
				return nil
			})
			return n
		}
		tpl := func(params H) H {
			return H{"name": "reminder", "language": "en", "category": "UTILITY", "processed_params": params}
		}
		var withFiles int
		a.run(t, []scenario{
			invalid("16 attachments are 422", request{method: "POST", path: a.path("/scheduled_messages"), body: filesForm(16)}, "attachments"),
			{
				name:       "15 attachments are stored and listed on the schedule",
				request:    request{method: "POST", path: a.path("/scheduled_messages"), body: filesForm(15)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"attachments.#": 15, "attachments.0.file_type": "file", "attachments.0.data_url": nonEmpty, "private": false},
				check:      func(t *testing.T, r *response) { withFiles = r.int(t, "id") },
			},
			invalid("a template that does not exist is 422", request{method: "POST", path: a.path("/scheduled_messages"), body: H{
				"inbox_id": wib, "contact_id": wct, "content": "x", "scheduled_at": inAnHour(),
				"template_params": H{"name": "nope", "language": "en", "processed_params": H{"1": "a"}}}}, "template_params"),
			invalid("a template missing a placeholder is 422", request{method: "POST", path: a.path("/scheduled_messages"), body: H{
				"inbox_id": wib, "contact_id": wct, "content": "x", "scheduled_at": inAnHour(), "template_params": tpl(H{"1": "Maria"})}}, "template_params"),
			{
				name: "a template with exactly its placeholders is accepted",
				request: request{method: "POST", path: a.path("/scheduled_messages"), body: H{
					"inbox_id": wib, "contact_id": wct, "content": "Hi Maria, see you at 10", "scheduled_at": inAnHour(),
					"template_params": tpl(H{"1": "Maria", "2": "10"})}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"template_params.name": "reminder", "template_params.processed_params.2": "10"},
			},
		})
		if n := a.srv.DB.Client.Attachment.Query().Where(attachment.ScheduledMessageIDNotNil()).CountX(sys()); n != 15 {
			t.Errorf("%d schedule attachments stored, want the 15 of the accepted request only", n)
		}
		if n := storageFiles(); n != 15 {
			t.Errorf("%d files in storage, want 15 (the refused request must leave none)", n)
		}
		a.mustDo(request{method: "DELETE", path: a.path("/scheduled_messages/%d", withFiles)}, http.StatusNoContent)
		if n := storageFiles(); n != 0 {
			t.Errorf("%d files left in storage after deleting the schedule, want 0", n)
		}
	})
}
