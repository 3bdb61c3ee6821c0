package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of inboxes, agent bots and inbox members (spec §2 Inbox,
// §4 Inboxes; chatwoot-shapes §5).

// waTemplates is an approved template list in WhatsApp Cloud's shape.
var waTemplates = []H{
	{"name": "order_update", "language": "en_US", "status": "APPROVED", "category": "UTILITY",
		"components": []H{
			{"type": "HEADER", "format": "TEXT", "text": "Your order"},
			{"type": "BODY", "text": "Hi {{1}}, order {{2}}"},
			{"type": "FOOTER", "text": "Acme"},
		}},
	{"name": "welcome", "language": "pt_BR", "status": "APPROVED", "category": "MARKETING",
		"components": []H{{"type": "BODY", "text": "Olá {{1}}"}}},
}

func TestInboxCreate(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		create := func(body H) request { return request{method: "POST", path: a.path("/inboxes"), body: body} }
		wa := func(overrides H) H {
			ch := H{"type": "whatsapp", "phone_number": "+5511987654321", "provider": "whatsapp_cloud",
				"provider_config": H{"api_key": "wa-secret", "phone_number_id": "1098", "business_account_id": "2197"}}
			for k, v := range overrides {
				if v == nil {
					delete(ch, k)
				} else {
					ch[k] = v
				}
			}
			return ch
		}
		a.run(t, []scenario{
			{
				name:       "an api inbox with a webhook_url answers the inbox with its channel settings",
				request:    create(H{"name": "API hook", "channel": H{"type": "api", "webhook_url": "https://hooks.example.com/in", "hmac_mandatory": true}}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": present, "name": "API hook", "channel_type": "Channel::Api",
					"webhook_url": "https://hooks.example.com/in", "hmac_mandatory": true,
					"inbox_identifier": isUUID, "hmac_token": nonEmpty,
				},
			},
			{
				name:       "an api inbox without a webhook_url is fine",
				request:    create(H{"name": "API plain", "channel": H{"type": "api"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"channel_type": "Channel::Api", "webhook_url": "", "hmac_mandatory": false},
			},
			{
				name: "a whatsapp inbox stores the E.164 number, the provider, its config and its templates",
				request: create(H{"name": "WhatsApp", "channel": wa(H{
					"message_templates": waTemplates,
				})}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"channel_type": "Channel::Whatsapp", "phone_number": "+5511987654321", "provider": "whatsapp_cloud",
					"provider_config.api_key": mask, "provider_config.phone_number_id": "1098", "provider_config.business_account_id": "2197", "provider_config.webhook_verify_token": nonEmpty, "provider_config.app_secret": absent,
					"message_templates": waTemplates,
				},
			},
			{
				name:       "a whatsapp inbox without provider defaults to whatsapp_cloud, without templates lists none",
				request:    create(H{"name": "WhatsApp 2", "channel": wa(H{"provider": nil, "phone_number": "+4915112345678"})}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"provider": "whatsapp_cloud", "message_templates": []any{}},
			},
			{
				name: "an email inbox stores the address and its SMTP settings",
				request: create(H{"name": "Support mail", "channel": H{
					"type": "email", "email": "Support@Acme.test",
					"smtp_address": "smtp.acme.test", "smtp_port": 587, "smtp_login": "support", "smtp_password": "smtp-secret",
					"smtp_domain": "acme.test", "smtp_enable_starttls_auto": true,
				}}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"channel_type": "Channel::Email", "email": "support@acme.test",
					"smtp_address": "smtp.acme.test", "smtp_port": 587, "smtp_login": "support", "smtp_password": mask,
				},
			},
			{
				name:       "an email inbox without SMTP settings is fine",
				request:    create(H{"name": "Plain mail", "channel": emailChannel("plain@acme.test")}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"email": "plain@acme.test", "smtp_password": absent},
			},
			{
				name:       "a web_widget inbox stores the website_url and gets a website token",
				request:    create(H{"name": "Website", "channel": H{"type": "web_widget", "website_url": "https://www.acme.test", "widget_color": "#ff0000"}}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"channel_type": "Channel::WebWidget", "website_url": "https://www.acme.test",
					"website_token": isUUID, "widget_color": "#ff0000", "hmac_token": nonEmpty,
				},
			},
			{
				name:       "the channel may come with the body wrapped in inbox",
				request:    create(H{"inbox": H{"name": "Wrapped", "channel": H{"type": "api"}}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "Wrapped"},
			},
			invalid("no channel is 422 naming channel", create(H{"name": "No channel"}), "channel"),
			invalid("a channel without type is 422 naming channel.type", create(H{"name": "No type", "channel": H{"webhook_url": "https://x.test"}}), "channel.type"),
			invalid("an unknown channel type is 422 naming channel.type", create(H{"name": "Pigeon", "channel": H{"type": "carrier_pigeon"}}), "channel.type"),
			invalid("no name is 422 naming name", create(H{"channel": H{"type": "api"}}), "name"),
			invalid("a blank name is 422 naming name", create(H{"name": "  ", "channel": H{"type": "api"}}), "name"),
			invalid("an api webhook_url that is not http(s) is 422 naming channel.webhook_url",
				create(H{"name": "Bad hook", "channel": H{"type": "api", "webhook_url": "ftp://hooks.example.com"}}), "channel.webhook_url"),
			invalid("a whatsapp channel without phone_number is 422 naming channel.phone_number",
				create(H{"name": "WA no phone", "channel": wa(H{"phone_number": nil})}), "channel.phone_number"),
			invalid("a whatsapp phone_number not in E.164 is 422 naming channel.phone_number",
				create(H{"name": "WA bad phone", "channel": wa(H{"phone_number": "11 98765-4321"})}), "channel.phone_number"),
			invalid("a whatsapp provider other than whatsapp_cloud is 422 naming channel.provider",
				create(H{"name": "WA twilio", "channel": wa(H{"provider": "twilio"})}), "channel.provider"),
			invalid("a whatsapp channel without provider_config is 422 naming its three settings",
				create(H{"name": "WA no config", "channel": wa(H{"provider_config": nil})}),
				"channel.provider_config.api_key", "channel.provider_config.phone_number_id", "channel.provider_config.business_account_id"),
			invalid("a whatsapp provider_config without api_key is 422 naming channel.provider_config.api_key",
				create(H{"name": "WA no key", "channel": wa(H{"provider_config": H{"phone_number_id": "1", "business_account_id": "2"}})}),
				"channel.provider_config.api_key"),
			invalid("an email channel without email is 422 naming channel.email",
				create(H{"name": "Mail no address", "channel": H{"type": "email"}}), "channel.email"),
			invalid("an email channel with a malformed email is 422 naming channel.email",
				create(H{"name": "Mail bad", "channel": emailChannel("not-an-address")}), "channel.email"),
			invalid("a web_widget channel without website_url is 422 naming channel.website_url",
				create(H{"name": "Widget no url", "channel": H{"type": "web_widget"}}), "channel.website_url"),
			invalid("a bad channel and a bad behaviour field are named together",
				create(H{"name": "Both bad", "channel": H{"type": "email"}, "timezone": "Mars/Olympus"}), "channel.email", "timezone"),
			status("an agent creating an inbox is 403", as(agent, create(H{"name": "By agent", "channel": H{"type": "api"}})), http.StatusForbidden),
			status("an agent creating an invalid inbox is 403 too", as(agent, create(H{"name": "By agent"})), http.StatusForbidden),
			{
				name:       "only the valid inboxes were created",
				request:    request{method: "GET", path: a.path("/inboxes")},
				wantStatus: http.StatusOK,
				want: map[string]any{"payload.*.name": []string{
					"API hook", "API plain", "WhatsApp", "WhatsApp 2", "Support mail", "Plain mail", "Website", "Wrapped",
				}},
			},
		})
	})
}

func TestInboxBehaviourFields(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		plain := a.apiInbox("Plain")
		all := H{
			"greeting_enabled": true, "greeting_message": "Hi there", "enable_auto_assignment": false,
			"csat_survey_enabled": true, "working_hours_enabled": true, "timezone": "America/Sao_Paulo",
			"allow_messages_after_resolved": false, "lock_to_single_conversation": true,
			"sender_name_type": "professional", "business_name": "Acme Corp",
		}
		defaults := map[string]any{
			"greeting_enabled": false, "greeting_message": "", "enable_auto_assignment": true,
			"csat_survey_enabled": false, "working_hours_enabled": false, "timezone": "UTC",
			"allow_messages_after_resolved": true, "lock_to_single_conversation": false,
			"sender_name_type": "friendly", "business_name": "",
		}
		body := H{"name": "Configured", "channel": H{"type": "api"}}
		for k, v := range all {
			body[k] = v
		}
		var configured int
		show := func(id int) request { return request{method: "GET", path: a.path("/inboxes/%d", id)} }
		patch := func(id int, b H) request { return request{method: "PATCH", path: a.path("/inboxes/%d", id), body: b} }
		a.run(t, []scenario{
			{
				name:       "create stores every behaviour field with its type",
				request:    request{method: "POST", path: a.path("/inboxes"), body: body},
				wantStatus: http.StatusOK,
				want:       all,
				check:      func(t *testing.T, r *response) { configured = r.int(t, "id") },
			},
			{
				name:       "an inbox created without them has the defaults, with their types",
				request:    show(plain),
				wantStatus: http.StatusOK,
				want:       defaults,
			},
		})
		a.run(t, []scenario{
			{
				name:       "show answers the stored behaviour fields",
				request:    show(configured),
				wantStatus: http.StatusOK,
				want:       all,
			},
			{
				name:       "the list answers them too",
				request:    request{method: "GET", path: a.path("/inboxes")},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.1.id": configured, "payload.1.timezone": "America/Sao_Paulo", "payload.1.csat_survey_enabled": true,
					"payload.1.working_hours_enabled": true, "payload.1.lock_to_single_conversation": true,
				},
			},
			{
				name: "PATCH sets every behaviour field",
				request: patch(plain, H{
					"name": "Plain renamed", "greeting_enabled": true, "greeting_message": "Hello", "enable_auto_assignment": false,
					"csat_survey_enabled": true, "working_hours_enabled": true, "timezone": "Europe/Berlin",
					"allow_messages_after_resolved": false, "lock_to_single_conversation": true,
					"sender_name_type": "professional", "business_name": "Plain Co",
				}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"name": "Plain renamed", "greeting_enabled": true, "greeting_message": "Hello", "enable_auto_assignment": false,
					"csat_survey_enabled": true, "working_hours_enabled": true, "timezone": "Europe/Berlin",
					"allow_messages_after_resolved": false, "lock_to_single_conversation": true,
					"sender_name_type": "professional", "business_name": "Plain Co",
				},
			},
			{
				name:       "PATCH of one field leaves the others",
				request:    patch(plain, H{"csat_survey_enabled": false}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"csat_survey_enabled": false, "timezone": "Europe/Berlin", "name": "Plain renamed", "sender_name_type": "professional"},
			},
			{
				name:       "PATCH accepts booleans as strings (form clients)",
				request:    patch(plain, H{"working_hours_enabled": "false", "greeting_enabled": "false"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"working_hours_enabled": false, "greeting_enabled": false},
			},
			{
				name:       "PATCH sender_name_type back to friendly",
				request:    patch(plain, H{"sender_name_type": "friendly"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"sender_name_type": "friendly"},
			},
			invalid("PATCH with another channel type is 422 naming channel.type",
				patch(plain, H{"channel": H{"type": "email", "email": "x@acme.test"}}), "channel.type"),
			invalid("PATCH with timezone Mars/Olympus is 422 naming timezone", patch(plain, H{"timezone": "Mars/Olympus"}), "timezone"),
			invalid("PATCH with an empty timezone is 422 naming timezone", patch(plain, H{"timezone": ""}), "timezone"),
			invalid("PATCH with sender_name_type casual is 422 naming sender_name_type", patch(plain, H{"sender_name_type": "casual"}), "sender_name_type"),
			invalid("PATCH with a blank name is 422 naming name", patch(plain, H{"name": " "}), "name"),
			invalid("PATCH with a boolean that is not one is 422 naming it", patch(plain, H{"greeting_enabled": "maybe"}), "greeting_enabled"),
			invalid("create with timezone Mars/Olympus is 422 naming timezone",
				request{method: "POST", path: a.path("/inboxes"), body: H{"name": "Mars", "channel": H{"type": "api"}, "timezone": "Mars/Olympus"}}, "timezone"),
			invalid("create with sender_name_type casual is 422 naming sender_name_type",
				request{method: "POST", path: a.path("/inboxes"), body: H{"name": "Casual", "channel": H{"type": "api"}, "sender_name_type": "casual"}}, "sender_name_type"),
			{
				name:       "the refused PATCHes changed nothing",
				request:    show(plain),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"name": "Plain renamed", "timezone": "Europe/Berlin", "sender_name_type": "friendly",
					"greeting_enabled": false, "business_name": "Plain Co",
				},
			},
			{
				name:       "the refused creates created nothing",
				request:    request{method: "GET", path: a.path("/inboxes")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 2},
			},
		})
	})
}

func TestInboxSecrets(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		api := a.inbox("API", H{"type": "api", "webhook_url": "https://hooks.example.com/in"})
		wa := a.inbox("WhatsApp", H{"type": "whatsapp", "phone_number": "+15550001234", "provider": "whatsapp_cloud",
			"provider_config":   H{"api_key": "wa-api-key-secret", "phone_number_id": "pnid-1", "business_account_id": "baid-1"},
			"message_templates": waTemplates})
		mail := a.inbox("Mail", H{"type": "email", "email": "mail@acme.test", "smtp_address": "smtp.acme.test",
			"smtp_port": 465, "smtp_login": "mailer", "smtp_password": "smtp-password-secret"})
		widget := a.inbox("Widget", H{"type": "web_widget", "website_url": "https://acme.test"})
		hmac := map[int]string{}
		for _, id := range []int{api, widget} {
			ib, err := a.srv.DB.Client.Inbox.Get(sys(), id)
			if err != nil || ib.Channel.HMACToken == "" {
				t.Fatalf("inbox %d has no stored hmac token (%v)", id, err)
			}
			hmac[id] = ib.Channel.HMACToken
		}
		secrets := []string{`"hmac_token"`, `"provider_config"`, `"smtp_password"`, `"api_key"`,
			hmac[api], hmac[widget], "wa-api-key-secret", "smtp-password-secret"}
		// Administrators see which secrets are set, never their values
		// (issue 10: channel secrets are shown once).
		values := []string{hmac[api], hmac[widget], "wa-api-key-secret", "smtp-password-secret"}
		show := func(id int) request { return request{method: "GET", path: a.path("/inboxes/%d", id)} }
		list := request{method: "GET", path: a.path("/inboxes")}
		a.run(t, []scenario{
			{
				name:       "the administrator's list carries no secrets",
				request:    list,
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 4, "payload.1.phone_number": "+15550001234", "payload.1.message_templates": waTemplates},
				check:      bodyLacks(secrets...),
			},
			{
				name:       "an agent's list carries no secrets",
				request:    as(agent, list),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 4},
				check:      bodyLacks(secrets...),
			},
			{
				name:       "the administrator sees the api inbox's hmac_token masked",
				request:    show(api),
				wantStatus: http.StatusOK,
				want:       map[string]any{"hmac_token": mask, "webhook_url": "https://hooks.example.com/in"},
				check:      bodyLacks(values...),
			},
			{
				name:       "the administrator sees the whatsapp provider_config with the api_key masked",
				request:    show(wa),
				wantStatus: http.StatusOK,
				want:       map[string]any{"provider_config.api_key": mask, "provider_config.phone_number_id": "pnid-1"},
				check:      bodyLacks(values...),
			},
			{
				name:       "the administrator sees the email inbox's SMTP settings with the password masked",
				request:    show(mail),
				wantStatus: http.StatusOK,
				want:       map[string]any{"smtp_password": mask, "smtp_port": 465, "smtp_login": "mailer"},
				check:      bodyLacks(values...),
			},
			{
				name:       "the administrator sees the web widget's hmac_token masked",
				request:    show(widget),
				wantStatus: http.StatusOK,
				want:       map[string]any{"hmac_token": mask},
				check:      bodyLacks(values...),
			},
			{
				name:       "an agent's view of the api inbox has no hmac_token but the public settings",
				request:    as(agent, show(api)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"hmac_token": absent, "webhook_url": "https://hooks.example.com/in", "inbox_identifier": isUUID},
				check:      bodyLacks(secrets...),
			},
			{
				name:       "an agent's view of the whatsapp inbox has no provider_config but the number and templates",
				request:    as(agent, show(wa)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"provider_config": absent, "phone_number": "+15550001234", "message_templates": waTemplates},
				check:      bodyLacks(secrets...),
			},
			{
				name:       "an agent's view of the email inbox has no SMTP password but the address",
				request:    as(agent, show(mail)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"smtp_password": absent, "email": "mail@acme.test"},
				check:      bodyLacks(secrets...),
			},
			{
				name:       "an agent's view of the web widget has no hmac_token",
				request:    as(agent, show(widget)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"hmac_token": absent, "website_url": "https://acme.test"},
				check:      bodyLacks(secrets...),
			},
			{
				name:       "a contact's inbox (inbox_slim) carries no secrets",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": wa, "phone_number": "+15559990000"}},
				wantStatus: http.StatusOK,
				check:      bodyLacks(secrets...),
			},
		})
	})
}

func TestInboxShowUpdateDelete(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		keep := a.apiInbox("Keep")
		doomed := a.apiInbox("Doomed")
		alice, aliceSource := a.contact(doomed, H{"name": "Alice"})
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/contact_inboxes", alice), body: H{"inbox_id": keep}}, http.StatusOK)
		conv := a.startConversation(a.Account, "", H{"source_id": aliceSource, "inbox_id": doomed, "message": H{"content": "Hi"}})
		accB, adminB := a.otherAccount("Globex")
		inboxB := a.inboxIn(accB, adminB, "B inbox", H{"type": "api"})

		inbox := func(method string, id int, body any) request {
			return request{method: method, path: a.path("/inboxes/%d", id), body: body}
		}
		a.run(t, []scenario{
			{
				name:       "show answers the inbox unwrapped",
				request:    inbox("GET", keep, nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": keep, "name": "Keep", "channel_type": "Channel::Api", "channel_id": present},
			},
			{
				name:       "an agent may show an inbox",
				request:    as(agent, inbox("GET", keep, nil)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": keep},
			},
			status("show of an unknown inbox is 404", inbox("GET", 999999, nil), http.StatusNotFound),
			status("show of a non-numeric inbox id is 404", request{method: "GET", path: a.path("/inboxes/abc")}, http.StatusNotFound),
			status("show of another account's inbox is 404", inbox("GET", inboxB, nil), http.StatusNotFound),
			status("an agent's show of another account's inbox is 404", as(agent, inbox("GET", inboxB, nil)), http.StatusNotFound),
			status("PATCH of another account's inbox is 404", inbox("PATCH", inboxB, H{"name": "Hijacked"}), http.StatusNotFound),
			status("DELETE of another account's inbox is 404", inbox("DELETE", inboxB, nil), http.StatusNotFound),
			status("PATCH of an unknown inbox is 404", inbox("PATCH", 999999, H{"name": "Nobody"}), http.StatusNotFound),
			status("an agent's PATCH is 403", as(agent, inbox("PATCH", keep, H{"name": "Agent was here", "timezone": "Europe/Paris"})), http.StatusForbidden),
			status("an agent's DELETE is 403", as(agent, inbox("DELETE", doomed, nil)), http.StatusForbidden),
			{
				name:       "the agent's refused writes changed nothing",
				request:    request{method: "GET", path: a.path("/inboxes")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.name": []string{"Keep", "Doomed"}, "payload.0.timezone": "UTC"},
			},
			{
				name:       "PATCH answers the updated inbox",
				request:    inbox("PATCH", keep, H{"name": "Kept", "greeting_enabled": true}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": keep, "name": "Kept", "greeting_enabled": true},
			},
			{
				name:       "DELETE answers 200 with a message",
				request:    inbox("DELETE", doomed, nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"message": nonEmpty},
			},
			status("the deleted inbox is 404", inbox("GET", doomed, nil), http.StatusNotFound),
			status("deleting it again is 404", inbox("DELETE", doomed, nil), http.StatusNotFound),
			status("its conversations went with it", request{method: "GET", path: a.path("/conversations/%d", conv)}, http.StatusNotFound),
			{
				name:       "the list no longer has it",
				request:    request{method: "GET", path: a.path("/inboxes")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{keep}},
			},
			{
				name:       "the contact stays, reachable through its other inbox only",
				request:    request{method: "GET", path: a.path("/contacts/%d", alice)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact_inboxes.*.inbox.id": []int{keep}},
			},
			{
				name:       "the other account's inbox is untouched",
				request:    request{method: "GET", path: accountPath(accB, "/inboxes/%d", inboxB), token: adminB},
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "B inbox"},
			},
		})
	})
}

func TestAgentBots(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		ib := a.apiInbox("API")
		other := a.apiInbox("Other")
		accB, adminB := a.otherAccount("Globex")
		botB := a.mustDo(request{method: "POST", path: accountPath(accB, "/agent_bots"), token: adminB, body: H{"name": "B bot"}}, http.StatusOK).int(t, "id")
		inboxB := a.inboxIn(accB, adminB, "B inbox", H{"type": "api"})

		var bot int
		bots := a.path("/agent_bots")
		botPath := func(id int) string { return a.path("/agent_bots/%d", id) }
		getBot := request{method: "GET", path: a.path("/inboxes/%d/agent_bot", ib)}
		setBot := func(body any) request {
			return request{method: "POST", path: a.path("/inboxes/%d/set_agent_bot", ib), body: body}
		}
		a.run(t, []scenario{
			{
				name:       "the list is a bare empty array at first",
				request:    request{method: "GET", path: bots},
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 0},
			},
			{
				name:       "create answers the bot",
				request:    request{method: "POST", path: bots, body: H{"name": "Triage", "description": "Sorts questions", "outgoing_url": "https://bot.example.com/hook"}},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": present, "name": "Triage", "description": "Sorts questions",
					"outgoing_url": "https://bot.example.com/hook", "bot_type": "webhook", "account_id": a.Account,
				},
				check: func(t *testing.T, r *response) { bot = r.int(t, "id") },
			},
			invalid("create without a name is 422 naming name", request{method: "POST", path: bots, body: H{"description": "nameless"}}, "name"),
			invalid("create with an outgoing_url that is not http(s) is 422 naming outgoing_url",
				request{method: "POST", path: bots, body: H{"name": "Bad", "outgoing_url": "javascript:alert(1)"}}, "outgoing_url"),
			status("an agent creating a bot is 403", as(agent, request{method: "POST", path: bots, body: H{"name": "Agent bot"}}), http.StatusForbidden),
		})
		if bot == 0 {
			t.Fatal("no bot to go on with")
		}
		a.run(t, []scenario{
			{
				name:       "the list holds the one bot",
				request:    request{method: "GET", path: bots},
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.name": []string{"Triage"}},
			},
			{
				name:       "show answers the bot",
				request:    request{method: "GET", path: botPath(bot)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": bot, "name": "Triage"},
			},
			{
				name:       "update changes the sent fields",
				request:    request{method: "PATCH", path: botPath(bot), body: H{"name": "Triage 2", "outgoing_url": "https://bot.example.com/v2"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "Triage 2", "outgoing_url": "https://bot.example.com/v2", "description": "Sorts questions"},
			},
			invalid("update with a blank name is 422 naming name", request{method: "PATCH", path: botPath(bot), body: H{"name": ""}}, "name"),
			status("an agent updating a bot is 403", as(agent, request{method: "PATCH", path: botPath(bot), body: H{"name": "Mine"}}), http.StatusForbidden),
			status("an agent deleting a bot is 403", as(agent, request{method: "DELETE", path: botPath(bot)}), http.StatusForbidden),
			status("show of another account's bot is 404", request{method: "GET", path: botPath(botB)}, http.StatusNotFound),
			status("update of another account's bot is 404", request{method: "PATCH", path: botPath(botB), body: H{"name": "Hijacked"}}, http.StatusNotFound),
			status("delete of another account's bot is 404", request{method: "DELETE", path: botPath(botB)}, http.StatusNotFound),
			{
				name:       "an inbox without a bot answers {agent_bot: null}",
				request:    getBot,
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot": nil},
			},
			{
				name:       "an agent may read an inbox's bot",
				request:    as(agent, getBot),
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot": nil},
			},
			status("set_agent_bot by an agent is 403", as(agent, setBot(H{"agent_bot": bot})), http.StatusForbidden),
			{
				name:       "the agent's refused set_agent_bot changed nothing",
				request:    getBot,
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot": nil},
			},
			invalid("set_agent_bot with another account's bot is 422 naming agent_bot", setBot(H{"agent_bot": botB}), "agent_bot"),
			invalid("set_agent_bot with an unknown bot is 422 naming agent_bot", setBot(H{"agent_bot": 999999}), "agent_bot"),
			status("set_agent_bot on another account's inbox is 404",
				request{method: "POST", path: a.path("/inboxes/%d/set_agent_bot", inboxB), body: H{"agent_bot": bot}}, http.StatusNotFound),
			status("agent_bot of another account's inbox is 404", request{method: "GET", path: a.path("/inboxes/%d/agent_bot", inboxB)}, http.StatusNotFound),
			status("an agent's agent_bot of another account's inbox is 404", as(agent, request{method: "GET", path: a.path("/inboxes/%d/agent_bot", inboxB)}), http.StatusNotFound),
			status("an agent's show of another account's bot is 404", as(agent, request{method: "GET", path: botPath(botB)}), http.StatusNotFound),
			{
				name:       "the refused set_agent_bot calls changed nothing",
				request:    getBot,
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot": nil},
			},
			{
				name:       "set_agent_bot {agent_bot: id} switches the bot on",
				request:    setBot(H{"agent_bot": bot}),
				wantStatus: http.StatusOK,
			},
			{
				name:       "the inbox's agent_bot is now the bot",
				request:    getBot,
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot.id": bot, "agent_bot.name": "Triage 2"},
			},
			{
				name:       "the inbox shows its agent_bot_id",
				request:    request{method: "GET", path: a.path("/inboxes/%d", ib)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot_id": bot},
			},
			{
				name:       "set_agent_bot {agent_bot: null} switches it off",
				request:    setBot(H{"agent_bot": nil}),
				wantStatus: http.StatusOK,
			},
			{
				name:       "the inbox has no bot again",
				request:    getBot,
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot": nil},
			},
			{
				name:       "set_agent_bot with the id as a string switches it on (form clients)",
				request:    setBot(H{"agent_bot": itoa(bot)}),
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					expect(t, a.mustDoT(t, getBot, http.StatusOK), map[string]any{"agent_bot.id": bot})
				},
			},
			{
				name:       "set_agent_bot without agent_bot switches it off",
				request:    setBot(H{}),
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					expect(t, a.mustDoT(t, getBot, http.StatusOK), map[string]any{"agent_bot": nil})
				},
			},
			{
				name:       "the bot goes on another inbox",
				request:    request{method: "POST", path: a.path("/inboxes/%d/set_agent_bot", other), body: H{"agent_bot": bot}},
				wantStatus: http.StatusOK,
			},
			{
				name:       "delete answers 200",
				request:    request{method: "DELETE", path: botPath(bot)},
				wantStatus: http.StatusOK,
			},
			status("the deleted bot is 404", request{method: "GET", path: botPath(bot)}, http.StatusNotFound),
			{
				name:       "the inbox the deleted bot answered has none",
				request:    request{method: "GET", path: a.path("/inboxes/%d/agent_bot", other)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot": nil},
			},
			{
				name:       "the other account's bot is untouched",
				request:    request{method: "GET", path: accountPath(accB, "/agent_bots/%d", botB), token: adminB},
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "B bot"},
			},
		})
	})
}

func TestInboxMembers(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		u1, agent := a.agent(a.Account)
		u2, _ := a.agent(a.Account)
		u3, _ := a.agent(a.Account)
		outsider, _ := a.user("Outsider")
		accB, adminB := a.otherAccount("Globex")
		strangerB, _ := a.agent(accB)
		inboxB := a.inboxIn(accB, adminB, "B inbox", H{"type": "api"})
		ib := a.apiInbox("Support")

		members := request{method: "GET", path: a.path("/inbox_members/%d", ib)}
		change := func(method string, body any) request {
			return request{method: method, path: a.path("/inbox_members"), body: body}
		}
		set := func(ids ...int) H { return H{"inbox_id": ib, "user_ids": append([]int{}, ids...)} }
		has := func(name string, ids ...int) scenario {
			ids = append([]int{}, ids...)
			return scenario{name: name, request: members, wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": ids}}
		}
		a.run(t, []scenario{
			{
				name:       "an inbox without members answers {payload: []}",
				request:    members,
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			{
				name:       "POST adds agents and answers the members as agents (id = user id)",
				request:    change("POST", set(u2, u1)),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.*.id": []int{u1, u2}, "payload.0.role": "agent", "payload.0.account_id": a.Account,
					"payload.0.email": nonEmpty, "payload.0.name": nonEmpty, "payload.0.availability_status": present,
				},
			},
			{
				name:       "POST again adds to the set",
				request:    change("POST", set(u2, u3)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{u1, u2, u3}},
			},
			has("GET lists them", u1, u2, u3),
			{
				name:       "an agent may read the members",
				request:    as(agent, members),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{u1, u2, u3}},
			},
			invalid("POST with a user outside the account is 422 naming user_ids", change("POST", set(u1, outsider)), "user_ids"),
			invalid("POST with another account's user is 422 naming user_ids", change("POST", set(strangerB)), "user_ids"),
			invalid("PATCH with a user outside the account is 422 naming user_ids", change("PATCH", set(a.AdminID, outsider)), "user_ids"),
			invalid("DELETE with a user outside the account is 422 naming user_ids", change("DELETE", set(u1, strangerB)), "user_ids"),
			invalid("POST without inbox_id is 422 naming inbox_id", change("POST", H{"user_ids": []int{u1}}), "inbox_id"),
			invalid("POST without user_ids is 422 naming user_ids", change("POST", H{"inbox_id": ib}), "user_ids"),
			invalid("POST with user_ids that are not ids is 422 naming user_ids", change("POST", H{"inbox_id": ib, "user_ids": []string{"x"}}), "user_ids"),
			status("POST for another account's inbox is 404", change("POST", H{"inbox_id": inboxB, "user_ids": []int{u1}}), http.StatusNotFound),
			status("GET of another account's inbox members is 404", request{method: "GET", path: a.path("/inbox_members/%d", inboxB)}, http.StatusNotFound),
			status("an agent's GET of another account's inbox members is 404", as(agent, request{method: "GET", path: a.path("/inbox_members/%d", inboxB)}), http.StatusNotFound),
			status("GET of an unknown inbox's members is 404", request{method: "GET", path: a.path("/inbox_members/999999")}, http.StatusNotFound),
			status("an agent's POST is 403", as(agent, change("POST", set(a.AdminID))), http.StatusForbidden),
			status("an agent's PATCH is 403", as(agent, change("PATCH", set(u1))), http.StatusForbidden),
			status("an agent's DELETE is 403", as(agent, change("DELETE", set(u1, u2, u3))), http.StatusForbidden),
			status("an agent's DELETE /inbox_members/{inbox_id} is 403",
				as(agent, request{method: "DELETE", path: a.path("/inbox_members/%d", ib), body: H{"user_ids": []int{u1}}}), http.StatusForbidden),
			has("the refused changes changed nothing", u1, u2, u3),
			{
				name:       "PATCH replaces the set",
				request:    change("PATCH", set(u3, a.AdminID)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{a.AdminID, u3}, "payload.0.role": "administrator"},
			},
			has("GET lists the replaced set", a.AdminID, u3),
			{
				name:       "DELETE /inbox_members with {inbox_id, user_ids} removes them and answers 200 with no body",
				request:    change("DELETE", set(u3)),
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					if len(r.Body) != 0 {
						t.Errorf("want an empty body, got %s", r.Body)
					}
				},
			},
			has("GET lists the rest", a.AdminID),
			{
				name:       "DELETE /inbox_members/{inbox_id} with {user_ids} removes them too",
				request:    request{method: "DELETE", path: a.path("/inbox_members/%d", ib), body: H{"inbox_id": ib, "user_ids": []int{a.AdminID}}},
				wantStatus: http.StatusOK,
			},
			has("the inbox has no members left"),
			{
				name:       "PATCH with user_ids as a comma list (form clients) works",
				request:    change("PATCH", H{"inbox_id": ib, "user_ids": itoa(u1) + "," + itoa(u2)}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{u1, u2}},
			},
			{
				name:       "PATCH with an empty list empties the set",
				request:    change("PATCH", set()),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			{
				name:       "the other account's inbox has no members from here",
				request:    request{method: "GET", path: accountPath(accB, "/inbox_members/%d", inboxB), token: adminB},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
		})
	})
}
