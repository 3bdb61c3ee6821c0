package inboxes

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/outbound"
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
	return ibs, core.ApperrOrNil(err)
}

// Inbox returns one inbox.
func (s *Service) Inbox(ctx context.Context, id int) (*ent.Inbox, error) {
	ib, err := s.Client(ctx).Inbox.Get(ctx, id)
	return ib, core.ApperrOrNil(core.NotFound(err, "Inbox"))
}

// CreateInbox creates an inbox with its channel (administrators only).
func (s *Service) CreateInbox(ctx context.Context, in InboxInput) (*ent.Inbox, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	var errs core.FieldErrors
	name := ""
	if in.Name != nil {
		name = strings.TrimSpace(*in.Name)
	}
	if name == "" {
		errs.Add("name", "Name can't be blank")
	}
	channelType, channel := newChannel(in.Channel, &errs)
	checkInboxBehaviour(in, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	create := s.Client(ctx).Inbox.Create().SetName(name).SetChannelType(channelType).SetChannel(channel)
	applyInboxBehaviour(in, create.Mutation())
	ib, err := create.Save(ctx)
	return ib, core.ApperrOrNil(err)
}

// UpdateInbox changes the sent behaviour fields and channel settings of an
// inbox (administrators only). Channel settings merge over the stored ones;
// the channel type cannot change.
func (s *Service) UpdateInbox(ctx context.Context, id int, in InboxInput) (*ent.Inbox, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	// The stored inbox comes first: its channel type decides which channel
	// settings are valid.
	ib, err := s.Inbox(ctx, id)
	if err != nil {
		return nil, err
	}
	var errs core.FieldErrors
	if in.Name != nil && strings.TrimSpace(*in.Name) == "" {
		errs.Add("name", "Name can't be blank")
	}
	var channel schematype.Channel
	if in.Channel != nil {
		channel = updatedChannel(ib, in.Channel, &errs)
	}
	checkInboxBehaviour(in, &errs)
	if err := errs.Err(); err != nil {
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
	return ib, core.ApperrOrNil(err)
}

func checkInboxBehaviour(in InboxInput, errs *core.FieldErrors) {
	if in.SenderNameType != nil && inbox.SenderNameTypeValidator(inbox.SenderNameType(*in.SenderNameType)) != nil {
		errs.Add("sender_name_type", "Sender name type must be friendly or professional")
	}
	if in.Timezone != nil {
		if _, err := time.LoadLocation(*in.Timezone); err != nil || *in.Timezone == "" || *in.Timezone == "Local" {
			errs.Add("timezone", "Timezone must be an IANA time zone name such as Europe/Berlin")
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
	core.SetIf(in.GreetingEnabled, m.SetGreetingEnabled)
	core.SetIf(in.GreetingMessage, m.SetGreetingMessage)
	core.SetIf(in.EnableAutoAssignment, m.SetEnableAutoAssignment)
	core.SetIf(in.EnableEmailCollect, m.SetEnableEmailCollect)
	core.SetIf(in.CSATSurveyEnabled, m.SetCsatSurveyEnabled)
	core.SetIf(in.WorkingHoursEnabled, m.SetWorkingHoursEnabled)
	core.SetIf(in.OutOfOfficeMessage, m.SetOutOfOfficeMessage)
	core.SetIf(in.Timezone, m.SetTimezone)
	core.SetIf(in.AllowMessagesAfterResolved, m.SetAllowMessagesAfterResolved)
	core.SetIf(in.LockToSingleConversation, m.SetLockToSingleConversation)
	core.SetIf(in.BusinessName, m.SetBusinessName)
	core.SetIf(in.AvatarURL, m.SetAvatarURL)
	if in.SenderNameType != nil {
		m.SetSenderNameType(inbox.SenderNameType(*in.SenderNameType))
	}
}

// validHTTPURL reports whether s is an absolute http(s) URL with a host, as
// the outbound check parses URLs. Its address is not checked: the service
// never calls a widget's website, which may well be on an intranet.
func validHTTPURL(s string) bool {
	return !errors.Is(outbound.CheckURL(s), outbound.ErrNotHTTP)
}
