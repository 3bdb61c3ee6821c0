package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestRefusedFormsKeepWhatWasTyped: a contact's details and the settings'
// forms (a label, an agent, a team, an inbox, a webhook; new or edited;
// the kanban webhook)
// refused by the operation answer 422 with the refused form as it was
// typed (unfolded when it folds), not as the database holds it, and write
// nothing; a settings form's refused field is aria-invalid and described
// by its sentence next to it (the other forms show what is stored).
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
		c.mustPost(c.api("/agents"), map[string]any{"name": "Dora", "email": "dora@acme.test", "role": "agent"})
		c.mustPost(c.api("/teams"), map[string]any{"name": "sales"})
		support := idOf(c.mustPost(c.api("/teams"), map[string]any{"name": "support", "description": "Help desk"}), "id")
		inbox := idOf(c.mustPost(c.api("/inboxes"), map[string]any{"name": "Desk", "channel": map[string]any{"type": "api"}}), "id")
		c.apiGet("/kanban_config") // made on its first read, which alone shows its secret
		for _, tc := range []struct {
			name, path string
			form       url.Values
			want       []string // in the answer
			not        []string // nor these
			// tied are the refused fields: each the attributes its input
			// has just before aria-describedby and aria-invalid.
			tied map[string]string
			// stored is the API's listing the refusal must leave as it was
			// ("": not read).
			stored string
		}{
			{name: "a contact's details", path: c.app(fmt.Sprintf("/contacts/%d/edit", contact)),
				form: url.Values{"name": {"Alicia Typed"}, "email": {"not an e-mail"}, "phone_number": {"+15550001111"}},
				want: []string{`<details class="edit" open>`, `value="Alicia Typed"`, `value="not an e-mail"`, `value="+15550001111"`,
					`data-testid="contact-name">Alice Buyer<`, `data-testid="contact-error"`}},
			{name: "a new label", path: c.app("/settings/labels"),
				form: url.Values{"title": {"vip"}, "color": {"#123456"}, "description": {"Typed description"}},
				want: []string{`value="vip" placeholder="New label"`, `value="#123456"`, `value="Typed description" placeholder="Description" aria-label="Description" data-testid="new-label-description"`},
				tied: map[string]string{"title": `data-testid="new-label-title"`}, stored: "/labels"},
			{name: "a label renamed", path: c.app(fmt.Sprintf("/settings/labels/%d", billing)),
				form: url.Values{"title": {"vip"}, "color": {"#0000ff"}, "description": {"Renamed"}},
				want: []string{`value="vip" aria-label="Title" required data-testid="label-title-billing"`, `value="#0000ff"`, `value="Renamed"`},
				not:  []string{`value="Invoices"`}, tied: map[string]string{"title": `data-testid="label-title-billing"`}, stored: "/labels"},
			{name: "a new webhook", path: c.app("/settings/webhooks"),
				form: url.Values{"name": {"Typed hook"}, "url": {"http://localhost/hook"}, "subscriptions": {"message_created"}},
				want: []string{`value="Typed hook"`, `value="http://localhost/hook"`, `value="message_created" checked data-testid="new-hook-message_created"`},
				tied: map[string]string{"url": `data-testid="new-hook-url"`}, stored: "/webhooks"},
			{name: "a new webhook to no event", path: c.app("/settings/webhooks"),
				form: url.Values{"name": {"Quiet hook"}, "url": {"https://hooks.example.com/quiet"}},
				want: []string{`value="Quiet hook"`, `value="https://hooks.example.com/quiet"`},
				tied: map[string]string{"subscriptions": `data-testid="new-hook-message_created"`}, stored: "/webhooks"},
			{name: "a webhook edited", path: c.app(fmt.Sprintf("/settings/webhooks/%d", hook)),
				form: url.Values{"name": {"CRM two"}, "url": {"http://localhost/other"}, "subscriptions": {"", "message_created"}},
				want: []string{`<details class="edit" open>`, `value="CRM two"`, `value="http://localhost/other"`,
					fmt.Sprintf(`value="message_created" checked data-testid="hook-%d-message_created"`, hook)},
				not:  []string{fmt.Sprintf(`value="conversation_created" checked data-testid="hook-%d-conversation_created"`, hook)},
				tied: map[string]string{"url": fmt.Sprintf(`data-testid="hook-url-%d"`, hook)}, stored: "/webhooks"},
			{name: "a new agent with no e-mail address", path: c.app("/settings/agents"),
				form: url.Values{"name": {"Typed Agent"}, "email": {"not an e-mail"}, "role": {"administrator"}},
				want: []string{`value="Typed Agent"`, `value="not an e-mail"`, `<option value="administrator" selected>`},
				tied: map[string]string{"email": `data-testid="new-agent-email"`}, stored: "/agents"},
			{name: "a new agent who is one already", path: c.app("/settings/agents"),
				form: url.Values{"name": {"Dora Again"}, "email": {"dora@acme.test"}, "role": {"agent"}},
				want: []string{`value="Dora Again"`, `value="dora@acme.test" placeholder`},
				tied: map[string]string{"email": `data-testid="new-agent-email"`}, stored: "/agents"},
			{name: "the only administrator made an agent", path: c.app(fmt.Sprintf("/settings/agents/%d", c.user)),
				form: url.Values{"role": {"agent"}, "availability": {"busy"}},
				want: []string{`aria-invalid="true"><option value="agent" selected>`, `<option value="busy" selected>`},
				tied: map[string]string{"role": `<select name="role" aria-label="Role"`}, stored: "/agents"},
			{name: "a new team of a taken name", path: c.app("/settings/teams"),
				form: url.Values{"name": {"Sales"}, "description": {"Typed team"}},
				want: []string{`value="Sales" placeholder="New team"`, `value="Typed team"`},
				tied: map[string]string{"name": `data-testid="new-team-name"`}, stored: "/teams"},
			{name: "a team renamed to a taken name", path: c.app(fmt.Sprintf("/settings/teams/%d", support)),
				form: url.Values{"name": {"sales"}, "description": {"Renamed desk"}, "members": {"", fmt.Sprint(c.user)}},
				want: []string{`value="sales" aria-label="Name" required data-testid="team-name-support"`, `value="Renamed desk"`,
					fmt.Sprintf(`checked data-testid="team-support-member-%d"`, c.user)},
				not: []string{`value="Help desk"`}, tied: map[string]string{"name": `data-testid="team-name-support"`}, stored: "/teams"},
			{name: "a team renamed with a member not of the account", path: c.app(fmt.Sprintf("/settings/teams/%d", support)),
				form: url.Values{"name": {"Support desk"}, "description": {"Typed desk"}, "members": {"", "999999"}},
				want: []string{`value="Support desk" aria-label="Name" required data-testid="team-name-support"`, `value="Typed desk"`},
				not:  []string{`value="Help desk"`}, stored: "/teams"},
			{name: "a team renamed with a member that is no id", path: c.app(fmt.Sprintf("/settings/teams/%d", support)),
				form: url.Values{"name": {"Support desk"}, "description": {"Typed desk"}, "members": {"", "Dora"}},
				want: []string{`value="Support desk" aria-label="Name" required data-testid="team-name-support"`, "Members must be agents&#39; ids"},
				not:  []string{`value="Help desk"`}, stored: "/teams"},
			{name: "the kanban webhook to this machine", path: c.app("/settings/kanban"),
				form: url.Values{"webhook_url": {"http://localhost/kanban"}, "enabled": {"false", "true"},
					"webhook_events": {"", "kanban_item.moved"}},
				want: []string{`value="http://localhost/kanban"`, `value="true" checked data-testid="kanban-enabled"`,
					`value="kanban_item.moved" checked data-testid="kanban-kanban_item.moved"`},
				not:  []string{`value="kanban_item.created" checked`},
				tied: map[string]string{"webhook_url": `data-testid="kanban-url"`}, stored: "/kanban_config"},
			{name: "an inbox in no time zone", path: c.app(fmt.Sprintf("/settings/inboxes/%d", inbox)),
				form: url.Values{"name": {"Typed desk"}, "timezone": {"Mars/Olympus"}, "greeting_enabled": {"false", "true"},
					"greeting_message": {"Typed hello"}, "out_of_office_message": {"Typed away"}},
				want: []string{`value="Typed desk"`, `value="Mars/Olympus"`, `value="Typed hello"`, `value="Typed away"`,
					fmt.Sprintf(`value="true" checked data-testid="inbox-greeting-on-%d"`, inbox)},
				not: []string{`value="Desk"`}, tied: map[string]string{"timezone": fmt.Sprintf(`data-testid="inbox-timezone-%d"`, inbox)}, stored: "/inboxes"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var before string
				if tc.stored != "" {
					_, before = c.apiGet(tc.stored)
				}
				r := c.send("POST", tc.path, tc.form, map[string]string{"Cookie": c.cookie, "Origin": c.base})
				if r.status != http.StatusUnprocessableEntity {
					t.Fatalf("answered %d, want 422", r.status)
				}
				want := tc.want
				for field, input := range tc.tied {
					id := "tried-err-" + field
					want = append(want, fmt.Sprintf(`%s aria-describedby="%s" aria-invalid="true"`, input, id), `id="`+id+`"`)
				}
				for _, w := range want {
					if !strings.Contains(r.body, w) {
						t.Errorf("the answer lacks %s", w)
					}
				}
				for _, n := range tc.not {
					if strings.Contains(r.body, n) {
						t.Errorf("the answer shows %s", n)
					}
				}
				if tc.stored != "" {
					if _, after := c.apiGet(tc.stored); after != before {
						t.Errorf("the refusal changed %s:\n%s\nto\n%s", tc.stored, before, after)
					}
				}
			})
		}
	})
}
