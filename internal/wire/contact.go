package wire

import (
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
)

// Contact is Chatwoot's contact partial; contact_inboxes is included
// when they were loaded.
func Contact(ct *ent.Contact) H {
	h := ContactBase(ct)
	if ct.Edges.ContactInboxes != nil { // loaded (ent loads "none" as an empty slice)
		cis := make([]H, 0, len(ct.Edges.ContactInboxes))
		for _, ci := range ct.Edges.ContactInboxes {
			cis = append(cis, ContactInbox(ci))
		}
		h["contact_inboxes"] = cis
	}
	return h
}

// ContactBase is a contact without its inboxes (as embedded elsewhere).
func ContactBase(ct *ent.Contact) H {
	return H{
		"id":                    ct.ID,
		"name":                  ct.Name,
		"email":                 StrPtr(ct.Email),
		"phone_number":          StrPtr(ct.PhoneNumber),
		"identifier":            StrPtr(ct.Identifier),
		"blocked":               ct.Blocked,
		"thumbnail":             ct.AvatarURL,
		"avatar_url":            ct.AvatarURL,
		"availability_status":   "offline",
		"additional_attributes": OrEmptyMap(ct.AdditionalAttributes),
		"custom_attributes":     OrEmptyMap(ct.CustomAttributes),
		"labels":                OrEmpty(ct.Labels),
		"last_activity_at":      TimePtr(ct.LastActivityAt),
		"created_at":            Time(ct.CreatedAt),
		"updated_at":            Time(ct.UpdatedAt),
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
