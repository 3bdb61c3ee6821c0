package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"

	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/viewer"
)

// inboxRequest is the body of inbox create and update: behaviour fields at
// the top level, connection settings in channel.
type inboxRequest struct {
	Name                       *string         `json:"name"`
	Channel                    *channelRequest `json:"channel"`
	GreetingEnabled            *flexBool       `json:"greeting_enabled"`
	GreetingMessage            *string         `json:"greeting_message"`
	EnableAutoAssignment       *flexBool       `json:"enable_auto_assignment"`
	EnableEmailCollect         *flexBool       `json:"enable_email_collect"`
	CSATSurveyEnabled          *flexBool       `json:"csat_survey_enabled"`
	WorkingHoursEnabled        *flexBool       `json:"working_hours_enabled"`
	OutOfOfficeMessage         *string         `json:"out_of_office_message"`
	Timezone                   *string         `json:"timezone"`
	AllowMessagesAfterResolved *flexBool       `json:"allow_messages_after_resolved"`
	LockToSingleConversation   *flexBool       `json:"lock_to_single_conversation"`
	SenderNameType             *string         `json:"sender_name_type"`
	BusinessName               *string         `json:"business_name"`
	AvatarURL                  *string         `json:"avatar_url"`
}

// channelRequest is the channel object, in Chatwoot's flat keys per type.
// Settings are pointers: on update, a key that was not sent keeps its value.
type channelRequest struct {
	Type                 string                       `json:"type"`
	WebhookURL           *string                      `json:"webhook_url"`
	HMACMandatory        *flexBool                    `json:"hmac_mandatory"`
	PhoneNumber          *string                      `json:"phone_number"`
	Provider             *string                      `json:"provider"`
	ProviderConfig       *providerConfigRequest       `json:"provider_config"`
	MessageTemplates     []schematype.MessageTemplate `json:"message_templates"`
	Email                *string                      `json:"email"`
	SMTPAddress          *string                      `json:"smtp_address"`
	SMTPPort             *flexInt                     `json:"smtp_port"`
	SMTPLogin            *string                      `json:"smtp_login"`
	SMTPPassword         *string                      `json:"smtp_password"`
	SMTPDomain           *string                      `json:"smtp_domain"`
	SMTPAuthentication   *string                      `json:"smtp_authentication"`
	SMTPStartTLS         *flexBool                    `json:"smtp_enable_starttls_auto"`
	SMTPSSLTLS           *flexBool                    `json:"smtp_enable_ssl_tls"`
	IMAPEnabled          *flexBool                    `json:"imap_enabled"`
	IMAPAddress          *string                      `json:"imap_address"`
	IMAPPort             *flexInt                     `json:"imap_port"`
	IMAPLogin            *string                      `json:"imap_login"`
	IMAPPassword         *string                      `json:"imap_password"`
	IMAPEnableSSL        *flexBool                    `json:"imap_enable_ssl"`
	WebsiteURL           *string                      `json:"website_url"`
	WidgetColor          *string                      `json:"widget_color"`
	WelcomeTitle         *string                      `json:"welcome_title"`
	AdditionalAttributes flexObject                   `json:"additional_attributes"`
}

// providerConfigRequest is WhatsApp Cloud's provider_config object.
type providerConfigRequest struct {
	APIKey             *string `json:"api_key"`
	PhoneNumberID      *string `json:"phone_number_id"`
	BusinessAccountID  *string `json:"business_account_id"`
	WebhookVerifyToken *string `json:"webhook_verify_token"`
	AppSecret          *string `json:"app_secret"`
}

func (r *channelRequest) input() *inboxes.ChannelInput {
	if r == nil {
		return nil
	}
	in := &inboxes.ChannelInput{
		Type: r.Type, WebhookURL: r.WebhookURL, HMACMandatory: r.HMACMandatory.ptr(),
		PhoneNumber: r.PhoneNumber, Provider: r.Provider, MessageTemplates: r.MessageTemplates,
		Email: r.Email, SMTP: r.smtp(), IMAP: r.imap(),
		WebsiteURL: r.WebsiteURL, WidgetColor: r.WidgetColor, WelcomeTitle: r.WelcomeTitle,
		AdditionalAttributes: r.AdditionalAttributes,
	}
	if pc := r.ProviderConfig; pc != nil {
		in.ProviderConfig = &inboxes.ProviderConfigInput{APIKey: pc.APIKey, PhoneNumberID: pc.PhoneNumberID, BusinessAccountID: pc.BusinessAccountID,
			WebhookVerifyToken: pc.WebhookVerifyToken, AppSecret: pc.AppSecret}
	}
	return in
}

// smtp gathers Chatwoot's flat smtp_* keys; nil when none was sent.
func (r *channelRequest) smtp() *inboxes.SMTPInput {
	in := inboxes.SMTPInput{
		Address: r.SMTPAddress, Port: r.SMTPPort.ptr(), Login: r.SMTPLogin, Password: r.SMTPPassword,
		Domain: r.SMTPDomain, Authentication: r.SMTPAuthentication,
		EnableStartTLS: r.SMTPStartTLS.ptr(), EnableSSLTLS: r.SMTPSSLTLS.ptr(),
	}
	if in == (inboxes.SMTPInput{}) {
		return nil
	}
	return &in
}

// imap gathers Chatwoot's flat imap_* keys; nil when none was sent.
func (r *channelRequest) imap() *inboxes.IMAPInput {
	in := inboxes.IMAPInput{
		Enabled: r.IMAPEnabled.ptr(), Address: r.IMAPAddress, Port: r.IMAPPort.ptr(), Login: r.IMAPLogin,
		Password: r.IMAPPassword, EnableSSL: r.IMAPEnableSSL.ptr(),
	}
	if in == (inboxes.IMAPInput{}) {
		return nil
	}
	return &in
}

func (r inboxRequest) input() inboxes.InboxInput {
	return inboxes.InboxInput{
		Name: r.Name, Channel: r.Channel.input(),
		GreetingEnabled: r.GreetingEnabled.ptr(), GreetingMessage: r.GreetingMessage,
		EnableAutoAssignment: r.EnableAutoAssignment.ptr(), EnableEmailCollect: r.EnableEmailCollect.ptr(),
		CSATSurveyEnabled: r.CSATSurveyEnabled.ptr(), WorkingHoursEnabled: r.WorkingHoursEnabled.ptr(),
		OutOfOfficeMessage: r.OutOfOfficeMessage, Timezone: r.Timezone,
		AllowMessagesAfterResolved: r.AllowMessagesAfterResolved.ptr(),
		LockToSingleConversation:   r.LockToSingleConversation.ptr(),
		SenderNameType:             r.SenderNameType, BusinessName: r.BusinessName, AvatarURL: r.AvatarURL,
	}
}

func isAdmin(c *fiber.Ctx) bool {
	v, _ := viewer.FromContext(c.UserContext())
	return v.IsAdmin()
}

func (a *API) listInboxes(c *fiber.Ctx) error {
	ibs, err := a.svc.Inboxes(c.UserContext())
	if err != nil {
		return err
	}
	payload := make([]H, 0, len(ibs))
	for _, ib := range ibs {
		payload = append(payload, inboxJSON(ib, noSecrets))
	}
	return c.JSON(H{"payload": payload})
}

func (a *API) showInbox(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Inbox")
	if err != nil {
		return err
	}
	ib, err := a.svc.Inbox(c.UserContext(), id)
	if err != nil {
		return err
	}
	secrets := noSecrets
	if isAdmin(c) {
		secrets = maskedSecrets
	}
	return c.JSON(a.inboxAnswer(ib, secrets))
}

func (a *API) createInbox(c *fiber.Ctx) error {
	var req inboxRequest
	if err := decode(c, "inbox", &req); err != nil {
		return err
	}
	ib, err := a.svc.CreateInbox(c.UserContext(), req.input())
	if err != nil {
		return err
	}
	return c.JSON(a.inboxAnswer(ib, issuedSecrets))
}

func (a *API) updateInbox(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Inbox")
	if err != nil {
		return err
	}
	var req inboxRequest
	if err := decode(c, "inbox", &req); err != nil {
		return err
	}
	ib, err := a.svc.UpdateInbox(c.UserContext(), id, req.input())
	if err != nil {
		return err
	}
	return c.JSON(a.inboxAnswer(ib, maskedSecrets))
}

// inboxAnswer is an inbox as one inbox's answers show it: to
// administrators, a WhatsApp inbox also shows the callback URL to set up
// at Meta (Chatwoot's callback_webhook_url).
func (a *API) inboxAnswer(ib *ent.Inbox, secrets inboxSecrets) H {
	h := inboxJSON(ib, secrets)
	if url := a.svc.CallbackURL(ib); secrets != noSecrets && url != "" {
		h["callback_webhook_url"] = url
	}
	return h
}
