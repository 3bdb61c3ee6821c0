package web

import (
	"errors"
	"slices"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/views"
)

// Creating an inbox (POST /settings/inboxes), through the operation POST
// /inboxes calls. A refused one shows the inboxes again (422) with the
// sentence and the fields as posted, but never a secret.

// newInboxTypes are the channel types the page has a form for.
var newInboxTypes = []string{"api", "web_widget", "email", "whatsapp"}

// inboxShownBack are the form fields a refused form is shown again with:
// named one by one, so a secret field added to a form later is never
// echoed (passwords, the API key, the app secret and the verify token are
// not here).
var inboxShownBack = map[string]bool{"channel_type": true, "name": true, "webhook_url": true, "website_url": true,
	"widget_color": true, "welcome_title": true, "email": true, "smtp_address": true, "smtp_port": true, "smtp_login": true,
	"imap_address": true, "imap_port": true, "imap_login": true, "phone_number": true, "phone_number_id": true,
	"business_account_id": true}

func (c *Console) createInbox(ctx *fiber.Ctx) error {
	posted, _, err := readPosted(ctx)
	if err != nil {
		return err
	}
	in, err := inboxInput(posted)
	if err == nil {
		_, err = c.svc.CreateInbox(ctx.UserContext(), in)
	}
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.KindInvalid {
		return c.settingsDone(ctx, "inboxes", err)
	}
	tried := views.NewInboxForm{Type: posted.get("channel_type"), Values: map[string]string{}, Error: ae.Message}
	for key := range posted {
		if inboxShownBack[key] {
			tried.Values[key] = posted.get(key)
		}
	}
	if !slices.ContainsFunc(newInboxTypes, func(t string) bool { return t == tried.Type }) {
		// No form of that type to show it in: on top of the page.
		return c.renderSettings(ctx, fiber.StatusUnprocessableEntity, "inboxes", ae.Message)
	}
	return c.renderSettingsWith(ctx, fiber.StatusUnprocessableEntity, "inboxes", "", func(s *views.Settings) { s.NewInbox = tried })
}

// inboxInput reads the posted fields of the channel type's form; an empty
// field is not sent.
func inboxInput(p postedForm) (inboxes.InboxInput, error) {
	ch := &inboxes.ChannelInput{Type: p.get("channel_type")}
	in := inboxes.InboxInput{Name: p.optional("name"), Channel: ch}
	var errs core.FieldErrors
	switch ch.Type {
	case "api":
		ch.WebhookURL = p.given("webhook_url")
	case "web_widget":
		ch.WebsiteURL, ch.WidgetColor, ch.WelcomeTitle = p.given("website_url"), p.given("widget_color"), p.given("welcome_title")
	case "email":
		ch.Email = p.given("email")
		if host := p.given("smtp_address"); host != nil {
			ch.SMTP = &inboxes.SMTPInput{Address: host, Port: p.port(&errs, "smtp_port", "SMTP port"),
				Login: p.given("smtp_login"), Password: p.given("smtp_password")}
		}
		if host := p.given("imap_address"); host != nil {
			on := true
			ch.IMAP = &inboxes.IMAPInput{Enabled: &on, Address: host, Port: p.port(&errs, "imap_port", "IMAP port"),
				Login: p.given("imap_login"), Password: p.given("imap_password")}
		}
	case "whatsapp":
		provider := "whatsapp_cloud"
		ch.PhoneNumber, ch.Provider = p.given("phone_number"), &provider
		ch.ProviderConfig = &inboxes.ProviderConfigInput{APIKey: p.given("api_key"), PhoneNumberID: p.given("phone_number_id"),
			BusinessAccountID: p.given("business_account_id"), WebhookVerifyToken: p.given("webhook_verify_token"), AppSecret: p.given("app_secret")}
	}
	return in, errs.Err()
}

// given is a posted field's value, nil when empty or not posted.
func (p postedForm) given(key string) *string {
	if v := p.get(key); v != "" {
		return &v
	}
	return nil
}

// port reads a posted port number, nil when empty.
func (p postedForm) port(errs *core.FieldErrors, key, label string) *int {
	v := p.get(key)
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		errs.Add(key, label+" must be a whole number")
		return nil
	}
	return &n
}
