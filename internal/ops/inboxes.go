package ops

import (
	"context"
	"strings"
	"time"

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
	channelType, channel := newChannel(in.Channel, &errs)
	checkInboxBehaviour(in, &errs)
	if err := errs.err(); err != nil {
		return nil, err
	}
	create := s.Client(ctx).Inbox.Create().SetName(name).SetChannelType(channelType).SetChannel(channel)
	applyInboxBehaviour(in, create.Mutation())
	ib, err := create.Save(ctx)
	return ib, apperrOrNil(err)
}

// UpdateInbox changes the sent behaviour fields and channel settings of an
// inbox (administrators only). Channel settings merge over the stored ones;
// the channel type cannot change.
func (s *Service) UpdateInbox(ctx context.Context, id int, in InboxInput) (*ent.Inbox, error) {
	if err := requireAdmin(ctx); err != nil {
		return nil, err
	}
	// The stored inbox comes first: its channel type decides which channel
	// settings are valid.
	ib, err := s.Inbox(ctx, id)
	if err != nil {
		return nil, err
	}
	var errs fieldErrors
	if in.Name != nil && strings.TrimSpace(*in.Name) == "" {
		errs.add("name", "Name can't be blank")
	}
	var channel schematype.Channel
	if in.Channel != nil {
		channel = updatedChannel(ib, in.Channel, &errs)
	}
	checkInboxBehaviour(in, &errs)
	if err := errs.err(); err != nil {
		return nil, err
	}
	upd := ib.Update()
	if in.Name != nil {
		upd.SetName(strings.TrimSpace(*in.Name))
	}
	if in.Channel != nil {
		upd.SetChannel(channel)
	}
	applyInboxBehaviour(in, upd.Mutation())
	ib, err = upd.Save(ctx)
	return ib, apperrOrNil(err)
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
