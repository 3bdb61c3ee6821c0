package inboxes

import (
	"context"
	"net/url"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// WhatsAppWebhookPath is the route Meta posts a WhatsApp inbox's events to,
// as Chatwoot names it: the inbox's number, "+" included.
func WhatsAppWebhookPath(phoneNumber string) string {
	return "/webhooks/whatsapp/" + phoneNumber
}

// CallbackURL is the URL an administrator configures at Meta for a WhatsApp
// inbox (PUBLIC_URL plus its webhook path); "" for other channels.
func (s *Service) CallbackURL(ib *ent.Inbox) string {
	if ib.ChannelType != inbox.ChannelTypeWhatsapp || ib.Channel.PhoneNumber == "" {
		return ""
	}
	return strings.TrimRight(s.PublicURL, "/") + WhatsAppWebhookPath(ib.Channel.PhoneNumber)
}

// CallbackURLFor is CallbackURL as the viewer may see it: administrators
// set the inbox up at Meta, agents do not see it (nil, as for the other
// channels).
func (s *Service) CallbackURLFor(ctx context.Context, ib *ent.Inbox) *string {
	url := s.CallbackURL(ib)
	if url == "" || core.RequireAdmin(ctx) != nil {
		return nil
	}
	return &url
}

// WebhookURL is an API inbox's webhook URL, where its events are posted;
// nil for the other channels and when none is set.
func WebhookURL(ib *ent.Inbox) *string {
	if ib.ChannelType != inbox.ChannelTypeAPI || ib.Channel.WebhookURL == "" {
		return nil
	}
	url := ib.Channel.WebhookURL
	return &url
}

// maxInboxesPerNumber bounds the inboxes one webhook post is checked
// against (two accounts may have set up the same number).
const maxInboxesPerNumber = 10

// WhatsAppInboxesByNumber finds the WhatsApp inboxes of a number named in a
// webhook URL ("+" optional, as Meta's console may drop or escape it), in
// whichever account they are. The caller must prove the request with one of
// their secrets before acting for it (see core.AsInboxLookup).
func (s *Service) WhatsAppInboxesByNumber(ctx context.Context, number string) ([]*ent.Inbox, error) {
	phone := normalizeNumber(number)
	if !core.ValidPhone(phone) {
		return nil, apperr.NotFound("WhatsApp inbox")
	}
	ibs, err := s.InboxesByChannelKey(ctx, maxInboxesPerNumber,
		ChannelKey{Type: inbox.ChannelTypeWhatsapp, Value: phone})
	if err != nil {
		return nil, err
	}
	if len(ibs) == 0 {
		return nil, apperr.NotFound("WhatsApp inbox")
	}
	return ibs, nil
}

// normalizeNumber is the E.164 form of a number as a URL path may carry it.
func normalizeNumber(number string) string {
	if n, err := url.PathUnescape(number); err == nil {
		number = n
	}
	number = strings.TrimSpace(number)
	if !strings.HasPrefix(number, "+") {
		number = "+" + number
	}
	return number
}
