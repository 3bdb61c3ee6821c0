package graph_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/testdb"
)

// Every GraphQL Time input is read in UTC (graph.UnmarshalTime), entgql's
// where-filters included. Before, a filter time kept its offset, and SQLite,
// which compares stored times as text, matched the wrong rows: a bound of
// 11:00+02:00 read as later than 09:30Z, and an equal instant never matched.
func TestTimeInputsAreUTC(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		ct := a.contact(a.Admin, ib, H{"name": "Sleeper"})
		// Three conversations snoozed until 08:30, 09:30 and 10:30 UTC.
		var convs []int
		for _, until := range []string{"2030-01-01T08:30:00Z", "2030-01-01T09:30:00Z", "2030-01-01T10:30:00Z"} {
			conv := atoi(t, mustGet(t, a.mustREST("POST", base+"/conversations", a.Admin, H{"inbox_id": ib, "contact_id": ct}, http.StatusOK), "id"))
			a.mustREST("POST", fmt.Sprintf("%s/conversations/%d/toggle_status", base, conv), a.Admin,
				H{"status": "snoozed", "snoozed_until": until}, http.StatusOK)
			convs = append(convs, conv)
		}
		card := a.mustREST("POST", base+"/kanban_items", a.Admin, H{"funnel_id": a.funnel(base), "item_details": H{"title": "Deal"}}, http.StatusOK)
		created, err := time.Parse(time.RFC3339Nano, mustGet(t, card, "created_at").(string))
		if err != nil {
			t.Fatal(err)
		}
		east, west := time.FixedZone("+12", 12*3600), time.FixedZone("-12", -12*3600)
		hourBefore, hourAfter := created.Add(-time.Hour), created.Add(time.Hour)

		snoozed := `query($w: ConversationWhereInput) { conversations(first: 10, where: $w) { edges { node { displayID } } } }`
		snoozedIDs := "conversations.edges.*.node.displayID"
		cards := `query($w: KanbanItemWhereInput) { kanbanItems(first: 10, where: $w) { edges { node { title } } } }`
		cardTitles := "kanbanItems.edges.*.node.title"
		var cases []gqlCase
		// Each filter twice, the instant with an offset and in UTC: both
		// select exactly the rows want names.
		for _, f := range []struct {
			name, query, path string
			where             H // the filter, its time given with an offset
			utc               H // the same filter, the same instant in UTC
			want              []any
		}{
			{"snoozed after 09:00 UTC", snoozed, snoozedIDs,
				H{"snoozedUntilGT": "2030-01-01T11:00:00+02:00"}, H{"snoozedUntilGT": "2030-01-01T09:00:00Z"}, []any{convs[1], convs[2]}},
			{"snoozed until 09:30 UTC at the latest", snoozed, snoozedIDs,
				H{"snoozedUntilLTE": "2029-12-31T23:30:00-10:00"}, H{"snoozedUntilLTE": "2030-01-01T09:30:00Z"}, []any{convs[0], convs[1]}},
			{"snoozed until exactly 09:30 UTC", snoozed, snoozedIDs,
				H{"snoozedUntil": "2030-01-01T19:30:00+10:00"}, H{"snoozedUntil": "2030-01-01T09:30:00Z"}, []any{convs[1]}},
			{"snoozed until one of two instants", snoozed, snoozedIDs,
				H{"snoozedUntilIn": []string{"2030-01-01T09:30:00+01:00", "2030-01-01T05:30:00-05:00"}},
				H{"snoozedUntilIn": []string{"2030-01-01T08:30:00Z", "2030-01-01T10:30:00Z"}}, []any{convs[0], convs[2]}},
			{"cards created within the hour around now", cards, cardTitles,
				H{"createdAtGT": hourBefore.In(east).Format(time.RFC3339), "createdAtLT": hourAfter.In(west).Format(time.RFC3339)},
				H{"createdAtGT": hourBefore.UTC().Format(time.RFC3339), "createdAtLT": hourAfter.UTC().Format(time.RFC3339)}, []any{"Deal"}},
			{"cards created in an hour", cards, cardTitles,
				H{"createdAtGT": hourAfter.In(west).Format(time.RFC3339)}, H{"createdAtGT": hourAfter.UTC().Format(time.RFC3339)}, []any{}},
		} {
			cases = append(cases,
				gqlCase{name: f.name + " (offset)", query: f.query, vars: H{"w": f.where}, want: H{f.path: f.want}},
				gqlCase{name: f.name + " (UTC)", query: f.query, vars: H{"w": f.utc}, want: H{f.path: f.want}})
		}
		var sched int
		schedID := lazy(func() any { return id(sched) })
		cases = append(cases,
			gqlCase{name: "a time without a zone is BAD_USER_INPUT naming the filter", query: snoozed,
				vars: H{"w": H{"snoozedUntilGT": "2030-01-01T09:00:00"}}, code: "BAD_USER_INPUT", attrs: []string{"snoozedUntilGT"}},
			gqlCase{name: "an empty time is BAD_USER_INPUT, not the year 1", query: snoozed,
				vars: H{"w": H{"snoozedUntilLT": ""}}, code: "BAD_USER_INPUT", attrs: []string{"snoozedUntilLT"}},
			gqlCase{name: "a snooze with an offset is stored in UTC: the UTC instant finds it",
				query: `mutation($d: Int!, $u: Time) { toggleConversationStatus(displayID: $d, status: "snoozed", snoozedUntil: $u) { conversation { snoozedUntil } userErrors { field message code } } }`,
				vars:  H{"d": convs[0], "u": "2030-01-02T09:15:00+09:00"},
				want:  H{"toggleConversationStatus.conversation.snoozedUntil": "2030-01-02T00:15:00Z"}},
			gqlCase{name: "the snooze stored by the mutation matches its UTC instant", query: snoozed,
				vars: H{"w": H{"snoozedUntil": "2030-01-02T00:15:00Z"}}, want: H{snoozedIDs: []any{convs[0]}}},
			gqlCase{name: "a schedule given times with offsets returns them in UTC",
				query: `mutation($in: ScheduledMessageInput!) { createScheduledMessage(input: $in) { scheduledMessage { id scheduledAt recurrenceEndDate } userErrors { field message code } } }`,
				vars: H{"in": H{"inboxID": ib, "contactID": ct, "content": "Later", "scheduledAt": "2030-06-01T12:00:00+02:00",
					"recurrenceType": "daily", "recurrenceEndType": "on_date", "recurrenceEndDate": "2030-06-30T23:00:00-03:00"}},
				want: H{"createScheduledMessage.scheduledMessage.scheduledAt": "2030-06-01T10:00:00Z", "createScheduledMessage.scheduledMessage.recurrenceEndDate": "2030-07-01T02:00:00Z"},
				check: func(t *testing.T, r *gqlResp) {
					sched = atoi(t, mustGet(t, r.Data, "createScheduledMessage.scheduledMessage.id"))
					at := time.Date(2030, 6, 1, 10, 0, 0, 0, time.UTC)
					// SQLite matches a stored time by its text: only a value stored in UTC equals the UTC instant.
					n, err := a.srv.DB.Client.ScheduledMessage.Query().Where(scheduledmessage.ID(sched), scheduledmessage.ScheduledAt(at)).Count(sys())
					if err != nil || n != 1 {
						t.Errorf("the schedule stored at 10:00 UTC: found %d (%v), want 1", n, err)
					}
				}},
			gqlCase{name: "the schedule reads back in UTC", query: `query($id: ID!) { scheduledMessage(id: $id) { scheduledAt recurrenceEndDate } }`,
				vars: H{"id": schedID}, want: H{"scheduledMessage.scheduledAt": "2030-06-01T10:00:00Z", "scheduledMessage.recurrenceEndDate": "2030-07-01T02:00:00Z"}},
		)
		a.run(t, cases)
	})
}

// funnel creates a one-stage funnel through REST and returns its id.
func (a *app) funnel(base string) int {
	a.t.Helper()
	return atoi(a.t, mustGet(a.t, a.mustREST("POST", base+"/funnels", a.Admin, H{"name": "Deals",
		"stages": []H{{"name": "New", "slug": "new"}}}, http.StatusOK), "id"))
}
