package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestCardAndStageFormats: the formats of a card's currency and a stage's
// slug and colour are the ent layer's (validators and hooks), so a write
// through any operation obeys them; REST reads a bare currency code too.
func TestCardAndStageFormats(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		funnel := a.mustDo(request{method: "POST", path: a.path("/funnels"), body: H{"name": "Deals",
			"stages": []H{{"name": "New", "slug": "new"}}}}, http.StatusOK).int(t, "id")
		card := func(currency any) request {
			return request{method: "POST", path: a.path("/kanban_items"), body: H{"funnel_id": funnel, "funnel_stage": "new",
				"item_details": H{"title": "Deal", "currency": currency}}}
		}
		a.run(t, []scenario{
			{name: "a bare code is read as the currency's code", request: card(" EUR "), wantStatus: http.StatusOK,
				want: map[string]any{"item_details.currency": H{"code": "EUR"}}},
			{name: "an object's strings are trimmed", request: card(H{"code": "BRL ", "symbol": "R$", "locale": "pt-BR"}), wantStatus: http.StatusOK,
				want: map[string]any{"item_details.currency": H{"code": "BRL", "symbol": "R$", "locale": "pt-BR"}}},
			invalid("a number inside is 422", card(H{"code": 978}), "item_details.currency"),
			invalid("an unknown key is 422", card(H{"code": "EUR", "rate": "1.1"}), "currency"),
			invalid("a stage slug with spaces is 422", request{method: "POST", path: a.path("/funnels"), body: H{"name": "X",
				"stages": []H{{"name": "A", "slug": "a b"}}}}, "stages"),
			invalid("a stage colour that is not hex is 422", request{method: "POST", path: a.path("/funnels"), body: H{"name": "X",
				"stages": []H{{"name": "A", "slug": "a", "color": "red"}}}}, "stages"),
		})
	})
}

// TestNULCharactersAreRefusedAlike: PostgreSQL stores no NUL in text, so a
// NUL in a body or query string is a 400 on both engines (it was a 500 on
// PostgreSQL and stored on SQLite); a literal backslash-u text is fine.
func TestNULCharactersAreRefusedAlike(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("Support")
		a.run(t, []scenario{
			status("a JSON \\u0000 escape is 400", request{method: "POST", path: a.path("/contacts"),
				body: `{"inbox_id": ` + itoa(ib) + `, "name": "A\u0000B"}`}, http.StatusBadRequest),
			status("a raw NUL byte is 400", request{method: "POST", path: a.path("/contacts"),
				body: []byte("{\"inbox_id\": " + itoa(ib) + ", \"name\": \"A\x00B\"}")}, http.StatusBadRequest),
			status("%00 in the query string is 400", request{method: "GET", path: a.path("/contacts/search") + "?q=a%00b"}, http.StatusBadRequest),
			{name: "an escaped backslash before u0000 is plain text", request: request{method: "POST", path: a.path("/contacts"),
				body: `{"inbox_id": ` + itoa(ib) + `, "name": "A\\u0000B"}`}, wantStatus: http.StatusOK,
				want: map[string]any{"payload.contact.name": `A\u0000B`}},
		})
	})
}

// TestTextsPastWhatTheDatabaseReads: a filter text past the longest LIKE
// pattern SQLite takes, and attributes nested past the depth its JSON
// functions read, were 500s (the second for every attribute filter of the
// account, once one contact held them); they are 422s naming the field, on
// both engines, and nothing is stored.
func TestTextsPastWhatTheDatabaseReads(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		ib := a.apiInbox("Support")
		ct, _ := a.contact(ib, H{"name": "Ann", "additional_attributes": H{"city": "Paris"}})
		deep := H{"v": 1}
		for range 40 {
			deep = H{"x": deep}
		}
		filter := func(op string, value any) request {
			return request{method: "POST", path: a.path("/contacts/filter"), body: H{"payload": []H{
				{"attribute_key": "name", "filter_operator": op, "values": []any{value}}}}}
		}
		byCity := request{method: "POST", path: a.path("/contacts/filter"), body: H{"payload": []H{
			{"attribute_key": "city", "filter_operator": "equal_to", "values": []string{"Paris"}}}}}
		a.run(t, []scenario{
			invalid("a contains value of 60,000 characters is 422 naming values", filter("contains", strings.Repeat("x", 60_000)), "values"),
			invalid("and so for starts_with", filter("starts_with", strings.Repeat("x", 1001)), "values"),
			{name: "1,000 characters are a text like any other", request: filter("contains", strings.Repeat("x", 1000)),
				wantStatus: http.StatusOK, want: map[string]any{"meta.count": 0}},
			invalid("attributes nested 41 deep are 422", as(agent, request{method: "PATCH", path: a.path("/contacts/%d", ct),
				body: H{"additional_attributes": H{"city": "Paris", "x": deep}}}), "additional_attributes"),
			{name: "the attribute filters of the account still answer", request: byCity,
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{ct}}},
		})
	})
}
