package wire

import (
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
)

// ContactJSON is Chatwoot's contact partial. A struct for the reason
// ConversationJSON is one (each list item carries its contact); the fields
// are in the order of their keys.
type ContactJSON struct {
	AdditionalAttributes map[string]any `json:"additional_attributes"`
	AvailabilityStatus   string         `json:"availability_status"`
	AvatarURL            string         `json:"avatar_url"`
	Blocked              bool           `json:"blocked"`
	// ContactInboxes is nil unless they were loaded; then a list, [] for none.
	ContactInboxes   *[]H           `json:"contact_inboxes,omitempty"`
	CreatedAt        string         `json:"created_at"`
	CustomAttributes map[string]any `json:"custom_attributes"`
	Email            *string        `json:"email"`
	ID               int            `json:"id"`
	Identifier       *string        `json:"identifier"`
	Labels           []string       `json:"labels"`
	LastActivityAt   *string        `json:"last_activity_at"`
	Name             string         `json:"name"`
	PhoneNumber      *string        `json:"phone_number"`
	Thumbnail        string         `json:"thumbnail"`
	UpdatedAt        string         `json:"updated_at"`
}

// Contact is Chatwoot's contact partial; contact_inboxes is included
// when they were loaded.
func Contact(ct *ent.Contact) ContactJSON {
	h := ContactBase(ct)
	if ct.Edges.ContactInboxes != nil { // loaded (ent loads "none" as an empty slice)
		cis := make([]H, 0, len(ct.Edges.ContactInboxes))
		for _, ci := range ct.Edges.ContactInboxes {
			cis = append(cis, ContactInbox(ci))
		}
		h.ContactInboxes = &cis
	}
	return h
}

// ContactBase is a contact without its inboxes (as embedded elsewhere).
func ContactBase(ct *ent.Contact) ContactJSON {
	return ContactJSON{
		ID:                   ct.ID,
		Name:                 ct.Name,
		Email:                ct.Email,
		PhoneNumber:          ct.PhoneNumber,
		Identifier:           ct.Identifier,
		Blocked:              ct.Blocked,
		Thumbnail:            ct.AvatarURL,
		AvatarURL:            ct.AvatarURL,
		AvailabilityStatus:   "offline",
		AdditionalAttributes: OrEmptyMap(ct.AdditionalAttributes),
		CustomAttributes:     OrEmptyMap(ct.CustomAttributes),
		Labels:               OrEmpty(ct.Labels),
		LastActivityAt:       timeOrNil(ct.LastActivityAt),
		CreatedAt:            Time(ct.CreatedAt),
		UpdatedAt:            Time(ct.UpdatedAt),
	}
}

// ContactInbox is {source_id, inbox: <inbox_slim>}.
func ContactInbox(ci *ent.ContactInbox) H {
	h := H{"source_id": ci.SourceID, "inbox": nil}
	if ci.Edges.Inbox != nil {
		h["inbox"] = InboxSlim(ci.Edges.Inbox)
	}
	return h
}

// ChannelClass is the channel class name Chatwoot clients switch on.
var ChannelClass = map[inbox.ChannelType]string{
	inbox.ChannelTypeAPI:       "Channel::Api",
	inbox.ChannelTypeWhatsapp:  "Channel::Whatsapp",
	inbox.ChannelTypeEmail:     "Channel::Email",
	inbox.ChannelTypeWebWidget: "Channel::WebWidget",
	inbox.ChannelTypeSms:       "Channel::Sms",
	inbox.ChannelTypeTelegram:  "Channel::Telegram",
	inbox.ChannelTypeLine:      "Channel::Line",
}

// InboxSlim is the inbox as embedded in other objects.
func InboxSlim(ib *ent.Inbox) H {
	return H{
		"id":           ib.ID,
		"avatar_url":   ib.AvatarURL,
		"channel_id":   ib.ID,
		"name":         ib.Name,
		"channel_type": ChannelClass[ib.ChannelType],
		"provider":     NilIfEmpty(ib.Channel.Provider),
	}
}
