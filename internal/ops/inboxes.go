package ops

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/schema/schematype"
)

// InboxInput carries the inbox fields of a create or update; nil means "not
// sent". Channel is required on create.
type InboxInput struct {
	Name                       *string
	Channel                    *ChannelInput
	GreetingEnabled            *bool
	GreetingMessage            *string
	EnableAutoAssignment       *bool
	EnableEmailCollect         *bool
	CSATSurveyEnabled          *bool
	WorkingHoursEnabled        *bool
	OutOfOfficeMessage         *string
	Timezone                   *string
	AllowMessagesAfterResolved *bool
	LockToSingleConversation   *bool
	SenderNameType             *string
	BusinessName               *string
	AvatarURL                  *string
}

// ChannelInput is the channel object of an inbox request: Type picks the
// channel, Settings carries its connection settings.
type ChannelInput struct {
	Type     string
	Settings schematype.Channel
}

// Inboxes lists the account's inboxes.
func (s *Service) Inboxes(ctx context.Context) ([]*ent.Inbox, error) {
	ibs, err := s.Client(ctx).Inbox.Query().Order(ent.Asc(inbox.FieldID)).All(ctx)
	return ibs, apperrOrNil(err)
}

// Inbox returns one inbox.
func (s *Service) Inbox(ctx context.Context, id int) (*ent.Inbox, error) {
	ib, err := s.Client(ctx).Inbox.Get(ctx, id)
	return ib, apperrOrNil(notFound(err, "Inbox"))
}

// CreateInbox creates an inbox with its channel (administrators only).
func (s *Service) CreateInbox(ctx context.Context, in InboxInput) (*ent.Inbox, error) {
	if err := requireAdmin(ctx); err != nil {
		return nil, err
	}
	var errs fieldErrors
	name := ""
	if in.Name != nil {
		name = strings.TrimSpace(*in.Name)
	}
	if name == "" {
		errs.add("name", "Name can't be blank")
	}
	var channel schematype.Channel
	var channelType inbox.ChannelType
	if in.Channel == nil {
		errs.add("channel", "Channel can't be blank: send a channel object with a type")
	} else {
		channelType = inbox.ChannelType(strings.TrimSpace(in.Channel.Type))
		channel = in.Channel.Settings
		checkChannel(channelType, &channel, &errs)
	}
	checkInboxBehaviour(in, &errs)
	if err := errs.err(); err != nil {
		return nil, err
	}
	create := s.Client(ctx).Inbox.Create().SetName(name).SetChannelType(channelType).SetChannel(channel)
	applyInboxBehaviour(in, create.Mutation())
	ib, err := create.Save(ctx)
	return ib, apperrOrNil(err)
}

// UpdateInbox changes the sent behaviour fields (and editable channel
// settings) of an inbox (administrators only).
func (s *Service) UpdateInbox(ctx context.Context, id int, in InboxInput) (*ent.Inbox, error) {
	if err := requireAdmin(ctx); err != nil {
		return nil, err
	}
	var errs fieldErrors
	if in.Name != nil && strings.TrimSpace(*in.Name) == "" {
		errs.add("name", "Name can't be blank")
	}
	checkInboxBehaviour(in, &errs)
	if err := errs.err(); err != nil {
		return nil, err
	}
	ib, err := s.Inbox(ctx, id)
	if err != nil {
		return nil, err
	}
	upd := ib.Update()
	if in.Name != nil {
		upd.SetName(strings.TrimSpace(*in.Name))
	}
	applyInboxBehaviour(in, upd.Mutation())
	ib, err = upd.Save(ctx)
	return ib, apperrOrNil(err)
}

// checkChannel validates the settings a channel type requires and fills the
// ones the service generates.
func checkChannel(t inbox.ChannelType, ch *schematype.Channel, errs *fieldErrors) {
	switch t {
	case inbox.ChannelTypeAPI:
		if ch.WebhookURL != "" && !validHTTPURL(ch.WebhookURL) {
			errs.add("channel.webhook_url", "Webhook url must be an http(s) URL")
		}
		ch.InboxIdentifier = uuid.NewString()
		ch.HMACToken, _ = newToken()
	case inbox.ChannelTypeWhatsapp:
		checkWhatsAppChannel(ch, errs)
	case inbox.ChannelTypeEmail:
		ch.Email = normalizeEmail(ch.Email)
		if !validEmail(ch.Email) {
			errs.add("channel.email", "Channel email is missing or invalid")
		}
	case inbox.ChannelTypeWebWidget:
		if !validHTTPURL(ch.WebsiteURL) {
			errs.add("channel.website_url", "Website url is missing or not an http(s) URL")
		}
		ch.WebsiteToken = uuid.NewString()
		ch.HMACToken, _ = newToken()
	case "":
		errs.add("channel.type", "Channel type can't be blank")
	default:
		errs.add("channel.type", "Channel type "+string(t)+" is not supported: use api, whatsapp, email or web_widget")
	}
}

func checkWhatsAppChannel(ch *schematype.Channel, errs *fieldErrors) {
	if !validPhone(ch.PhoneNumber) {
		errs.add("channel.phone_number", "Phone number is missing or not in e164 format")
	}
	if ch.Provider == "" {
		ch.Provider = "whatsapp_cloud"
	}
	if ch.Provider != "whatsapp_cloud" {
		errs.add("channel.provider", "Provider must be whatsapp_cloud")
	}
	pc := ch.ProviderConfig
	if pc == nil {
		pc = &schematype.ProviderConfig{}
	}
	for field, v := range map[string]string{"api_key": pc.APIKey, "phone_number_id": pc.PhoneNumberID, "business_account_id": pc.BusinessAccountID} {
		if strings.TrimSpace(v) == "" {
			errs.add("channel.provider_config."+field, "Provider config "+field+" can't be blank")
		}
	}
}

func checkInboxBehaviour(in InboxInput, errs *fieldErrors) {
	if in.SenderNameType != nil && inbox.SenderNameTypeValidator(inbox.SenderNameType(*in.SenderNameType)) != nil {
		errs.add("sender_name_type", "Sender name type must be friendly or professional")
	}
	if in.Timezone != nil {
		if _, err := time.LoadLocation(*in.Timezone); err != nil || *in.Timezone == "" || *in.Timezone == "Local" {
			errs.add("timezone", "Timezone must be an IANA time zone name such as Europe/Berlin")
		}
	}
}

// inboxBehaviour is what creates and updates of inboxes share.
type inboxBehaviour interface {
	SetGreetingEnabled(bool)
	SetGreetingMessage(string)
	SetEnableAutoAssignment(bool)
	SetEnableEmailCollect(bool)
	SetCsatSurveyEnabled(bool)
	SetWorkingHoursEnabled(bool)
	SetOutOfOfficeMessage(string)
	SetTimezone(string)
	SetAllowMessagesAfterResolved(bool)
	SetLockToSingleConversation(bool)
	SetSenderNameType(inbox.SenderNameType)
	SetBusinessName(string)
	SetAvatarURL(string)
}

func applyInboxBehaviour(in InboxInput, m inboxBehaviour) {
	setIf(in.GreetingEnabled, m.SetGreetingEnabled)
	setIf(in.GreetingMessage, m.SetGreetingMessage)
	setIf(in.EnableAutoAssignment, m.SetEnableAutoAssignment)
	setIf(in.EnableEmailCollect, m.SetEnableEmailCollect)
	setIf(in.CSATSurveyEnabled, m.SetCsatSurveyEnabled)
	setIf(in.WorkingHoursEnabled, m.SetWorkingHoursEnabled)
	setIf(in.OutOfOfficeMessage, m.SetOutOfOfficeMessage)
	setIf(in.Timezone, m.SetTimezone)
	setIf(in.AllowMessagesAfterResolved, m.SetAllowMessagesAfterResolved)
	setIf(in.LockToSingleConversation, m.SetLockToSingleConversation)
	setIf(in.BusinessName, m.SetBusinessName)
	setIf(in.AvatarURL, m.SetAvatarURL)
	if in.SenderNameType != nil {
		m.SetSenderNameType(inbox.SenderNameType(*in.SenderNameType))
	}
}

func setIf[T any](v *T, set func(T)) {
	if v != nil {
		set(*v)
	}
}

func validHTTPURL(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	return (strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")) && len(s) > len("https://")
}
