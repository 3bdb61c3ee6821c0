package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of account labels (spec §2 Label, §4 Labels;
// chatwoot-shapes §6).

func TestLabels(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		accB, adminB := a.otherAccount("Globex")
		labelB := a.mustDo(request{method: "POST", path: accountPath(accB, "/labels"), token: adminB, body: H{"title": "b-only"}}, http.StatusOK).int(t, "id")

		labels := a.path("/labels")
		create := func(body any) request { return request{method: "POST", path: labels, body: body} }
		one := func(method string, id int, body any) request {
			return request{method: method, path: a.path("/labels/%d", id), body: body}
		}
		var urgent, billing int
		a.run(t, []scenario{
			{
				name:       "the list is {payload: []} at first",
				request:    request{method: "GET", path: labels},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			{
				name:       "create lower-cases the title and stores every field",
				request:    create(H{"title": "Urgent-Case", "description": "Needs an answer today", "color": "#FF0000", "show_on_sidebar": true}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": present, "title": "urgent-case", "description": "Needs an answer today",
					"color": "#FF0000", "show_on_sidebar": true,
				},
				check: func(t *testing.T, r *response) { urgent = r.int(t, "id") },
			},
			{
				name:       "create with the title alone takes the defaults",
				request:    create(H{"title": "billing"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"title": "billing", "description": "", "color": "#1f93ff", "show_on_sidebar": false},
				check:      func(t *testing.T, r *response) { billing = r.int(t, "id") },
			},
			{
				name:       "create accepts underscores, digits and the body wrapped in label",
				request:    create(H{"label": H{"title": "tier_2", "show_on_sidebar": "true"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"title": "tier_2", "show_on_sidebar": true},
			},
			{
				name:       "a title of non-ASCII letters is fine, lower-cased",
				request:    create(H{"title": "Café-Ñandú"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"title": "café-ñandú"},
			},
			invalid("a title with a space is 422 naming title", create(H{"title": "needs reply"}), "title"),
			invalid("a title with punctuation is 422 naming title", create(H{"title": "vip!"}), "title"),
			invalid("a blank title is 422 naming title", create(H{"title": "  "}), "title"),
			invalid("no title is 422 naming title", create(H{"description": "untitled"}), "title"),
			invalid("a duplicate title is 422 naming title", create(H{"title": "billing"}), "title"),
			invalid("a duplicate title in another case is 422 naming title", create(H{"title": "URGENT-case"}), "title"),
			invalid("a colour name is 422 naming color", create(H{"title": "red", "color": "red"}), "color"),
			invalid("a short hex colour is 422 naming color", create(H{"title": "short", "color": "#fff"}), "color"),
			invalid("a colour without # is 422 naming color", create(H{"title": "nohash", "color": "1f93ff"}), "color"),
			invalid("a colour with non-hex digits is 422 naming color", create(H{"title": "nothex", "color": "#GGGGGG"}), "color"),
			invalid("a bad title and a bad colour are named together", create(H{"title": "a b", "color": "blue"}), "title", "color"),
			status("an agent creating a label is 403", as(agent, create(H{"title": "agent-label"})), http.StatusForbidden),
			{
				name:       "the list holds the created labels, by title; the refused ones are not there",
				request:    request{method: "GET", path: labels},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.title": []string{"billing", "café-ñandú", "tier_2", "urgent-case"}},
			},
			{
				name:       "an agent may list labels",
				request:    as(agent, request{method: "GET", path: labels}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 4},
			},
		})
		if urgent == 0 || billing == 0 {
			t.Fatal("no labels to go on with")
		}
		a.run(t, []scenario{
			{
				name:       "show answers the label unwrapped",
				request:    one("GET", urgent, nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": urgent, "title": "urgent-case", "color": "#FF0000"},
			},
			{
				name:       "an agent may show a label",
				request:    as(agent, one("GET", urgent, nil)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": urgent},
			},
			status("show of an unknown label is 404", one("GET", 999999, nil), http.StatusNotFound),
			status("show of another account's label is 404", one("GET", labelB, nil), http.StatusNotFound),
			status("an agent's show of another account's label is 404", as(agent, one("GET", labelB, nil)), http.StatusNotFound),
			status("PATCH of another account's label is 404", one("PATCH", labelB, H{"title": "hijacked"}), http.StatusNotFound),
			status("DELETE of another account's label is 404", one("DELETE", labelB, nil), http.StatusNotFound),
			status("an agent's PATCH is 403", as(agent, one("PATCH", urgent, H{"color": "#000000"})), http.StatusForbidden),
			status("an agent's DELETE is 403", as(agent, one("DELETE", urgent, nil)), http.StatusForbidden),
			{
				name:       "the agent's refused writes changed nothing",
				request:    one("GET", urgent, nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"title": "urgent-case", "color": "#FF0000"},
			},
			{
				name:       "PATCH changes the sent fields and lower-cases a new title",
				request:    one("PATCH", billing, H{"title": "Billing-Team", "color": "#00aa00", "show_on_sidebar": true}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": billing, "title": "billing-team", "color": "#00aa00", "show_on_sidebar": true, "description": ""},
			},
			{
				name:       "PUT changes the description alone",
				request:    one("PUT", billing, H{"description": "Invoices"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"title": "billing-team", "description": "Invoices", "color": "#00aa00"},
			},
			{
				name:       "PATCH keeping its own title in another case is not a clash",
				request:    one("PATCH", billing, H{"title": "BILLING-TEAM"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"title": "billing-team"},
			},
			invalid("PATCH to another label's title is 422 naming title", one("PATCH", billing, H{"title": "Urgent-Case"}), "title"),
			invalid("PATCH to a title with a space is 422 naming title", one("PATCH", billing, H{"title": "billing team"}), "title"),
			invalid("PATCH to a blank title is 422 naming title", one("PATCH", billing, H{"title": ""}), "title"),
			invalid("PATCH to a bad colour is 422 naming color", one("PATCH", billing, H{"color": "green"}), "color"),
			status("PATCH of an unknown label is 404", one("PATCH", 999999, H{"color": "#000000"}), http.StatusNotFound),
			{
				name:       "the refused PATCHes changed nothing",
				request:    one("GET", billing, nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"title": "billing-team", "color": "#00aa00"},
			},
			{
				name:       "DELETE answers 200 with no body",
				request:    one("DELETE", urgent, nil),
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					if len(r.Body) != 0 {
						t.Errorf("want an empty body, got %s", r.Body)
					}
				},
			},
			status("the deleted label is 404", one("GET", urgent, nil), http.StatusNotFound),
			status("deleting it again is 404", one("DELETE", urgent, nil), http.StatusNotFound),
			{
				name:       "its title is free again",
				request:    create(H{"title": "urgent-case"}),
				wantStatus: http.StatusOK,
			},
			{
				name:       "the other account's label is untouched",
				request:    request{method: "GET", path: accountPath(accB, "/labels/%d", labelB), token: adminB},
				wantStatus: http.StatusOK,
				want:       map[string]any{"title": "b-only"},
			},
			{
				name:       "a title taken in another account is free here",
				request:    create(H{"title": "B-Only"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"title": "b-only"},
			},
		})
	})
}

// TestLabelsOnRecords: renaming a label renames it on the conversations and
// contacts that carry it; deleting it removes it from them; another
// account's records are left alone.
func TestLabelsOnRecords(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("API")
		vip := a.label("vip")
		a.label("lead")
		a.label("vip-plus")
		alice, aliceSource := a.contact(ib, H{"name": "Alice"})
		bob, _ := a.contact(ib, H{"name": "Bob"})
		conv := a.startConversation(a.Account, "", H{"source_id": aliceSource, "inbox_id": ib})
		plain := a.startConversation(a.Account, "", H{"inbox_id": ib, "contact_id": bob})
		setLabels := func(path string, labels ...string) {
			a.mustDo(request{method: "POST", path: path, body: H{"labels": labels}}, http.StatusOK)
		}
		setLabels(a.path("/contacts/%d/labels", alice), "vip", "lead")
		setLabels(a.path("/contacts/%d/labels", bob), "vip-plus")
		setLabels(a.path("/conversations/%d/labels", conv), "vip", "other")
		setLabels(a.path("/conversations/%d/labels", plain), "lead", "vip-plus")

		accB, adminB := a.otherAccount("Globex")
		ibB := a.inboxIn(accB, adminB, "B", H{"type": "api"})
		a.mustDo(request{method: "POST", path: accountPath(accB, "/labels"), token: adminB, body: H{"title": "vip"}}, http.StatusOK)
		carol, carolSource := a.contactIn(accB, adminB, ibB, H{"name": "Carol"})
		convB := a.startConversation(accB, adminB, H{"source_id": carolSource, "inbox_id": ibB})
		a.mustDo(request{method: "POST", path: accountPath(accB, "/contacts/%d/labels", carol), token: adminB, body: H{"labels": []string{"vip"}}}, http.StatusOK)
		a.mustDo(request{method: "POST", path: accountPath(accB, "/conversations/%d/labels", convB), token: adminB, body: H{"labels": []string{"vip"}}}, http.StatusOK)

		labelsOf := func(name, path string, want ...string) scenario {
			return scenario{name: name, request: request{method: "GET", path: path}, wantStatus: http.StatusOK,
				want: map[string]any{"payload": sameItems(stringsAny(want)...)}}
		}
		a.run(t, []scenario{
			{
				name:       "renaming a label answers the new title",
				request:    request{method: "PATCH", path: a.path("/labels/%d", vip), body: H{"title": "Gold"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"title": "gold"},
			},
			labelsOf("the renamed label is renamed on the contact", a.path("/contacts/%d/labels", alice), "gold", "lead"),
			labelsOf("the renamed label is renamed on the conversation", a.path("/conversations/%d/labels", conv), "gold", "other"),
			labelsOf("a label that merely starts the same is left alone on contacts", a.path("/contacts/%d/labels", bob), "vip-plus"),
			labelsOf("a label that merely starts the same is left alone on conversations", a.path("/conversations/%d/labels", plain), "lead", "vip-plus"),
			{
				name:       "the conversation itself shows the new title",
				request:    request{method: "GET", path: a.path("/conversations/%d", conv)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"labels": sameItems("gold", "other")},
			},
			{
				name:       "the contact list's label filter finds it under the new title",
				request:    request{method: "GET", path: a.path("/contacts?labels[]=gold")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{alice}},
			},
			{
				name:       "deleting the label answers 200",
				request:    request{method: "DELETE", path: a.path("/labels/%d", vip)},
				wantStatus: http.StatusOK,
			},
			labelsOf("the deleted label is gone from the contact", a.path("/contacts/%d/labels", alice), "lead"),
			labelsOf("the deleted label is gone from the conversation", a.path("/conversations/%d/labels", conv), "other"),
			labelsOf("the other records keep their labels (contact)", a.path("/contacts/%d/labels", bob), "vip-plus"),
			labelsOf("the other records keep their labels (conversation)", a.path("/conversations/%d/labels", plain), "lead", "vip-plus"),
			{
				name:       "another account's contact keeps its label of the same title",
				request:    request{method: "GET", path: accountPath(accB, "/contacts/%d/labels", carol), token: adminB},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []string{"vip"}},
			},
			{
				name:       "another account's conversation keeps its label of the same title",
				request:    request{method: "GET", path: accountPath(accB, "/conversations/%d/labels", convB), token: adminB},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []string{"vip"}},
			},
		})
	})
}

func stringsAny(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
