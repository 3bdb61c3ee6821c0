// Package schematype holds the Go types stored in JSON columns of the schema.
package schematype

import "strings"

// Channel is the connection settings of an inbox; which keys apply depends on
// the inbox's channel type. Secrets live here and are never rendered to agents.
type Channel struct {
	// api
	WebhookURL      string `json:"webhook_url,omitempty"`
	HMACMandatory   bool   `json:"hmac_mandatory,omitempty"`
	HMACToken       string `json:"hmac_token,omitempty"`
	InboxIdentifier string `json:"inbox_identifier,omitempty"`
	// whatsapp
	PhoneNumber      string            `json:"phone_number,omitempty"`
	Provider         string            `json:"provider,omitempty"`
	ProviderConfig   *ProviderConfig   `json:"provider_config,omitempty"`
	MessageTemplates []MessageTemplate `json:"message_templates,omitempty"`
	// email
	Email string      `json:"email,omitempty"`
	SMTP  *SMTPConfig `json:"smtp,omitempty"`
	IMAP  *IMAPConfig `json:"imap,omitempty"`
	// web_widget
	WebsiteURL   string `json:"website_url,omitempty"`
	WebsiteToken string `json:"website_token,omitempty"`
	WidgetColor  string `json:"widget_color,omitempty"`
	WelcomeTitle string `json:"welcome_title,omitempty"`
	// Anything else the client sent for the channel, kept as given.
	AdditionalAttributes map[string]any `json:"additional_attributes,omitempty"`
}

// Key is the setting that names an inbox of channelType to the outside:
// the number a WhatsApp webhook URL carries, an API inbox's
// inbox_identifier, a web widget's website_token; "" for the others. It
// is kept in the inbox's channel_key column, which is indexed.
func (c Channel) Key(channelType string) string {
	switch channelType {
	case "whatsapp":
		return c.PhoneNumber
	case "api":
		return c.InboxIdentifier
	case "web_widget":
		return c.WebsiteToken
	}
	return ""
}

// ProviderConfig is WhatsApp Cloud's connection settings.
type ProviderConfig struct {
	APIKey            string `json:"api_key,omitempty"`
	PhoneNumberID     string `json:"phone_number_id,omitempty"`
	BusinessAccountID string `json:"business_account_id,omitempty"`
	// WebhookVerifyToken is what Meta sends back when it verifies the
	// inbox's callback URL (generated when the administrator sets none).
	WebhookVerifyToken string `json:"webhook_verify_token,omitempty"`
	// AppSecret is the Meta app's secret, which signs every webhook post
	// (X-Hub-Signature-256); write-only.
	AppSecret string `json:"app_secret,omitempty"`
}

// MessageTemplate is an approved WhatsApp template, in WhatsApp Cloud's shape.
type MessageTemplate struct {
	Name       string              `json:"name"`
	Language   string              `json:"language"`
	Status     string              `json:"status"`
	Category   string              `json:"category"`
	Components []TemplateComponent `json:"components"`
}

// Approved tells whether Meta approved the template: only approved ones may
// be sent, and only they are offered.
func (t MessageTemplate) Approved() bool { return strings.EqualFold(t.Status, "approved") }

// TemplateComponent is one part (HEADER, BODY, FOOTER, BUTTONS) of a template.
type TemplateComponent struct {
	Type   string `json:"type"`
	Text   string `json:"text,omitempty"`
	Format string `json:"format,omitempty"`
}

// SMTPConfig is how an e-mail inbox sends.
type SMTPConfig struct {
	Address        string `json:"address,omitempty"`
	Port           int    `json:"port,omitempty"`
	Login          string `json:"login,omitempty"`
	Password       string `json:"password,omitempty"`
	Domain         string `json:"domain,omitempty"`
	Authentication string `json:"authentication,omitempty"`
	EnableStartTLS bool   `json:"enable_starttls_auto,omitempty"`
	EnableSSLTLS   bool   `json:"enable_ssl_tls,omitempty"`
}

// IMAPConfig is where an e-mail inbox receives: the mailbox the service
// fetches new mail from (Chatwoot's imap_* settings).
type IMAPConfig struct {
	Enabled  bool   `json:"enabled,omitempty"`
	Address  string `json:"address,omitempty"`
	Port     int    `json:"port,omitempty"`
	Login    string `json:"login,omitempty"`
	Password string `json:"password,omitempty"`
	// EnableSSL is implicit TLS (port 993 by default); without it the
	// connection is plain text (port 143), as in Chatwoot.
	EnableSSL bool `json:"enable_ssl"`
}
