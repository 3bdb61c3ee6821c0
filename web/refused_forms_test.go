package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestRefusedFormsKeepWhatWasTyped: a contact's details, a label (new or
// edited) and a webhook (new or edited) refused by the operation answer 422
// with the sentence and the refused form as it was typed (unfolded when it
// folds), not as the database holds it; the other forms show what is stored.
func TestRefusedFormsKeepWhatWasTyped(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		c := newConsole(t, e)
		c.newPipeline()
		contact := idOf(c.mustGet(c.api("/contacts"))["payload"].([]any)[0].(map[string]any), "id") // Alice Buyer
		c.mustPost(c.api("/labels"), map[string]any{"title": "vip", "color": "#d73a49"})
		billing := idOf(c.mustPost(c.api("/labels"), map[string]any{"title": "billing", "color": "#f9d0c4", "description": "Invoices"}), "id")
		made := c.mustPost(c.api("/webhooks"), map[string]any{"url": "https://hooks.example.com/in", "name": "CRM", "subscriptions": []string{"conversation_created"}})
		hook := idOf(made["payload"].(map[string]any)["webhook"].(map[string]any), "id")
		for _, tc := range []struct {
			name, path string
			form       url.Values
			want       []string // in the answer
			not        []string // nor these
		}{
			{"a contact's details", c.app(fmt.Sprintf("/contacts/%d/edit", contact)),
				url.Values{"name": {"Alicia Typed"}, "email": {"not an e-mail"}, "phone_number": {"+15550001111"}},
				[]string{`<details class="edit" open>`, `value="Alicia Typed"`, `value="not an e-mail"`, `value="+15550001111"`,
					`data-testid="contact-name">Alice Buyer<`, `data-testid="contact-error"`}, nil},
			{"a new label", c.app("/settings/labels"),
				url.Values{"title": {"vip"}, "color": {"#123456"}, "description": {"Typed description"}},
				[]string{`value="vip" placeholder="New label"`, `value="#123456"`, `value="Typed description" placeholder="Description" aria-label="Description" data-testid="new-label-description"`,
					`data-testid="settings-error"`}, nil},
			{"a label renamed", c.app(fmt.Sprintf("/settings/labels/%d", billing)),
				url.Values{"title": {"vip"}, "color": {"#0000ff"}, "description": {"Renamed"}},
				[]string{`value="vip" aria-label="Title" required data-testid="label-title-billing"`, `value="#0000ff"`, `value="Renamed"`},
				[]string{`value="Invoices"`}},
			{"a new webhook", c.app("/settings/webhooks"),
				url.Values{"name": {"Typed hook"}, "url": {"http://localhost/hook"}, "subscriptions": {"message_created"}},
				[]string{`value="Typed hook"`, `value="http://localhost/hook"`, `value="message_created" checked data-testid="new-hook-message_created"`,
					`data-testid="settings-error"`}, nil},
			{"a webhook edited", c.app(fmt.Sprintf("/settings/webhooks/%d", hook)),
				url.Values{"name": {"CRM two"}, "url": {"http://localhost/other"}, "subscriptions": {"", "message_created"}},
				[]string{`<details class="edit" open>`, `value="CRM two"`, `value="http://localhost/other"`,
					fmt.Sprintf(`value="message_created" checked data-testid="hook-%d-message_created"`, hook)},
				[]string{fmt.Sprintf(`value="conversation_created" checked data-testid="hook-%d-conversation_created"`, hook)}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := c.send("POST", tc.path, tc.form, map[string]string{"Cookie": c.cookie, "Origin": c.base})
				if r.status != http.StatusUnprocessableEntity {
					t.Fatalf("answered %d, want 422", r.status)
				}
				for _, w := range tc.want {
					if !strings.Contains(r.body, w) {
						t.Errorf("the answer lacks %s", w)
					}
				}
				for _, n := range tc.not {
					if strings.Contains(r.body, n) {
						t.Errorf("the answer shows %s", n)
					}
				}
			})
		}
	})
}
