package inboxes

import (
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/core"
)

// ChannelInput is the channel object of an inbox request: Type names the
// channel, the other fields are its settings. A nil setting was not sent.
// Create starts from empty settings; update starts from the stored ones, so
// it keeps whatever it was not sent — secrets above all, which clients see
// only once and cannot be expected to echo back (or echo as SecretMask).
type ChannelInput struct {
	Type string
	// api
	WebhookURL    *string
	HMACMandatory *bool
	// whatsapp
	PhoneNumber    *string
	Provider       *string
	ProviderConfig *ProviderConfigInput
	// MessageTemplates, when not nil, replaces the whole list (an empty
	// list clears it): templates are approved as a set by WhatsApp.
	MessageTemplates []schematype.MessageTemplate
	// email
	Email *string
	SMTP  *SMTPInput
	IMAP  *IMAPInput
	// web_widget
	WebsiteURL   *string
	WidgetColor  *string
	WelcomeTitle *string
	// AdditionalAttributes, when not nil, replaces the stored object.
	AdditionalAttributes map[string]any
}

// ProviderConfigInput is WhatsApp Cloud's connection settings; nil was not
// sent.
type ProviderConfigInput struct {
	APIKey             *string
	PhoneNumberID      *string
	BusinessAccountID  *string
	WebhookVerifyToken *string
	AppSecret          *string
}

// SMTPInput is how an e-mail inbox sends; nil was not sent.
type SMTPInput struct {
	Address        *string
	Port           *int
	Login          *string
	Password       *string
	Domain         *string
	Authentication *string
	EnableStartTLS *bool
	EnableSSLTLS   *bool
}

// SecretMask stands in for a channel secret that is set (SMTP and IMAP passwords,
// WhatsApp API key and app secret, HMAC token) wherever a channel is read, administrators'
// reads included: secrets are shown once, when they are issued. Sent back in
// an update, it means "keep the stored secret", as leaving the key out does,
// so a client may echo the object it read.
const SecretMask = "********"

// MaskedChannel is ch with its secrets replaced by SecretMask (the stored
// channel is not touched).
func MaskedChannel(ch schematype.Channel) schematype.Channel {
	ch.HMACToken = maskSecret(ch.HMACToken)
	if ch.ProviderConfig != nil {
		pc := *ch.ProviderConfig
		pc.APIKey = maskSecret(pc.APIKey)
		pc.AppSecret = maskSecret(pc.AppSecret)
		ch.ProviderConfig = &pc
	}
	if ch.SMTP != nil {
		smtp := *ch.SMTP
		smtp.Password = maskSecret(smtp.Password)
		ch.SMTP = &smtp
	}
	ch.IMAP = maskedIMAP(ch.IMAP)
	return ch
}

func maskSecret(s string) string {
	if s == "" {
		return ""
	}
	return SecretMask
}

// putSecret stores a sent secret unless it is the mask.
func putSecret(dst *string, v *string) {
	if v != nil && *v != SecretMask {
		*dst = *v
	}
}

// smtpAuthentications are the mechanisms delivery can use (login is
// Chatwoot's default name; delivery sends it as PLAIN).
var smtpAuthentications = []string{"plain", "login", "cram_md5"}

// newChannel is the channel of a new inbox: the sent settings, validated for
// the sent type, with the keys the service issues (inbox identifier, website
// token, HMAC token).
func newChannel(in *ChannelInput, errs *core.FieldErrors) (inbox.ChannelType, schematype.Channel) {
	var ch schematype.Channel
	if in == nil {
		errs.Add("channel", "Channel can't be blank: send a channel object with a type")
		return "", ch
	}
	t := inbox.ChannelType(strings.TrimSpace(in.Type))
	in.mergeInto(&ch)
	checkChannel(t, &ch, errs)
	issueChannelKeys(t, &ch)
	return t, ch
}

// updatedChannel is the inbox's channel with the sent settings merged over
// the stored ones and validated as a whole. The type cannot change: source
// ids, delivery and the issued keys all depend on it, so another channel
// type is another inbox.
func updatedChannel(ib *ent.Inbox, in *ChannelInput, errs *core.FieldErrors) schematype.Channel {
	ch := ib.Channel
	if t := strings.TrimSpace(in.Type); t != "" && inbox.ChannelType(t) != ib.ChannelType {
		errs.Add("channel.type", fmt.Sprintf("Channel type can't change: this inbox is %s; create another inbox for %s", ib.ChannelType, t))
		return ch
	}
	in.mergeInto(&ch)
	checkChannel(ib.ChannelType, &ch, errs)
	return ch
}

// mergeInto writes the sent settings over ch. Nested settings are copied
// before they change, so the stored inbox's values are never touched.
func (in *ChannelInput) mergeInto(ch *schematype.Channel) {
	put(&ch.WebhookURL, in.WebhookURL)
	put(&ch.HMACMandatory, in.HMACMandatory)
	put(&ch.PhoneNumber, in.PhoneNumber)
	put(&ch.Provider, in.Provider)
	if in.ProviderConfig != nil {
		ch.ProviderConfig = in.ProviderConfig.mergedOver(ch.ProviderConfig)
	}
	if in.MessageTemplates != nil {
		ch.MessageTemplates = in.MessageTemplates
	}
	put(&ch.Email, in.Email)
	if in.SMTP != nil {
		ch.SMTP = in.SMTP.mergedOver(ch.SMTP)
	}
	if in.IMAP != nil {
		ch.IMAP = in.IMAP.mergedOver(ch.IMAP)
	}
	put(&ch.WebsiteURL, in.WebsiteURL)
	put(&ch.WidgetColor, in.WidgetColor)
	put(&ch.WelcomeTitle, in.WelcomeTitle)
	if in.AdditionalAttributes != nil {
		ch.AdditionalAttributes = in.AdditionalAttributes
	}
}

func (in *ProviderConfigInput) mergedOver(old *schematype.ProviderConfig) *schematype.ProviderConfig {
	var pc schematype.ProviderConfig
	if old != nil {
		pc = *old
	}
	putSecret(&pc.APIKey, in.APIKey)
	put(&pc.PhoneNumberID, in.PhoneNumberID)
	put(&pc.BusinessAccountID, in.BusinessAccountID)
	put(&pc.WebhookVerifyToken, in.WebhookVerifyToken)
	putSecret(&pc.AppSecret, in.AppSecret)
	return &pc
}

func (in *SMTPInput) mergedOver(old *schematype.SMTPConfig) *schematype.SMTPConfig {
	var cfg schematype.SMTPConfig
	if old != nil {
		cfg = *old
	}
	put(&cfg.Address, in.Address)
	put(&cfg.Port, in.Port)
	put(&cfg.Login, in.Login)
	putSecret(&cfg.Password, in.Password)
	put(&cfg.Domain, in.Domain)
	put(&cfg.Authentication, in.Authentication)
	put(&cfg.EnableStartTLS, in.EnableStartTLS)
	put(&cfg.EnableSSLTLS, in.EnableSSLTLS)
	return &cfg
}

// put stores a sent value.
func put[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// checkChannel validates the settings of a channel type (normalizing the
// e-mail address and defaulting the WhatsApp provider). Errors name the
// fields as the REST channel object spells them: channel.<key>.
func checkChannel(t inbox.ChannelType, ch *schematype.Channel, errs *core.FieldErrors) {
	switch t {
	case inbox.ChannelTypeAPI:
		if ch.WebhookURL != "" {
			core.CheckOutboundURL(errs, "channel.webhook_url", "Webhook url", ch.WebhookURL)
		}
	case inbox.ChannelTypeWhatsapp:
		checkWhatsAppChannel(ch, errs)
	case inbox.ChannelTypeEmail:
		ch.Email = core.NormalizeEmail(ch.Email)
		if !core.ValidEmail(ch.Email) {
			errs.Add("channel.email", "Channel email is missing or invalid")
		}
		checkSMTP(ch.SMTP, errs)
		checkIMAP(ch.IMAP, errs)
	case inbox.ChannelTypeWebWidget:
		if !validHTTPURL(ch.WebsiteURL) {
			errs.Add("channel.website_url", "Website url is missing or not an http(s) URL")
		}
	case "":
		errs.Add("channel.type", "Channel type can't be blank")
	default:
		errs.Add("channel.type", "Channel type "+string(t)+" is not supported: use api, whatsapp, email or web_widget")
	}
}

// issueChannelKeys fills the keys the service generates for a new channel;
// updates keep them, since widgets and API clients are configured with them.
func issueChannelKeys(t inbox.ChannelType, ch *schematype.Channel) {
	switch t {
	case inbox.ChannelTypeAPI:
		ch.InboxIdentifier = uuid.NewString()
		ch.HMACToken, _ = core.NewToken()
	case inbox.ChannelTypeWebWidget:
		ch.WebsiteToken = uuid.NewString()
		ch.HMACToken, _ = core.NewToken()
	}
}

// maxVerifyToken bounds the verify token an administrator may choose.
const maxVerifyToken = 255

func checkWhatsAppChannel(ch *schematype.Channel, errs *core.FieldErrors) {
	if !core.ValidPhone(ch.PhoneNumber) {
		errs.Add("channel.phone_number", "Phone number is missing or not in e164 format")
	}
	if ch.Provider == "" {
		ch.Provider = "whatsapp_cloud"
	}
	if ch.Provider != "whatsapp_cloud" {
		errs.Add("channel.provider", "Provider must be whatsapp_cloud")
	}
	// A copy: the stored inbox's settings are never touched.
	pc := &schematype.ProviderConfig{}
	if ch.ProviderConfig != nil {
		*pc = *ch.ProviderConfig
	}
	ch.ProviderConfig = pc
	pc.WebhookVerifyToken = strings.TrimSpace(pc.WebhookVerifyToken)
	if pc.WebhookVerifyToken == "" {
		// As Chatwoot: the administrator copies it into Meta's app settings.
		pc.WebhookVerifyToken, _ = core.NewToken()
	} else if len(pc.WebhookVerifyToken) > maxVerifyToken {
		errs.Add("channel.provider_config.webhook_verify_token", fmt.Sprintf("Provider config webhook_verify_token is longer than %d characters", maxVerifyToken))
	}
	// A slice, not a map: the errors come in the same order every time.
	for _, s := range []struct{ field, value string }{
		{"api_key", pc.APIKey}, {"phone_number_id", pc.PhoneNumberID}, {"business_account_id", pc.BusinessAccountID},
	} {
		if strings.TrimSpace(s.value) == "" {
			errs.Add("channel.provider_config."+s.field, "Provider config "+s.field+" can't be blank")
		}
	}
	checkMessageTemplates(ch.MessageTemplates, errs)
}

// checkMessageTemplates requires what sending a template needs: a name, a
// language and a status to look it up by, and a type on every component.
func checkMessageTemplates(ts []schematype.MessageTemplate, errs *core.FieldErrors) {
	for i, t := range ts {
		if blank(t.Name) || blank(t.Language) || blank(t.Status) || !componentsTyped(t.Components) {
			errs.Add("channel.message_templates",
				fmt.Sprintf("Message template %d needs a name, a language, a status and a type on every component", i+1))
			return
		}
	}
}

func componentsTyped(cs []schematype.TemplateComponent) bool {
	for _, c := range cs {
		if blank(c.Type) {
			return false
		}
	}
	return true
}

// checkSMTP validates the sending settings an e-mail inbox has. A blank
// address is allowed: it means the inbox does not send (delivery says so).
func checkSMTP(cfg *schematype.SMTPConfig, errs *core.FieldErrors) {
	if cfg == nil {
		return
	}
	if cfg.Address != "" && strings.ContainsAny(cfg.Address, " \t/") {
		errs.Add("channel.smtp_address", "SMTP address must be a host name, such as smtp.example.com")
	} else if cfg.Address != "" {
		core.CheckOutboundHost(errs, "channel.smtp_address", "SMTP address", cfg.Address)
	}
	// 0 means the default port (587, or 465 with SSL/TLS).
	if cfg.Port < 0 || cfg.Port > 65535 {
		errs.Add("channel.smtp_port", "SMTP port must be between 1 and 65535")
	}
	if cfg.Authentication != "" && !containsFold(smtpAuthentications, cfg.Authentication) {
		errs.Add("channel.smtp_authentication", "SMTP authentication must be one of "+strings.Join(smtpAuthentications, ", "))
	}
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
