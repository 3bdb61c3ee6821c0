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
