package rest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

func TestContactList(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		// Created in this order, so creation and last activity order is
		// Carol, Alice, Dave, Bob; Bob has neither e-mail nor phone.
		carol, _ := a.contact(api, H{"name": "Carol", "email": "carol@example.com", "phone_number": "+15550000003"})
		alice, _ := a.contact(api, H{"name": "Alice", "email": "alice@example.com", "phone_number": "+15550000009"})
		dave, _ := a.contact(api, H{"name": "Dave", "email": "dave@example.com", "phone_number": "+15550000001"})
		bob, _ := a.contact(api, H{"name": "Bob"})
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", alice), body: H{"labels": []string{"vip", "lead"}}}, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", bob), body: H{"labels": []string{"lead"}}}, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", dave), body: H{"labels": []string{"churned"}}}, http.StatusOK)

		list := func(query string) request { return request{method: "GET", path: a.path("/contacts%s", query)} }
		order := func(name, query string, ids ...int) scenario {
			return scenario{name: name, request: list(query), wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": ids}}
		}
		a.run(t, []scenario{
			{
				name:       "list answers {meta: {count, current_page}, payload} with contact_inboxes",
				request:    list(""),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"meta.count":                            4,
					"meta.current_page":                     1,
					"payload.#":                             4,
					"payload.0.contact_inboxes.0.inbox.id":  api,
					"payload.0.contact_inboxes.0.source_id": isUUID,
				},
			},
			order("list without sort is most recent activity first", "", bob, dave, alice, carol),
			order("sort=name orders by name ascending", "?sort=name", alice, bob, carol, dave),
			order("sort=-name orders by name descending", "?sort=-name", dave, carol, bob, alice),
			order("sort=email orders by e-mail, contacts without one last", "?sort=email", alice, carol, dave, bob),
			order("sort=-email orders by e-mail descending, contacts without one still last", "?sort=-email", dave, carol, alice, bob),
			order("sort=phone_number orders by phone, contacts without one last", "?sort=phone_number", dave, carol, alice, bob),
			order("sort=-phone_number orders by phone descending", "?sort=-phone_number", alice, carol, dave, bob),
			order("sort=last_activity_at orders by last activity ascending", "?sort=last_activity_at", carol, alice, dave, bob),
			order("sort=-last_activity_at orders by last activity descending", "?sort=-last_activity_at", bob, dave, alice, carol),
			order("sort=created_at orders by creation ascending", "?sort=created_at", carol, alice, dave, bob),
			order("sort=-created_at orders by creation descending", "?sort=-created_at", bob, dave, alice, carol),
			{
				name:        "an unknown sort is 422 naming sort",
				request:     list("?sort=shoe_size"),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"sort"},
			},
			{
				name:        "a page that is not a number is 422 naming page",
				request:     list("?page=two"),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"page"},
			},
			{
				name:       "labels[]=x keeps only contacts with that label",
				request:    list("?labels[]=vip"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 1, "payload.*.id": []int{alice}},
			},
			{
				name:       "labels[]=a&labels[]=b keeps contacts with any of the labels (Chatwoot's tagged_with any)",
				request:    list("?labels[]=vip&labels[]=churned&sort=name"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 2, "payload.*.id": []int{alice, dave}},
			},
			{
				name:       "labels=a&labels=b (repeated key) is read as the same list",
				request:    list("?labels=vip&labels=churned&sort=name"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 2, "payload.*.id": []int{alice, dave}},
			},
			{
				name:       "labels=a,b (comma-separated) is read as the same list",
				request:    list("?labels=vip,churned&sort=name"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 2, "payload.*.id": []int{alice, dave}},
			},
			{
				name:       "a label no contact has gives an empty page",
				request:    list("?labels[]=nobody"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 0, "payload": []any{}},
			},
		})
	})
}

func TestContactListPagination(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		var ids []int
		for i := range 17 {
			id, _ := a.contact(api, H{"name": fmt.Sprintf("Person %02d", i)})
			ids = append(ids, id)
		}
		var seen []int
		collect := func(t *testing.T, r *response) { seen = append(seen, r.ints(t, "payload.*.id")...) }
		a.run(t, []scenario{
			{
				name:       "page 1 holds 15 contacts and meta.count is the total",
				request:    request{method: "GET", path: a.path("/contacts?sort=name")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 15, "meta.count": 17, "meta.current_page": 1, "payload.0.name": "Person 00"},
				check:      collect,
			},
			{
				name:       "page 2 holds the rest",
				request:    request{method: "GET", path: a.path("/contacts?sort=name&page=2")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 2, "meta.count": 17, "meta.current_page": 2, "payload.*.name": []string{"Person 15", "Person 16"}},
				check:      collect,
			},
			{
				name:       "a page past the end is empty but still counts",
				request:    request{method: "GET", path: a.path("/contacts?page=3")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}, "meta.count": 17, "meta.current_page": 3},
			},
		})
		if msg := sameItems(toAny(ids)...)(toAny(seen), true); msg != "" {
			t.Errorf("pages 1 and 2 together must hold every contact once: %s", msg)
		}
	})
}

func toAny(ints []int) []any {
	out := make([]any, len(ints))
	for i, n := range ints {
		out[i] = n
	}
	return out
}
