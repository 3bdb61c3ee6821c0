package inboxes

import (
	"errors"
	"reflect"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
)

func ptr[T any](v T) *T { return &v }

// failures returns the fields and messages errs holds, in order.
func failures(t *testing.T, errs *core.FieldErrors) (fields []string, message string) {
	t.Helper()
	err := errs.Err()
	if err == nil {
		return nil, ""
	}
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		t.Fatalf("FieldErrors gave %T", err)
	}
	return ae.Fields, ae.Message
}

func wa(edit func(*ChannelInput)) *ChannelInput {
	in := &ChannelInput{Type: "whatsapp", PhoneNumber: ptr("+14155550123"),
		ProviderConfig: &ProviderConfigInput{APIKey: ptr("key"), PhoneNumberID: ptr("123"), BusinessAccountID: ptr("456")}}
	if edit != nil {
		edit(in)
	}
	return in
}

func smtp(cfg SMTPInput) *ChannelInput {
	return &ChannelInput{Type: "email", Email: ptr("support@acme.test"), SMTP: &cfg}
}

// Each channel type's required and checked settings, with each refusal
// naming channel.<key> as the REST channel object spells it.
func TestNewChannelValidation(t *testing.T) {
	outboundtest.AllowPrivate(t, false) // the outbound guard as in production
	const private = "must not point to localhost or a private, loopback or reserved network address"
	for _, tc := range []struct {
		name       string
		in         *ChannelInput
		wantFields []string
		wantMsg    string // the whole message, when stated
	}{
		{"no channel", nil, []string{"channel"}, "Channel can't be blank: send a channel object with a type"},
		{"blank type", &ChannelInput{Type: "  "}, []string{"channel.type"}, "Channel type can't be blank"},
		{"unsupported type", &ChannelInput{Type: "sms"}, []string{"channel.type"},
			"Channel type sms is not supported: use api, whatsapp, email or web_widget"},

		{"api without webhook", &ChannelInput{Type: "api"}, nil, ""},
		{"api webhook", &ChannelInput{Type: " api ", WebhookURL: ptr("https://hooks.acme.test/in")}, nil, ""},
		{"api webhook not http", &ChannelInput{Type: "api", WebhookURL: ptr("ftp://hooks.acme.test")},
			[]string{"channel.webhook_url"}, "Webhook url must be an http(s) URL"},
		{"api webhook loopback", &ChannelInput{Type: "api", WebhookURL: ptr("http://127.0.0.1:8080/in")},
			[]string{"channel.webhook_url"}, "Webhook url " + private},
		{"api webhook localhost", &ChannelInput{Type: "api", WebhookURL: ptr("http://localhost/in")},
			[]string{"channel.webhook_url"}, "Webhook url " + private},
		{"api webhook private", &ChannelInput{Type: "api", WebhookURL: ptr("http://[::ffff:10.0.0.1]/in")},
			[]string{"channel.webhook_url"}, "Webhook url " + private},

		{"whatsapp complete", wa(nil), nil, ""},
		{"whatsapp nothing", &ChannelInput{Type: "whatsapp"}, []string{"channel.phone_number",
			"channel.provider_config.api_key", "channel.provider_config.phone_number_id", "channel.provider_config.business_account_id"}, ""},
		{"whatsapp phone not e164", wa(func(in *ChannelInput) { in.PhoneNumber = ptr("0049 30 1234") }),
			[]string{"channel.phone_number"}, "Phone number is missing or not in e164 format"},
		{"whatsapp other provider", wa(func(in *ChannelInput) { in.Provider = ptr("twilio") }),
			[]string{"channel.provider"}, "Provider must be whatsapp_cloud"},
		{"whatsapp blank api key", wa(func(in *ChannelInput) { in.ProviderConfig.APIKey = ptr("  ") }),
			[]string{"channel.provider_config.api_key"}, "Provider config api_key can't be blank"},
		{"whatsapp template without language", wa(func(in *ChannelInput) {
			in.MessageTemplates = []schematype.MessageTemplate{
				{Name: "a", Language: "en", Status: "APPROVED"},
				{Name: "b", Status: "APPROVED"},
			}
		}), []string{"channel.message_templates"}, "Message template 2 needs a name, a language, a status and a type on every component"},
		{"whatsapp template component without type", wa(func(in *ChannelInput) {
			in.MessageTemplates = []schematype.MessageTemplate{{Name: "a", Language: "en", Status: "APPROVED",
				Components: []schematype.TemplateComponent{{Type: "BODY", Text: "x"}, {Text: "y"}}}}
		}), []string{"channel.message_templates"}, "Message template 1 needs a name, a language, a status and a type on every component"},

		{"email without smtp", &ChannelInput{Type: "email", Email: ptr("support@acme.test")}, nil, ""},
		{"email missing", &ChannelInput{Type: "email"}, []string{"channel.email"}, "Channel email is missing or invalid"},
		{"email invalid", &ChannelInput{Type: "email", Email: ptr("support at acme")}, []string{"channel.email"}, ""},
		{"smtp complete", smtp(SMTPInput{Address: ptr("smtp.acme.test"), Port: ptr(465), Authentication: ptr("LOGIN")}), nil, ""},
		{"smtp blank address and port 0", smtp(SMTPInput{Address: ptr(""), Port: ptr(0)}), nil, ""},
		{"smtp address with a path", smtp(SMTPInput{Address: ptr("smtp.acme.test/x")}), []string{"channel.smtp_address"},
			"SMTP address must be a host name, such as smtp.example.com"},
		{"smtp private address", smtp(SMTPInput{Address: ptr("192.168.1.10")}), []string{"channel.smtp_address"},
			"SMTP address must not be localhost or a private, loopback or reserved network address"},
		{"smtp port too high", smtp(SMTPInput{Port: ptr(65536)}), []string{"channel.smtp_port"}, ""},
		{"smtp port negative", smtp(SMTPInput{Port: ptr(-1)}), []string{"channel.smtp_port"}, ""},
		{"smtp unknown auth", smtp(SMTPInput{Authentication: ptr("xoauth2")}), []string{"channel.smtp_authentication"},
			"SMTP authentication must be one of plain, login, cram_md5"},
		{"smtp every field wrong", &ChannelInput{Type: "email", SMTP: &SMTPInput{Address: ptr("a b"), Port: ptr(99999), Authentication: ptr("none")}},
			[]string{"channel.email", "channel.smtp_address", "channel.smtp_port", "channel.smtp_authentication"}, ""},

		{"widget", &ChannelInput{Type: "web_widget", WebsiteURL: ptr("https://www.acme.test")}, nil, ""},
		{"widget without website", &ChannelInput{Type: "web_widget"}, []string{"channel.website_url"},
			"Website url is missing or not an http(s) URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var errs core.FieldErrors
			newChannel(tc.in, &errs)
			fields, msg := failures(t, &errs)
			if !reflect.DeepEqual(fields, tc.wantFields) {
				t.Errorf("fields %v, want %v (%s)", fields, tc.wantFields, msg)
			}
			if tc.wantMsg != "" && msg != tc.wantMsg {
				t.Errorf("message %q, want %q", msg, tc.wantMsg)
			}
		})
	}
}

// A new channel gets the keys the service issues for its type, fresh for
// every inbox; the e-mail address is normalized and the WhatsApp provider
// defaulted.
func TestNewChannelIssuesKeys(t *testing.T) {
	issue := func(in *ChannelInput) (inbox.ChannelType, schematype.Channel) {
		t.Helper()
		var errs core.FieldErrors
		typ, ch := newChannel(in, &errs)
		if err := errs.Err(); err != nil {
			t.Fatal(err)
		}
		return typ, ch
	}
	typ, api1 := issue(&ChannelInput{Type: "api"})
	_, api2 := issue(&ChannelInput{Type: "api"})
	if typ != inbox.ChannelTypeAPI || api1.InboxIdentifier == "" || api1.HMACToken == "" || api1.WebsiteToken != "" {
		t.Errorf("api channel %s keys: identifier %q, hmac %q, website token %q", typ, api1.InboxIdentifier, api1.HMACToken, api1.WebsiteToken)
	}
	if api1.InboxIdentifier == api2.InboxIdentifier || api1.HMACToken == api2.HMACToken {
		t.Error("two api inboxes got the same keys")
	}
	_, widget := issue(&ChannelInput{Type: "web_widget", WebsiteURL: ptr("https://acme.test")})
	if widget.WebsiteToken == "" || widget.HMACToken == "" || widget.InboxIdentifier != "" {
		t.Errorf("widget keys: website token %q, hmac %q, identifier %q", widget.WebsiteToken, widget.HMACToken, widget.InboxIdentifier)
	}
	_, email := issue(&ChannelInput{Type: "email", Email: ptr("  Support@ACME.test ")})
	if email.Email != "support@acme.test" || email.HMACToken != "" {
		t.Errorf("email channel: address %q, hmac %q; want support@acme.test and no key", email.Email, email.HMACToken)
	}
	_, whatsapp := issue(wa(nil))
	if whatsapp.Provider != "whatsapp_cloud" || whatsapp.HMACToken != "" {
		t.Errorf("whatsapp channel: provider %q, hmac %q", whatsapp.Provider, whatsapp.HMACToken)
	}
}

func storedInboxes() (*ent.Inbox, *ent.Inbox) {
	wa := &ent.Inbox{ChannelType: inbox.ChannelTypeWhatsapp, Channel: schematype.Channel{
		PhoneNumber: "+14155550123", Provider: "whatsapp_cloud",
		ProviderConfig:   &schematype.ProviderConfig{APIKey: "stored-key", PhoneNumberID: "123", BusinessAccountID: "456"},
		MessageTemplates: []schematype.MessageTemplate{{Name: "welcome", Language: "en", Status: "APPROVED"}},
	}}
	email := &ent.Inbox{ChannelType: inbox.ChannelTypeEmail, Channel: schematype.Channel{
		Email: "support@acme.test",
		SMTP:  &schematype.SMTPConfig{Address: "smtp.acme.test", Port: 587, Login: "support", Password: "stored-password"},
	}}
	return wa, email
}

// An update merges what it was sent over the stored channel: a secret sent
// as the mask (or not sent) keeps the stored one, a new one replaces it,
// and the stored inbox is never changed in place.
func TestUpdatedChannelKeepsSecrets(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      *ChannelInput
		wantKey string
	}{
		{"key left out", &ChannelInput{PhoneNumber: ptr("+14155550199")}, "stored-key"},
		{"key echoed as the mask", &ChannelInput{ProviderConfig: &ProviderConfigInput{APIKey: ptr(SecretMask)}}, "stored-key"},
		{"new key", &ChannelInput{ProviderConfig: &ProviderConfigInput{APIKey: ptr("new-key")}}, "new-key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stored, _ := storedInboxes()
			var errs core.FieldErrors
			ch := updatedChannel(stored, tc.in, &errs)
			if err := errs.Err(); err != nil {
				t.Fatal(err)
			}
			if ch.ProviderConfig.APIKey != tc.wantKey || ch.ProviderConfig.PhoneNumberID != "123" {
				t.Errorf("api key %q, phone number id %q; want %q and the stored 123", ch.ProviderConfig.APIKey, ch.ProviderConfig.PhoneNumberID, tc.wantKey)
			}
			if len(ch.MessageTemplates) != 1 {
				t.Errorf("templates not sent were changed to %v", ch.MessageTemplates)
			}
			if stored.Channel.ProviderConfig.APIKey != "stored-key" {
				t.Errorf("the stored inbox's key became %q", stored.Channel.ProviderConfig.APIKey)
			}
		})
	}
	t.Run("smtp password", func(t *testing.T) {
		_, stored := storedInboxes()
		var errs core.FieldErrors
		ch := updatedChannel(stored, &ChannelInput{SMTP: &SMTPInput{Password: ptr(SecretMask), Port: ptr(2525)}}, &errs)
		if err := errs.Err(); err != nil {
			t.Fatal(err)
		}
		want := schematype.SMTPConfig{Address: "smtp.acme.test", Port: 2525, Login: "support", Password: "stored-password"}
		if *ch.SMTP != want {
			t.Errorf("smtp %+v, want %+v", *ch.SMTP, want)
		}
		if stored.Channel.SMTP.Port != 587 {
			t.Errorf("the stored inbox's port became %d", stored.Channel.SMTP.Port)
		}
	})
	t.Run("templates sent empty clear the list", func(t *testing.T) {
		stored, _ := storedInboxes()
		var errs core.FieldErrors
		ch := updatedChannel(stored, &ChannelInput{MessageTemplates: []schematype.MessageTemplate{}}, &errs)
		if err := errs.Err(); err != nil || len(ch.MessageTemplates) != 0 {
			t.Errorf("templates %v (err %v), want none", ch.MessageTemplates, err)
		}
	})
}

// The type of a channel cannot change, and the merged channel is validated
// as a whole against the stored type.
func TestUpdatedChannelRefusals(t *testing.T) {
	stored, email := storedInboxes()
	for _, tc := range []struct {
		name       string
		ib         *ent.Inbox
		in         *ChannelInput
		wantFields []string
		wantMsg    string
	}{
		{"same type sent", stored, &ChannelInput{Type: "whatsapp"}, nil, ""},
		{"another type", stored, &ChannelInput{Type: "api"}, []string{"channel.type"},
			"Channel type can't change: this inbox is whatsapp; create another inbox for api"},
		{"blank over stored", stored, &ChannelInput{PhoneNumber: ptr("")}, []string{"channel.phone_number"}, ""},
		{"bad port over stored smtp", email, &ChannelInput{SMTP: &SMTPInput{Port: ptr(70000)}}, []string{"channel.smtp_port"},
			"SMTP port must be between 1 and 65535"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var errs core.FieldErrors
			updatedChannel(tc.ib, tc.in, &errs)
			fields, msg := failures(t, &errs)
			if !reflect.DeepEqual(fields, tc.wantFields) || (tc.wantMsg != "" && msg != tc.wantMsg) {
				t.Errorf("got %q on %v, want %q on %v", msg, fields, tc.wantMsg, tc.wantFields)
			}
		})
	}
}

// Reads show a set secret as the mask and an unset one as empty, and never
// touch the stored channel.
func TestMaskedChannel(t *testing.T) {
	stored := schematype.Channel{HMACToken: "hmac",
		ProviderConfig: &schematype.ProviderConfig{APIKey: "key", PhoneNumberID: "123"},
		SMTP:           &schematype.SMTPConfig{Address: "smtp.acme.test", Password: "pw"}}
	got := MaskedChannel(stored)
	want := schematype.Channel{HMACToken: SecretMask,
		ProviderConfig: &schematype.ProviderConfig{APIKey: SecretMask, PhoneNumberID: "123"},
		SMTP:           &schematype.SMTPConfig{Address: "smtp.acme.test", Password: SecretMask}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("masked %+v, want %+v", got, want)
	}
	if stored.HMACToken != "hmac" || stored.ProviderConfig.APIKey != "key" || stored.SMTP.Password != "pw" {
		t.Error("masking changed the stored channel")
	}
	unset := MaskedChannel(schematype.Channel{ProviderConfig: &schematype.ProviderConfig{}, SMTP: &schematype.SMTPConfig{}})
	if unset.HMACToken != "" || unset.ProviderConfig.APIKey != "" || unset.SMTP.Password != "" {
		t.Errorf("unset secrets were masked: %+v", unset)
	}
	if empty := MaskedChannel(schematype.Channel{}); empty.ProviderConfig != nil || empty.SMTP != nil {
		t.Errorf("masking added settings: %+v", empty)
	}
}

func TestInboxBehaviour(t *testing.T) {
	for _, tc := range []struct {
		name       string
		in         InboxInput
		wantFields []string
	}{
		{"nothing sent", InboxInput{}, nil},
		{"friendly in Berlin", InboxInput{SenderNameType: ptr("friendly"), Timezone: ptr("Europe/Berlin")}, nil},
		{"UTC", InboxInput{Timezone: ptr("UTC")}, nil},
		{"unknown sender name type", InboxInput{SenderNameType: ptr("formal")}, []string{"sender_name_type"}},
		{"blank timezone", InboxInput{Timezone: ptr("")}, []string{"timezone"}},
		{"the server's Local", InboxInput{Timezone: ptr("Local")}, []string{"timezone"}},
		{"unknown timezone", InboxInput{Timezone: ptr("Mars/Olympus")}, []string{"timezone"}},
		{"both", InboxInput{SenderNameType: ptr(""), Timezone: ptr("CEST+2")}, []string{"sender_name_type", "timezone"}},
	} {
		var errs core.FieldErrors
		checkInboxBehaviour(tc.in, &errs)
		if fields, msg := failures(t, &errs); !reflect.DeepEqual(fields, tc.wantFields) {
			t.Errorf("%s: fields %v (%s), want %v", tc.name, fields, msg, tc.wantFields)
		}
	}
}
