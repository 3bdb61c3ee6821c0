package rest_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// The list reads only the fields its partial shows of each conversation's
// contact and inbox: a listed conversation, with every field of its contact
// set, reads as its own GET does (but for the last messages, which only the
// list carries).
func TestAListedConversationReadsAsItsShow(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("Support")
		contact, _ := a.contact(ib, H{"name": "Alice Doe", "email": "alice@example.com", "phone_number": "+4915112345678",
			"identifier": "crm-7", "avatar_url": "https://example.com/a.png", "additional_attributes": H{"company": "Acme"},
			"custom_attributes": H{"tier": "gold"}})
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", contact), body: H{"labels": []string{"vip"}}}, http.StatusOK)
		id := a.startConversation(a.Account, "", H{"inbox_id": ib, "contact_id": contact, "custom_attributes": H{"plan": "pro"},
			"message": H{"content": "Hello"}})
		a.mustDo(request{method: "POST", path: a.path("/conversations/%d/labels", id), body: H{"labels": []string{"billing"}}}, http.StatusOK)

		listed := a.mustDo(request{method: "GET", path: a.path("/conversations")}, http.StatusOK)
		var page struct {
			Data struct{ Payload []map[string]json.RawMessage } `json:"data"`
		}
		if err := json.Unmarshal(listed.Body, &page); err != nil || len(page.Data.Payload) != 1 {
			t.Fatalf("list: %v, %s", err, listed.Body)
		}
		var show map[string]json.RawMessage
		if err := json.Unmarshal(a.mustDo(request{method: "GET", path: a.path("/conversations/%d", id)}, http.StatusOK).Body, &show); err != nil {
			t.Fatal(err)
		}
		item := page.Data.Payload[0]
		delete(item, "messages")
		delete(show, "messages")
		gotRaw, _ := json.Marshal(item)
		wantRaw, _ := json.Marshal(show)
		if string(gotRaw) != string(wantRaw) {
			t.Errorf("listed:\n%s\nshown:\n%s", gotRaw, wantRaw)
		}
		var meta struct {
			Sender  map[string]any `json:"sender"`
			Channel string         `json:"channel"`
		}
		_ = json.Unmarshal(item["meta"], &meta)
		if meta.Sender["email"] != "alice@example.com" || meta.Sender["identifier"] != "crm-7" || meta.Channel != "Channel::Api" {
			t.Errorf("the listed sender and channel lack their fields: %s", item["meta"])
		}
	})
}
