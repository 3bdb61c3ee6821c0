package core

import (
	"time"

	"github.com/switchboard/switchboard/ent/inbox"
)

// ReplyWindow is how long after a customer's last message a messaging app
// (WhatsApp) accepts free-form replies; after it only approved templates.
const ReplyWindow = 24 * time.Hour

// CanReply tells whether a free-form reply may go to a conversation of a
// channel whose customer last wrote at lastIncomingAt (nil: never): always,
// but for a messaging app whose 24-hour window is closed. Sending checks it
// and the conversation's can_reply shows it, so the two never disagree.
func CanReply(channel inbox.ChannelType, lastIncomingAt *time.Time, now time.Time) bool {
	if channel != inbox.ChannelTypeWhatsapp {
		return true
	}
	return lastIncomingAt != nil && now.Sub(*lastIncomingAt) < ReplyWindow
}
