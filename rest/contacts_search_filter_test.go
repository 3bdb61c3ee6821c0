package rest_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

func TestContactSearch(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		alice, _ := a.contact(api, H{"name": "Alice Smith", "email": "alice@example.com", "phone_number": "+15550001111", "identifier": "cust-001"})
		bob, _ := a.contact(api, H{"name": "Bob Jones", "email": "bob@work.test", "phone_number": "+447700900123"})
		carol, _ := a.contact(api, H{"name": "Carol", "email": "carol@example.com", "identifier": "VIP-7"})
		search := func(q string) request { return request{method: "GET", path: a.path("/contacts/search?%s", q)} }
		found := func(name, q string, ids ...any) scenario {
			return scenario{name: name, request: search(q), wantStatus: http.StatusOK,
				want: map[string]any{"payload.*.id": sameItems(ids...), "meta.count": len(ids)}}
		}
		a.run(t, []scenario{
			{
				name:       "search answers {meta: {count, current_page, has_more}, payload}",
				request:    search("q=alice"),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"meta.count": 1, "meta.current_page": 1, "meta.has_more": false,
					"payload.0.id": alice, "payload.0.contact_inboxes.#": 1,
				},
			},
			found("search matches the name ignoring case", "q=ALICE", alice),
			found("search matches part of the name", "q=jon", bob),
			found("search matches the e-mail ignoring case", "q=EXAMPLE.COM", alice, carol),
			found("search matches the phone number", "q=5550001111", alice),
			found("search matches a phone number with its plus", "q=%2B44770", bob),
			found("search matches the identifier ignoring case", "q=vip-7", carol),
			found("search matches the identifier", "q=cust-001", alice),
			found("search with no match is empty", "q=zebra", []any{}...),
			{
				name:       "search takes sort",
				request:    search("q=example&sort=-name"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{carol, alice}},
			},
			{
				name:        "search with an unknown sort is 422 naming sort",
				request:     search("q=example&sort=height"),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"sort"},
			},
			{
				name:        "search with a blank q is 422 naming q",
				request:     search("q="),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"q"},
			},
			{
				name:        "search with only spaces in q is 422 naming q",
				request:     search("q=%20%20"),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"q"},
			},
			{
				name:        "search without q is 422 naming q",
				request:     request{method: "GET", path: a.path("/contacts/search")},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"q"},
			},
			{
				name:       "search treats % and _ in q as text",
				request:    search("q=%25"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 0},
			},
		})
	})
}

func TestContactSearchPaging(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		for i := range 16 {
			a.contact(api, H{"name": fmt.Sprintf("Match %02d", i)})
		}
		a.contact(api, H{"name": "Other"})
		a.run(t, []scenario{
			{
				name:       "search page 1 of 16 matches has 15 and has_more",
				request:    request{method: "GET", path: a.path("/contacts/search?q=match&sort=name")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 15, "meta.has_more": true, "meta.current_page": 1, "payload.0.name": "Match 00"},
			},
			{
				name:       "search page 2 has the last match and no more",
				request:    request{method: "GET", path: a.path("/contacts/search?q=match&sort=name&page=2")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 1, "meta.has_more": false, "meta.current_page": 2, "payload.0.name": "Match 15"},
			},
		})
	})
}

func TestContactFilter(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		a.customAttribute("plan", "text", "contact_attribute")
		a.customAttribute("seats", "number", "contact_attribute")
		a.customAttribute("vip", "checkbox", "contact_attribute")
		a.customAttribute("topic", "text", "conversation_attribute")
		alice, _ := a.contact(api, H{"name": "Alice", "email": "alice@example.com", "identifier": "ext-a",
			"additional_attributes": H{"city": "Paris", "company": "Acme", "country_code": "FR"},
			"custom_attributes":     H{"plan": "gold", "seats": 10, "vip": true}})
		bob, _ := a.contact(api, H{"name": "Bob", "email": "bob@work.test",
			"additional_attributes": H{"city": "Berlin"},
			"custom_attributes":     H{"plan": "silver", "seats": 3, "vip": false}})
		carol, _ := a.contact(api, H{"name": "Carol", "phone_number": "+447700900123", "blocked": true})
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", alice), body: H{"labels": []string{"vip"}}}, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", bob), body: H{"labels": []string{"lead", "trial"}}}, http.StatusOK)

		cond := func(key, op string, values ...any) H {
			return H{"attribute_key": key, "filter_operator": op, "values": values, "query_operator": nil}
		}
		join := func(c H, op string) H { c["query_operator"] = op; return c }
		filter := func(conds ...H) request {
			return request{method: "POST", path: a.path("/contacts/filter"), body: H{"payload": conds}}
		}
		found := func(name string, rq request, ids ...any) scenario {
			return scenario{name: name, request: rq, wantStatus: http.StatusOK,
				want: map[string]any{"payload.*.id": sameItems(ids...), "meta.count": len(ids), "meta.current_page": 1}}
		}
		invalid := func(name string, rq request, field string) scenario {
			return scenario{name: name, request: rq, wantStatus: http.StatusUnprocessableEntity, wantInvalid: []string{field}}
		}
		tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format("2006-01-02")
		a.run(t, []scenario{
			found("filter email contains", filter(cond("email", "contains", "example.com")), alice),
			found("filter name equal_to ignores case", filter(cond("name", "equal_to", "alice")), alice),
			found("filter name not_equal_to", filter(cond("name", "not_equal_to", "Alice")), bob, carol),
			found("filter email does_not_contain keeps contacts without an e-mail", filter(cond("email", "does_not_contain", "example.com")), bob, carol),
			found("filter phone_number starts_with", filter(cond("phone_number", "starts_with", "+44")), carol),
			found("filter identifier equal_to", filter(cond("identifier", "equal_to", "ext-a")), alice),
			found("filter AND: both conditions must hold", filter(join(cond("name", "contains", "o"), "AND"), cond("labels", "equal_to", "lead")), bob),
			found("filter OR: either condition may hold", filter(join(cond("name", "equal_to", "Alice"), "OR"), cond("name", "equal_to", "Carol")), alice, carol),
			found("filter lower-case query operators are accepted", filter(join(cond("name", "equal_to", "Alice"), "or"), cond("name", "equal_to", "Bob")), alice, bob),
			found("filter AND binds tighter than OR", filter(
				join(cond("name", "equal_to", "Alice"), "AND"), join(cond("labels", "equal_to", "lead"), "OR"), cond("name", "equal_to", "Carol")), carol),
			found("filter labels equal_to", filter(cond("labels", "equal_to", "vip")), alice),
			found("filter labels equal_to matches any of the values", filter(cond("labels", "equal_to", "vip", "trial")), alice, bob),
			found("filter labels not_equal_to", filter(cond("labels", "not_equal_to", "vip")), bob, carol),
			found("filter labels is_present", filter(cond("labels", "is_present")), alice, bob),
			found("filter labels is_not_present", filter(cond("labels", "is_not_present")), carol),
			found("filter created_at is_greater_than a past date matches all", filter(cond("created_at", "is_greater_than", "2000-01-01")), alice, bob, carol),
			found("filter created_at is_greater_than tomorrow matches none", filter(cond("created_at", "is_greater_than", tomorrow))),
			found("filter created_at is_less_than tomorrow matches all", filter(cond("created_at", "is_less_than", tomorrow)), alice, bob, carol),
			found("filter last_activity_at days_before 1 matches none of today's contacts", filter(cond("last_activity_at", "days_before", "1"))),
			found("filter additional attribute city equal_to", filter(cond("city", "equal_to", "Paris")), alice),
			found("filter additional attribute country_code equal_to", filter(cond("country_code", "equal_to", "FR")), alice),
			found("filter additional attribute company contains, ignoring case", filter(cond("company", "contains", "aCM")), alice),
			found("filter additional attribute city does_not_contain, ignoring case, keeps contacts without it", filter(cond("city", "does_not_contain", "PAR")), bob, carol),
			found("filter additional attribute city not_equal_to keeps contacts without it", filter(cond("city", "not_equal_to", "Paris")), bob, carol),
			found("filter additional attribute contains treats % as text", filter(cond("company", "contains", "%"))),
			found("filter blocked equal_to true", filter(cond("blocked", "equal_to", true)), carol),
			found("filter custom attribute equal_to", filter(cond("plan", "equal_to", "gold")), alice),
			found("filter custom attribute is_present", filter(cond("plan", "is_present")), alice, bob),
			found("filter custom attribute is_not_present", filter(cond("plan", "is_not_present")), carol),
			found("filter custom attribute contains", filter(cond("plan", "contains", "OLD")), alice),
			found("filter custom number attribute equal_to a number", filter(cond("seats", "equal_to", 10)), alice),
			found("filter custom number attribute equal_to a numeric string", filter(cond("seats", "equal_to", "10")), alice),
			found("filter custom number attribute not_equal_to keeps contacts without it", filter(cond("seats", "not_equal_to", 10)), bob, carol),
			found("filter custom checkbox attribute equal_to true", filter(cond("vip", "equal_to", true)), alice),
			found("filter custom checkbox attribute equal_to \"false\"", filter(cond("vip", "equal_to", "false")), bob),
			found("filter custom number attribute is_greater_than", filter(cond("seats", "is_greater_than", 5)), alice),
			found("filter custom number attribute is_less_than a string number", filter(cond("seats", "is_less_than", "5")), bob),
			invalid("filter on an unknown attribute_key is 422 naming attribute_key", filter(cond("shoe_size", "equal_to", "42")), "attribute_key"),
			invalid("filter on a conversation custom attribute is 422 naming attribute_key", filter(cond("topic", "equal_to", "x")), "attribute_key"),
			invalid("filter with an operator the key does not allow is 422 naming filter_operator", filter(cond("identifier", "contains", "ext")), "filter_operator"),
			invalid("filter with a made-up operator is 422 naming filter_operator", filter(cond("name", "resembles", "Al")), "filter_operator"),
			invalid("filter with a bad query_operator is 422 naming query_operator", filter(join(cond("name", "equal_to", "Alice"), "XOR"), cond("name", "equal_to", "Bob")), "query_operator"),
			invalid("filter without values is 422 naming values", filter(cond("name", "equal_to")), "values"),
			invalid("filter with a date that is not a date is 422 naming values", filter(cond("created_at", "is_greater_than", "yesterday-ish")), "values"),
			invalid("filter with an empty payload is 422 naming payload", filter(), "payload"),
			{
				name:       "filter takes page: page 2 of three matches is empty",
				request:    request{method: "POST", path: a.path("/contacts/filter?page=2"), body: H{"payload": []H{cond("created_at", "is_greater_than", "2000-01-01")}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}, "meta.count": 3, "meta.current_page": 2},
			},
			{
				name:       "filter with values that are not a list is 422",
				request:    request{method: "POST", path: a.path("/contacts/filter"), body: H{"payload": []H{{"attribute_key": "name", "filter_operator": "equal_to", "values": "Alice"}}}},
				wantStatus: http.StatusUnprocessableEntity,
			},
			{
				name:       "filter with malformed JSON is 400",
				request:    request{method: "POST", path: a.path("/contacts/filter"), body: `{"payload": [`},
				wantStatus: http.StatusBadRequest,
			},
		})
	})
}
