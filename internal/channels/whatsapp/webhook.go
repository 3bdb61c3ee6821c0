package whatsapp

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/inboxes"
)

// Service receives the webhooks of the WhatsApp Cloud inboxes.
type Service struct {
	inboxes *inboxes.Service
	conv    *conversations.Service
	graph   Graph
}

// New returns the WhatsApp webhooks' Service: inboxes are found through ib,
// messages and receipts stored through conv, media fetched through g.
func New(ib *inboxes.Service, conv *conversations.Service, g Graph) *Service {
	return &Service{inboxes: ib, conv: conv, graph: g}
}

// maxChallenge bounds the challenge echoed to Meta (it sends a number).
const maxChallenge = 256

// Verify answers Meta's check of an inbox's callback URL: with mode
// "subscribe" and the inbox's verify token, the challenge; otherwise 403
// (404 for a number no inbox has).
func (s *Service) Verify(ctx context.Context, number, mode, token, challenge string) (string, error) {
	ibs, err := s.inboxes.WhatsAppInboxesByNumber(ctx, number)
	if err != nil {
		return "", err
	}
	if mode != "subscribe" {
		return "", apperr.Forbidden("hub.mode must be subscribe")
	}
	if len(challenge) > maxChallenge {
		return "", apperr.BadRequest("hub.challenge is longer than %d characters", maxChallenge)
	}
	for _, ib := range ibs {
		if want := providerConfig(ib).WebhookVerifyToken; want != "" && subtle.ConstantTimeCompare([]byte(want), []byte(token)) == 1 {
			return challenge, nil
		}
	}
	return "", apperr.Forbidden("hub.verify_token does not match the inbox's webhook_verify_token")
}

// Result counts what a webhook post brought.
type Result struct {
	// Messages were stored; Duplicates had been stored before (Meta posts
	// again until it hears 200).
	Messages, Duplicates int
	// Statuses were applied to our messages (a status of a message the
	// inbox does not know, or behind the message's, changes nothing).
	Statuses int
	// Ignored: items for another business number, removed reactions, and
	// messages without an id or a sender.
	Ignored int
}

// Receive stores what a signed webhook post of an inbox carries. The post
// must be signed (X-Hub-Signature-256) with the app secret of an inbox of
// the number, else 401 and nothing is read; a body that is not the Cloud
// API's envelope is 400. Each message goes through conversations.Receive
// (stored once per WhatsApp id), each status through RecordReceipt. A
// failure another post may fix (the database, the Graph API) is answered as
// such, so that Meta posts again; what was stored before stays, once.
func (s *Service) Receive(ctx context.Context, number, signature string, body []byte) (Result, error) {
	var res Result
	sig, err := parseSignature(signature)
	if err != nil {
		return res, err
	}
	ibs, err := s.inboxes.WhatsAppInboxesByNumber(ctx, number)
	if err != nil {
		return res, err
	}
	ib, err := signedBy(ibs, sig, body)
	if err != nil {
		return res, err
	}
	env, err := parse(body)
	if err != nil {
		return res, err
	}
	for _, e := range env.Entry {
		for _, c := range e.Changes {
			if err := s.receiveChange(ctx, ib, c.Value, &res); err != nil {
				return res, err
			}
		}
	}
	return res, nil
}

// receiveChange stores one change's messages, then applies its statuses.
// A change for another number of the business account is not this inbox's.
func (s *Service) receiveChange(ctx context.Context, ib *ent.Inbox, v value, res *Result) error {
	if id := providerConfig(ib).PhoneNumberID; v.Metadata.PhoneNumberID != "" && id != "" && v.Metadata.PhoneNumberID != id {
		res.Ignored += len(v.Messages) + len(v.Statuses)
		return nil
	}
	for i := range v.Messages {
		if err := s.receiveMessage(ctx, ib, v.Contacts, &v.Messages[i], res); err != nil {
			return err
		}
	}
	for _, st := range v.Statuses {
		if err := s.recordStatus(ctx, ib, st, res); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) receiveMessage(ctx context.Context, ib *ent.Inbox, profiles []profile, m *inMessage, res *Result) error {
	text, attrs, ok := m.content()
	if !ok || m.ID == "" || m.From == "" {
		res.Ignored++
		return nil
	}
	var files []core.Upload
	if md := m.media(); md != nil && md.ID != "" {
		up, err := s.graph.fetchMedia(ctx, providerConfig(ib).APIKey, md, m.Type, s.maxFileSize())
		switch {
		case err == nil:
			files = []core.Upload{up}
		case errors.Is(err, errMediaGone):
			// Stored without its file, saying why, rather than lost.
			if attrs == nil {
				attrs = map[string]any{}
			}
			attrs["media_error"] = err.Error()
			if strings.TrimSpace(text) == "" {
				text = fmt.Sprintf("[%s: the file could not be fetched from WhatsApp]", m.Type)
			}
		default:
			return err
		}
	}
	_, dup, err := s.conv.Receive(ctx, conversations.Inbound{Inbox: ib, From: sender(m.From, profiles), SourceID: m.ID,
		Content: text, ContentAttributes: attrs, Files: files})
	var ae *apperr.Error
	switch {
	case errors.As(err, &ae) && ae.Kind == apperr.KindInvalid:
		// Posting it again would not change it: not Meta's to retry.
		res.Ignored++
	case err != nil:
		return err
	case dup:
		res.Duplicates++
	default:
		res.Messages++
	}
	return nil
}

// receiptStatuses are the Cloud API statuses a receipt records.
var receiptStatuses = map[string]message.Status{
	"sent": message.StatusSent, "delivered": message.StatusDelivered, "read": message.StatusRead, "failed": message.StatusFailed,
}

func (s *Service) recordStatus(ctx context.Context, ib *ent.Inbox, st statusUpdate, res *Result) error {
	status, known := receiptStatuses[st.Status]
	if !known || st.ID == "" {
		res.Ignored++
		return nil
	}
	reason := ""
	if status == message.StatusFailed && len(st.Errors) > 0 {
		reason = core.Truncate(fmt.Sprintf("%d: %s", st.Errors[0].Code, st.Errors[0].Title), 500)
	}
	if _, err := s.conv.RecordReceipt(ctx, conversations.Receipt{Inbox: ib, SourceID: st.ID, Status: status, Reason: reason}); err != nil {
		return err
	}
	res.Statuses++
	return nil
}

// sender is the customer who sent from waID: named by their WhatsApp
// profile, reached at their number (the contact inbox's source id is the
// number without "+", the contact's phone the E.164 form, as Chatwoot).
func sender(waID string, profiles []profile) contacts.Sender {
	from := contacts.Sender{SourceID: waID, Phone: "+" + waID}
	for _, p := range profiles {
		if p.WaID == waID {
			from.Name = p.Profile.Name
		}
	}
	return from
}

func providerConfig(ib *ent.Inbox) schematype.ProviderConfig {
	if pc := ib.Channel.ProviderConfig; pc != nil {
		return *pc
	}
	return schematype.ProviderConfig{}
}

func (s *Service) maxFileSize() int64 {
	if st := s.conv.Storage(); st != nil {
		return st.MaxFileSize()
	}
	return 0
}
