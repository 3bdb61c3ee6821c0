package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// Every URL or host the service will call is checked when it is stored, by
// one validation in ops: localhost and literal special-purpose addresses are
// a 422 naming the field, and nothing is stored (issue 10). Names are
// checked again at dial time (internal/outbound's tests, with a resolver
// stub: nothing here connects anywhere).
func TestOutboundURLsAreCheckedWhenConfigured(t *testing.T) {
	outboundtest.AllowPrivate(t, false)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		hook := a.mustDo(request{method: "POST", path: a.path("/webhooks"),
			body: H{"url": "https://hooks.example.com/in", "subscriptions": []string{"message_created"}}}, http.StatusOK).int(t, "payload.webhook.id")
		bot := a.mustDo(request{method: "POST", path: a.path("/agent_bots"),
			body: H{"name": "Helper", "outgoing_url": "https://bot.example.com/in"}}, http.StatusOK).int(t, "id")
		api := a.apiInbox("API")
		mail := a.inbox("Mail", H{"type": "email", "email": "mail@acme.test", "smtp_address": "smtp.acme.test"})
		refused := []string{
			"http://localhost:8080/hook", "http://api.localhost/", "http://127.0.0.1/", "http://0.0.0.0/",
			"http://169.254.169.254/latest/meta-data/", "http://100.100.100.200/", "http://10.1.2.3/",
			"http://198.18.0.1/", "http://192.0.0.8/", "http://[::1]/", "http://[::ffff:127.0.0.1]/",
			"http://[64:ff9b::a9fe:a9fe]/", "http://[2002:a00:1::1]/", "http://[fd00::1]/", "http://2130706433/",
		}
		var scenarios []scenario
		for _, u := range refused {
			scenarios = append(scenarios,
				invalid("webhook create "+u, request{method: "POST", path: a.path("/webhooks"),
					body: H{"url": u, "subscriptions": []string{"message_created"}}}, "url"),
				invalid("webhook update "+u, request{method: "PATCH", path: a.path("/webhooks/%d", hook), body: H{"url": u}}, "url"),
				invalid("API inbox create "+u, request{method: "POST", path: a.path("/inboxes"),
					body: H{"name": "Evil", "channel": H{"type": "api", "webhook_url": u}}}, "channel.webhook_url"),
				invalid("API inbox update "+u, request{method: "PATCH", path: a.path("/inboxes/%d", api),
					body: H{"channel": H{"webhook_url": u}}}, "channel.webhook_url"),
				invalid("kanban webhook "+u, request{method: "PUT", path: a.path("/kanban_config"), body: H{"webhook_url": u}}, "webhook_url"),
				invalid("agent bot create "+u, request{method: "POST", path: a.path("/agent_bots"),
					body: H{"name": "Evil", "outgoing_url": u}}, "outgoing_url"),
				invalid("agent bot update "+u, request{method: "PATCH", path: a.path("/agent_bots/%d", bot),
					body: H{"outgoing_url": u}}, "outgoing_url"),
			)
		}
		for _, host := range []string{"localhost", "127.0.0.1", "10.0.0.25", "169.254.169.254", "::1", "fe80::1"} {
			scenarios = append(scenarios,
				invalid("SMTP create "+host, request{method: "POST", path: a.path("/inboxes"),
					body: H{"name": "Evil", "channel": H{"type": "email", "email": "evil@acme.test", "smtp_address": host}}}, "channel.smtp_address"),
				invalid("SMTP update "+host, request{method: "PATCH", path: a.path("/inboxes/%d", mail),
					body: H{"channel": H{"smtp_address": host}}}, "channel.smtp_address"),
				invalid("IMAP update "+host, request{method: "PATCH", path: a.path("/inboxes/%d", mail),
					body: H{"channel": H{"imap_address": host}}}, "channel.imap_address"),
			)
		}
		scenarios = append(scenarios,
			scenario{name: "nothing refused was stored: the webhook", request: request{method: "GET", path: a.path("/webhooks/%d", hook)},
				wantStatus: http.StatusOK, want: map[string]any{"payload.webhook.url": "https://hooks.example.com/in"}},
			scenario{name: "nothing refused was stored: the API inbox", request: request{method: "GET", path: a.path("/inboxes/%d", api)},
				wantStatus: http.StatusOK, want: map[string]any{"webhook_url": "https://hooks.example.com/in"}},
			scenario{name: "nothing refused was stored: the bot", request: request{method: "GET", path: a.path("/agent_bots/%d", bot)},
				wantStatus: http.StatusOK, want: map[string]any{"outgoing_url": "https://bot.example.com/in"}},
			scenario{name: "a public name is accepted (it is resolved and checked when called)",
				request:    request{method: "PUT", path: a.path("/kanban_config"), body: H{"webhook_url": "https://hooks.example.com/kanban"}},
				wantStatus: http.StatusOK, want: map[string]any{"webhook_url": "https://hooks.example.com/kanban"}},
			scenario{name: "the error names the field and not an address", request: request{method: "POST", path: a.path("/agent_bots"),
				body: H{"name": "Evil", "outgoing_url": "http://localhost/"}}, wantStatus: http.StatusUnprocessableEntity,
				want: map[string]any{"message": "Outgoing url must not point to localhost or a private, loopback or reserved network address"}},
		)
		a.run(t, scenarios)
	})
}
