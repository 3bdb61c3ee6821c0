package contacts

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/switchboard/switchboard/ent/contact"
)

// A fuzz target of the contacts' parsers. CI runs it briefly:
// go test -run '^$' -fuzz FuzzContactFilter -fuzztime 10s ./internal/contacts;
// seeds are in testdata/fuzz.

// FuzzContactFilter reads a filter body as REST does and builds its SQL on
// both engines: a condition is refused with an error or becomes a
// predicate, and never panics.
func FuzzContactFilter(f *testing.F) {
	for _, s := range []string{
		`{"payload":[{"attribute_key":"name","filter_operator":"equal_to","values":["Ann"],"query_operator":"AND"}]}`,
		`{"payload":[{"attribute_key":"email","filter_operator":"contains","values":["@x"],"query_operator":"OR"},
			{"attribute_key":"city","filter_operator":"is_present","values":[]}]}`,
		`{"payload":[{"attribute_key":"created_at","filter_operator":"days_before","values":["-99999999999"]}]}`,
		`{"payload":[{"attribute_key":"last_activity_at","filter_operator":"is_greater_than","values":["2024-02-30"]}]}`,
		`{"payload":[{"attribute_key":"labels","filter_operator":"not_equal_to","values":[{"id":1,"name":"x"},null,true,1.5]}]}`,
		`{"payload":[{"attribute_key":"blocked","filter_operator":"equal_to","values":["maybe"]}]}`,
		`{"payload":[{"attribute_key":"plan","filter_operator":"contains","values":["' OR 1=1 --"]}]}`,
		`{"payload":[{"attribute_key":"score","filter_operator":"is_less_than","values":["NaN"],"query_operator":"XOR"}]}`,
		`{"payload":[]}`, `{"payload":null}`, `{}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	custom := []string{"plan", "score"}
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, body []byte) {
		var req struct {
			Payload []FilterCondition `json:"payload"`
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if dec.Decode(&req) != nil || checkFilterShape(req.Payload) != nil {
			return
		}
		where, err := contactFilterPredicate(req.Payload, custom, now)
		if err != nil {
			return
		}
		for _, d := range []string{dialect.SQLite, dialect.Postgres} {
			sel := sql.Dialect(d).Select("*").From(sql.Table(contact.Table))
			where(sel)
			if _, _ = sel.Query(); sel.Err() != nil {
				t.Fatalf("%s: %v", d, sel.Err())
			}
		}
	})
}
