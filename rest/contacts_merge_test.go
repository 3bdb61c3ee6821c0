package rest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

func TestContactMerge(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		api2 := a.apiInbox("API two")
		a.customAttribute("plan", "text", "contact_attribute")
		a.customAttribute("tier", "text", "contact_attribute")
		base, baseSource := a.contact(api, H{"name": "Base", "email": "base@example.com",
			"custom_attributes": H{"plan": "gold"}, "additional_attributes": H{"city": "Paris"}})
		mergee, mergeeSource := a.contact(api2, H{"name": "Mergee", "email": "mergee@example.com", "phone_number": "+15550001234",
			"identifier": "ext-m", "custom_attributes": H{"plan": "silver", "tier": "2"}, "additional_attributes": H{"city": "Rome", "company": "Acme"}})
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", base), body: H{"labels": []string{"b1", "shared"}}}, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", mergee), body: H{"labels": []string{"m1", "shared"}}}, http.StatusOK)
		baseConv := a.conversation(a.Account, api, base)
		mergeeConv := a.conversation(a.Account, api2, mergee)
		mergeeSchedule := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), body: H{
			"inbox_id": api2, "contact_id": mergee, "content": "later", "scheduled_at": inAnHour()}}, http.StatusOK).int(t, "id")
		third, _ := a.contact(api, H{"name": "Third"})
		_, agent := a.agent(a.Account)
		merge := func(body any) request {
			return request{method: "POST", path: a.path("/actions/contact_merge"), body: body}
		}

		a.run(t, []scenario{
			{
				name:       "merge answers the base contact, unwrapped, with empty fields filled from the mergee",
				request:    merge(H{"base_contact_id": base, "mergee_contact_id": mergee}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id":                    base,
					"name":                  "Base",
					"email":                 "base@example.com",
					"phone_number":          "+15550001234",
					"identifier":            "ext-m",
					"custom_attributes":     H{"plan": "gold", "tier": "2"},
					"additional_attributes": H{"city": "Paris", "company": "Acme"},
					"labels":                sameItems("b1", "shared", "m1"),
				},
			},
			{
				name:       "the mergee is gone",
				request:    request{method: "GET", path: a.path("/contacts/%d", mergee)},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "the mergee's contact inboxes moved to the base",
				request:    request{method: "GET", path: a.path("/contacts/%d", base)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact_inboxes.*.source_id": sameItems(baseSource, mergeeSource)},
			},
			{
				name:       "the mergee's conversations moved to the base",
				request:    request{method: "GET", path: a.path("/contacts/%d/conversations", base)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": sameItems(baseConv, mergeeConv), "payload.*.meta.sender.id": []int{base, base}},
			},
			{
				name:       "the mergee's scheduled messages moved to the base",
				request:    request{method: "GET", path: a.path("/scheduled_messages/%d", mergeeSchedule)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"contact_id": base},
			},
			{
				name:       "the mergee's labels moved to the base",
				request:    request{method: "GET", path: a.path("/contacts/%d/labels", base)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("b1", "shared", "m1")},
			},
			{
				name:       "the list no longer holds the mergee",
				request:    request{method: "GET", path: a.path("/contacts")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 2, "payload.*.id": sameItems(base, third)},
			},
			{
				name:        "merging a contact into itself is 422",
				request:     merge(H{"base_contact_id": base, "mergee_contact_id": base}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"mergee_contact_id"},
			},
			{
				name:       "merging the deleted mergee again is 404",
				request:    merge(H{"base_contact_id": base, "mergee_contact_id": mergee}),
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "merging into an unknown base is 404",
				request:    merge(H{"base_contact_id": 999999, "mergee_contact_id": third}),
				wantStatus: http.StatusNotFound,
			},
			{
				name:        "merge without ids is 422 naming both",
				request:     merge(H{}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"base_contact_id", "mergee_contact_id"},
			},
			{
				name:       "merge takes ids sent as strings",
				request:    request{method: "POST", path: a.path("/actions/contact_merge"), token: agent, body: H{"base_contact_id": fmt.Sprint(base), "mergee_contact_id": fmt.Sprint(third)}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": base},
			},
			{
				name:       "after an agent's merge only the base is left",
				request:    request{method: "GET", path: a.path("/contacts")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 1, "payload.0.id": base},
			},
		})
	})
}
