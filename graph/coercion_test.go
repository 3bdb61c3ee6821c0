package graph_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// One coercion per value (internal/coerce): a value sent over REST and the
// same value sent over GraphQL mean the same thing. Before, GraphQL kept a
// time's offset (SQLite compares stored times as text, so a bound with an
// offset missed or caught the wrong cards) and read an import mapping's
// null as the column "<nil>" and its numbers as text.
func TestTransportsCoerceAlike(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		funnel := atoi(t, mustGet(t, a.mustREST("POST", base+"/funnels", a.Admin, H{"name": "Deals",
			"stages": []H{{"name": "New", "slug": "new"}}}, http.StatusOK), "id"))
		card := a.mustREST("POST", base+"/kanban_items", a.Admin, H{"funnel_id": funnel, "item_details": H{"title": "Deal"}}, http.StatusOK)
		created, err := time.Parse(time.RFC3339Nano, mustGet(t, card, "created_at").(string))
		if err != nil {
			t.Fatal(err)
		}
		t.Run("a time with an offset bounds the cards at the same instant", func(t *testing.T) {
			east, west := time.FixedZone("+12", 12*3600), time.FixedZone("-12", -12*3600)
			hourBefore := created.Add(-time.Hour).In(east).Format(time.RFC3339)
			hourAfter := created.Add(time.Hour).In(west).Format(time.RFC3339)
			for _, c := range []struct {
				name     string
				from, to string
				want     int
			}{
				{"created before an hour ago (+12:00)", "", hourBefore, 0},
				{"created from in an hour (-12:00)", hourAfter, "", 0},
				{"created between the two", hourBefore, hourAfter, 1},
			} {
				query := url.Values{"funnel_id": {id(funnel)}}
				vars := H{"f": funnel}
				if c.from != "" {
					query.Set("created_from", c.from)
					vars["from"] = c.from
				}
				if c.to != "" {
					query.Set("created_to", c.to)
					vars["to"] = c.to
				}
				viaREST := mustGet(t, a.mustREST("GET", base+"/kanban_items/filter?"+query.Encode(), a.Admin, nil, http.StatusOK), "meta.count")
				r := a.gql(gqlReq{query: `query($f: ID!, $from: Time, $to: Time) {
					kanbanItems(first: 10, where: {funnelID: $f, createdAtGTE: $from, createdAtLT: $to}) { totalCount } }`, vars: vars})
				if len(r.Errors) > 0 {
					t.Fatalf("%s: %s", c.name, r)
				}
				viaGraphQL := mustGet(t, r.Data, "kanbanItems.totalCount")
				if viaREST != float64(c.want) || viaGraphQL != float64(c.want) {
					t.Errorf("%s: REST counts %v, GraphQL %v, want %d", c.name, viaREST, viaGraphQL, c.want)
				}
			}
		})
		t.Run("a due date with an offset is the same instant, in UTC", func(t *testing.T) {
			cardID := atoi(t, mustGet(t, card, "id"))
			due := "2026-12-01T10:00:00+02:00"
			r := a.mustREST("POST", fmt.Sprintf("%s/kanban_items/%d/create_checklist_item", base, cardID), a.Admin,
				H{"text": "REST", "due_date": due}, http.StatusOK)
			if got := mustGet(t, r, "checklist_item.due_date"); got != "2026-12-01T08:00:00.000Z" {
				t.Errorf("REST stored %v", got)
			}
			g := a.gql(gqlReq{query: `mutation($id: ID!, $due: Time) { createChecklistItem(kanbanItemID: $id, input: {text: "GraphQL", dueDate: $due}) { checklistItem { dueDate } userErrors { field message code } } }`,
				vars: H{"id": cardID, "due": due}})
			if got := mustGet(t, g.Data, "createChecklistItem.checklistItem.dueDate"); got != "2026-12-01T08:00:00Z" {
				t.Errorf("GraphQL stored %v: %s", got, g)
			}
			g = a.gql(gqlReq{query: `query($id: ID!) { kanbanItem(id: $id) { checklistItems { text dueDate } } }`, vars: H{"id": cardID}})
			if got := mustGet(t, g.Data, "kanbanItem.checklistItems.*.dueDate"); fmt.Sprint(got) != "[2026-12-01T08:00:00Z 2026-12-01T08:00:00Z]" {
				t.Errorf("read back through GraphQL: %v", got)
			}
		})
		t.Run("a snooze time with an offset is the same instant, in UTC", func(t *testing.T) {
			ib := a.inbox(a.Account, a.Admin, "API", H{"type": "api"})
			ct := a.contact(a.Admin, ib, H{"name": "Snoozer"})
			until := "2030-01-01T10:00:00+02:00"
			for _, via := range []string{"REST", "GraphQL"} {
				conv := mustGet(t, a.mustREST("POST", base+"/conversations", a.Admin, H{"inbox_id": ib, "contact_id": ct}, http.StatusOK), "id")
				if via == "REST" {
					a.mustREST("POST", fmt.Sprintf("%s/conversations/%v/toggle_status", base, conv), a.Admin,
						H{"status": "snoozed", "snoozed_until": until}, http.StatusOK)
				} else if g := a.gql(gqlReq{query: `mutation($d: Int!, $u: Time) { toggleConversationStatus(displayID: $d, status: "snoozed", snoozedUntil: $u) { conversation { id } userErrors { field message code } } }`,
					vars: H{"d": conv, "u": until}}); len(g.Errors) > 0 {
					t.Fatalf("GraphQL snooze: %s", g)
				}
				g := a.gql(gqlReq{query: `query($d: Int!) { conversation(displayID: $d) { snoozedUntil } }`, vars: H{"d": conv}})
				if got := mustGet(t, g.Data, "conversation.snoozedUntil"); got != "2030-01-01T08:00:00Z" {
					t.Errorf("snoozed via %s: read back %v: %s", via, got, g)
				}
			}
		})
		t.Run("an import mapping reads alike", func(t *testing.T) {
			file := []byte("Title,Notes\nAcme,call back\n")
			for _, c := range []struct {
				name    string
				mapping H
				created int // 0: refused, naming the mapping
			}{
				{"a null column is ignored", H{"Title": "title", "Notes": nil}, 1},
				{"an empty mapping maps the columns named as card fields", H{}, 1},
				{"a number is refused", H{"Title": 1}, 0},
			} {
				mapping, _ := json.Marshal(c.mapping)
				status, body := a.restImport(base+"/kanban_items/import", map[string]string{"funnel_id": id(funnel), "mappings": string(mapping)}, file)
				g := a.gqlMultipart("", `mutation($f: ID!, $file: Upload!, $m: Map) { importKanbanItems(funnelID: $f, file: $file, mapping: $m) { result { created { id } } userErrors { field message code } } }`,
					H{"f": funnel, "file": nil, "m": c.mapping}, []upload{{"variables.file", "cards.csv", "text/csv", file}})
				if c.created == 0 {
					if status != http.StatusUnprocessableEntity || fmt.Sprint(mustGet(t, body, "attributes")) != "[mappings]" {
						t.Errorf("%s: REST answered %d %v, want 422 naming mappings", c.name, status, body)
					}
					if g.code() != "INVALID" || fmt.Sprint(g.attrs()) != "[mapping]" {
						t.Errorf("%s: GraphQL answered %s, want an error naming mapping", c.name, g)
					}
					continue
				}
				if status != http.StatusOK || mustGet(t, body, "created_count") != float64(c.created) {
					t.Errorf("%s: REST answered %d %v", c.name, status, body)
				}
				if len(g.Errors) > 0 || mustGet(t, g.Data, "importKanbanItems.result.created.#") != float64(c.created) {
					t.Errorf("%s: GraphQL answered %s", c.name, g)
				}
			}
		})
	})
}

// restImport posts a CSV import as the multipart form REST reads.
func (a *app) restImport(path string, fields map[string]string, file []byte) (int, any) {
	a.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		must(a.t, w.WriteField(k, v))
	}
	part, err := w.CreateFormFile("file", "cards.csv")
	must(a.t, err)
	_, err = part.Write(file)
	must(a.t, err)
	must(a.t, w.Close())
	req := httptest.NewRequest(http.MethodPost, path, &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	setToken(req, a, "")
	res, err := a.srv.App.Test(req, -1)
	must(a.t, err)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var v any
	_ = json.Unmarshal(raw, &v)
	return res.StatusCode, v
}
