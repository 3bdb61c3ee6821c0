package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of channel settings on PATCH /inboxes/{id}: sent settings
// merge over the stored ones, unsent ones (secrets above all) stay, an
// invalid value or another channel type is a 422 that changes nothing.

func TestInboxChannelUpdateWhatsApp(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		wa := a.inbox("WhatsApp", H{"type": "whatsapp", "phone_number": "+15550001234", "provider": "whatsapp_cloud",
			"provider_config":   H{"api_key": "wa-key-secret", "phone_number_id": "pnid-1", "business_account_id": "baid-1"},
			"message_templates": waTemplates})
		accB, adminB := a.otherAccount("Globex")
		waB := a.inboxIn(accB, adminB, "B WhatsApp", whatsappChannel("+15550002222"))

		show := request{method: "GET", path: a.path("/inboxes/%d", wa)}
		patch := func(body H) request { return request{method: "PATCH", path: a.path("/inboxes/%d", wa), body: body} }
		channel := func(settings H) request { return patch(H{"channel": settings}) }
		oneTemplate := []H{{"name": "reminder", "language": "en", "status": "APPROVED", "category": "UTILITY",
			"components": []H{{"type": "BODY", "text": "See you at {{1}}"}}}}
		a.run(t, []scenario{
			{
				name:       "PATCH channel.phone_number changes the number and keeps the rest",
				check:      a.stored(wa, "api_key", "wa-key-secret"),
				request:    channel(H{"phone_number": "+15550009999"}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"phone_number": "+15550009999", "provider": "whatsapp_cloud", "name": "WhatsApp",
					"provider_config.api_key": mask, "provider_config.phone_number_id": "pnid-1", "provider_config.business_account_id": "baid-1", "provider_config.webhook_verify_token": nonEmpty, "provider_config.app_secret": absent,
					"message_templates": waTemplates,
				},
			},
			{
				name:       "PATCH with the same channel type and one provider_config key keeps the api_key not re-sent",
				check:      a.stored(wa, "api_key", "wa-key-secret"),
				request:    channel(H{"type": "whatsapp", "provider_config": H{"phone_number_id": "pnid-2"}}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"provider_config.api_key": mask, "provider_config.phone_number_id": "pnid-2", "provider_config.business_account_id": "baid-1", "provider_config.webhook_verify_token": nonEmpty, "provider_config.app_secret": absent,
				},
			},
			{
				name:       "PATCH a new api_key replaces the secret",
				check:      a.stored(wa, "api_key", "wa-key-rotated"),
				request:    channel(H{"provider_config": H{"api_key": "wa-key-rotated"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"provider_config.api_key": mask, "provider_config.phone_number_id": "pnid-2"},
			},
			{
				name:       "PATCH message_templates replaces the list, together with a behaviour field",
				request:    patch(H{"greeting_enabled": true, "channel": H{"message_templates": oneTemplate}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"message_templates": oneTemplate, "greeting_enabled": true, "phone_number": "+15550009999"},
			},
			{
				name:       "show has the merged settings",
				check:      a.stored(wa, "api_key", "wa-key-rotated"),
				request:    show,
				wantStatus: http.StatusOK,
				want: map[string]any{
					"phone_number": "+15550009999", "message_templates": oneTemplate,
					"provider_config.api_key": mask, "provider_config.phone_number_id": "pnid-2", "provider_config.business_account_id": "baid-1", "provider_config.webhook_verify_token": nonEmpty, "provider_config.app_secret": absent,
				},
			},
			invalid("a phone_number not in E.164 is 422 naming channel.phone_number",
				channel(H{"phone_number": "555 0009"}), "channel.phone_number"),
			invalid("a blank api_key is 422 naming channel.provider_config.api_key",
				channel(H{"provider_config": H{"api_key": " "}}), "channel.provider_config.api_key"),
			invalid("a provider other than whatsapp_cloud is 422 naming channel.provider",
				channel(H{"provider": "twilio"}), "channel.provider"),
			invalid("a template without a name is 422 naming channel.message_templates",
				channel(H{"message_templates": []H{{"language": "en", "status": "APPROVED", "components": []H{{"type": "BODY", "text": "x"}}}}}),
				"channel.message_templates"),
			invalid("an invalid setting among valid ones and valid behaviour fields is 422 naming only it",
				patch(H{"name": "Renamed", "greeting_enabled": false, "channel": H{
					"phone_number": "12", "provider_config": H{"api_key": "half-applied"}, "message_templates": []H{},
				}}), "channel.phone_number"),
			invalid("a bad channel setting and a bad behaviour field are named together",
				patch(H{"timezone": "Mars/Olympus", "channel": H{"phone_number": "12"}}), "channel.phone_number", "timezone"),
			invalid("changing the channel type is 422 naming channel.type",
				channel(H{"type": "email", "email": "wa@acme.test"}), "channel.type"),
			invalid("changing the channel type is 422 even with valid settings of this type",
				channel(H{"type": "api", "phone_number": "+15550007777"}), "channel.type"),
			status("an agent's PATCH of the channel is 403",
				as(agent, channel(H{"phone_number": "+15550008888", "provider_config": H{"api_key": "agent-key"}})), http.StatusForbidden),
			status("PATCH of another account's inbox channel is 404", request{method: "PATCH", path: a.path("/inboxes/%d", waB),
				body: H{"channel": H{"phone_number": "+15550003333"}}}, http.StatusNotFound),
			status("PATCH of an unknown inbox's channel is 404", request{method: "PATCH", path: a.path("/inboxes/999999"),
				body: H{"channel": H{"phone_number": "+15550003333"}}}, http.StatusNotFound),
			{
				name:       "the refused PATCHes changed nothing",
				check:      a.stored(wa, "api_key", "wa-key-rotated"),
				request:    show,
				wantStatus: http.StatusOK,
				want: map[string]any{
					"name": "WhatsApp", "greeting_enabled": true, "channel_type": "Channel::Whatsapp", "timezone": "UTC",
					"phone_number": "+15550009999", "provider": "whatsapp_cloud", "message_templates": oneTemplate,
					"provider_config.api_key": mask, "provider_config.phone_number_id": "pnid-2", "provider_config.business_account_id": "baid-1", "provider_config.webhook_verify_token": nonEmpty, "provider_config.app_secret": absent,
				},
			},
			{
				name:       "an agent's show has the new number but no secret",
				request:    as(agent, show),
				wantStatus: http.StatusOK,
				want:       map[string]any{"phone_number": "+15550009999", "provider_config": absent},
				check:      bodyLacks(`"provider_config"`, `"api_key"`, "wa-key-rotated", "wa-key-secret"),
			},
			{
				name:       "the list has the new number but no secret",
				request:    request{method: "GET", path: a.path("/inboxes")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.0.phone_number": "+15550009999"},
				check:      bodyLacks(`"provider_config"`, `"api_key"`, "wa-key-rotated", "wa-key-secret"),
			},
			{
				name:       "the other account's inbox is untouched",
				request:    request{method: "GET", path: accountPath(accB, "/inboxes/%d", waB), token: adminB},
				wantStatus: http.StatusOK,
				want:       map[string]any{"phone_number": "+15550002222"},
			},
		})
	})
}

func TestInboxChannelUpdateAPIAndWidget(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		api := a.inbox("API", H{"type": "api", "webhook_url": "https://hooks.example.com/in"})
		widget := a.inbox("Widget", H{"type": "web_widget", "website_url": "https://acme.test", "widget_color": "#112233"})
		showPath := func(id int) request { return request{method: "GET", path: a.path("/inboxes/%d", id)} }
		apiKeys := a.mustDo(showPath(api), http.StatusOK)
		widgetKeys := a.mustDo(showPath(widget), http.StatusOK)
		// Reads show the HMAC tokens masked; the stored ones must stay.
		apiHMAC, apiIdentifier := apiKeys.str(t, "hmac_token"), apiKeys.str(t, "inbox_identifier")
		widgetHMAC, widgetToken := widgetKeys.str(t, "hmac_token"), widgetKeys.str(t, "website_token")
		if apiHMAC != mask || widgetHMAC != mask {
			t.Fatalf("show gives hmac_token %q and %q, want the mask", apiHMAC, widgetHMAC)
		}
		storedAPI, _ := a.srv.DB.Client.Inbox.Get(sys(), api)
		storedWidget, _ := a.srv.DB.Client.Inbox.Get(sys(), widget)
		keepsAPIHMAC := a.stored(api, "hmac_token", storedAPI.Channel.HMACToken)
		keepsWidgetHMAC := a.stored(widget, "hmac_token", storedWidget.Channel.HMACToken)
		channel := func(id int, settings H) request {
			return request{method: "PATCH", path: a.path("/inboxes/%d", id), body: H{"channel": settings}}
		}
		a.run(t, []scenario{
			{
				name:       "PATCH an api inbox's webhook_url and hmac_mandatory; its issued keys stay",
				request:    channel(api, H{"webhook_url": "https://hooks.example.com/v2", "hmac_mandatory": true}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"webhook_url": "https://hooks.example.com/v2", "hmac_mandatory": true,
					"hmac_token": apiHMAC, "inbox_identifier": apiIdentifier,
				},
			},
			{
				name:       "PATCH hmac_mandatory alone keeps the webhook_url (a form client's string boolean)",
				request:    channel(api, H{"hmac_mandatory": "false"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"webhook_url": "https://hooks.example.com/v2", "hmac_mandatory": false, "hmac_token": apiHMAC},
				check:      keepsAPIHMAC,
			},
			invalid("a webhook_url that is not http(s) is 422 naming channel.webhook_url",
				channel(api, H{"webhook_url": "ftp://hooks.example.com"}), "channel.webhook_url"),
			invalid("an hmac_mandatory that is not a boolean is 422 naming channel.hmac_mandatory",
				channel(api, H{"hmac_mandatory": "maybe", "webhook_url": "https://hooks.example.com/v3"}), "channel.hmac_mandatory"),
			invalid("an api inbox cannot become a web widget",
				channel(api, H{"type": "web_widget", "website_url": "https://acme.test"}), "channel.type"),
			status("an agent's PATCH of the webhook is 403", as(agent, channel(api, H{"webhook_url": "https://evil.example.com"})), http.StatusForbidden),
			{
				name:       "the refused PATCHes left the api inbox as it was",
				request:    showPath(api),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"channel_type": "Channel::Api", "webhook_url": "https://hooks.example.com/v2",
					"hmac_mandatory": false, "hmac_token": apiHMAC,
				},
				check: keepsAPIHMAC,
			},
			{
				name:       "an empty webhook_url clears it (it is optional)",
				request:    channel(api, H{"type": "api", "webhook_url": ""}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"webhook_url": ""},
			},
			{
				name:       "PATCH a web widget's website_url; its token and colour stay",
				request:    channel(widget, H{"website_url": "https://www.acme.test"}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"website_url": "https://www.acme.test", "website_token": widgetToken,
					"hmac_token": widgetHMAC, "widget_color": "#112233",
				},
				check: keepsWidgetHMAC,
			},
			invalid("a blank website_url is 422 naming channel.website_url", channel(widget, H{"website_url": ""}), "channel.website_url"),
			{
				name:       "an agent's view of the widget has the new url but no hmac_token",
				request:    as(agent, showPath(widget)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"website_url": "https://www.acme.test", "hmac_token": absent},
				check:      bodyLacks(widgetHMAC, apiHMAC),
			},
		})
	})
}

func TestInboxChannelUpdateEmail(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		mail := a.inbox("Mail", H{"type": "email", "email": "mail@acme.test", "smtp_address": "smtp.acme.test",
			"smtp_port": 465, "smtp_login": "mailer", "smtp_password": "smtp-password-secret", "smtp_enable_ssl_tls": true})
		plain := a.inbox("Plain", emailChannel("plain@acme.test"))
		show := func(id int) request { return request{method: "GET", path: a.path("/inboxes/%d", id)} }
		channel := func(id int, settings H) request {
			return request{method: "PATCH", path: a.path("/inboxes/%d", id), body: H{"channel": settings}}
		}
		a.run(t, []scenario{
			{
				name:       "PATCH SMTP port and login keeps the password not re-sent",
				check:      a.stored(mail, "smtp_password", "smtp-password-secret"),
				request:    channel(mail, H{"smtp_port": 587, "smtp_login": "mailer2", "smtp_enable_ssl_tls": false, "smtp_enable_starttls_auto": true}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"smtp_address": "smtp.acme.test", "smtp_port": 587, "smtp_login": "mailer2",
					"smtp_password": mask, "smtp_enable_ssl_tls": false, "smtp_enable_starttls_auto": true,
					"email": "mail@acme.test",
				},
			},
			{
				name:       "PATCH the address normalizes it like create does",
				check:      a.stored(mail, "smtp_password", "smtp-password-secret"),
				request:    channel(mail, H{"email": " Support@Acme.TEST "}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"email": "support@acme.test", "smtp_password": mask},
			},
			{
				name:       "PATCH gives an inbox without SMTP its SMTP settings",
				check:      a.stored(plain, "smtp_password", "plain-secret"),
				request:    channel(plain, H{"smtp_address": "smtp.plain.test", "smtp_password": "plain-secret", "smtp_authentication": "login"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"smtp_address": "smtp.plain.test", "smtp_password": mask, "smtp_authentication": "login", "email": "plain@acme.test"},
			},
			invalid("a malformed email is 422 naming channel.email", channel(mail, H{"email": "not-an-address"}), "channel.email"),
			invalid("an SMTP port out of range is 422 naming channel.smtp_port", channel(mail, H{"smtp_port": 70000}), "channel.smtp_port"),
			invalid("an SMTP port that is not a number is 422 naming channel.smtp_port",
				channel(mail, H{"smtp_port": "submission", "smtp_login": "half-applied"}), "channel.smtp_port"),
			invalid("an unknown SMTP authentication is 422 naming channel.smtp_authentication",
				channel(mail, H{"smtp_authentication": "kerberos", "smtp_password": "half-applied"}), "channel.smtp_authentication"),
			invalid("an SMTP address that is a URL is 422 naming channel.smtp_address",
				channel(mail, H{"smtp_address": "https://smtp.acme.test/"}), "channel.smtp_address"),
			invalid("an email inbox cannot become whatsapp", channel(mail, whatsappChannel("+15550001111")), "channel.type"),
			status("an agent's PATCH of SMTP settings is 403", as(agent, channel(mail, H{"smtp_password": "agent-guess"})), http.StatusForbidden),
			{
				name:       "the refused PATCHes changed nothing",
				check:      a.stored(mail, "smtp_password", "smtp-password-secret"),
				request:    show(mail),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"channel_type": "Channel::Email", "email": "support@acme.test", "smtp_address": "smtp.acme.test",
					"smtp_port": 587, "smtp_login": "mailer2", "smtp_password": mask, "smtp_authentication": "",
				},
			},
			{
				name:       "an agent's view has the address but no SMTP secret",
				request:    as(agent, show(mail)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"email": "support@acme.test", "smtp_password": absent},
				check:      bodyLacks(`"smtp_password"`, "smtp-password-secret", "plain-secret"),
			},
			{
				name:       "the list carries no SMTP secret",
				request:    request{method: "GET", path: a.path("/inboxes")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.email": []string{"support@acme.test", "plain@acme.test"}},
				check:      bodyLacks(`"smtp_password"`, "smtp-password-secret", "plain-secret"),
			},
		})
	})
}
