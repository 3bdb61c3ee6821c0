// Package delivery sends messages through their inbox's channel: the API
// channel's webhook, the WhatsApp Cloud API, or e-mail over SMTP. Every
// connection goes through package outbound's address guard.
package delivery

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/internal/outbound"
)

// Job is a message with everything a channel needs to send it.
type Job struct {
	Message      *ent.Message
	Conversation *ent.Conversation
	Inbox        *ent.Inbox
	Contact      *ent.Contact
	SourceID     string
	// Payload is the message event, as the API channel's webhook receives it.
	Payload map[string]any
}

// permanent marks a failure another attempt would not fix.
type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

// Permanent wraps err as final: the message fails without retries.
func Permanent(err error) error { return permanent{err} }

// IsPermanent reports whether err is final.
func IsPermanent(err error) bool {
	var p permanent
	return errors.As(err, &p)
}

// Dispatcher sends jobs through their channels.
type Dispatcher struct {
	HTTP *http.Client
	// WhatsAppBase is the Cloud API's base URL (WHATSAPP_API_BASE), so tests
	// and on-premise proxies can stand in for the real host.
	WhatsAppBase string
	// SMTPTimeout bounds one SMTP exchange (0: 30 seconds).
	SMTPTimeout time.Duration
}

// DefaultWhatsAppBase is the WhatsApp Cloud API's own base URL.
const DefaultWhatsAppBase = "https://graph.facebook.com/v20.0"

// NewDispatcher returns the production dispatcher, sending WhatsApp messages
// to whatsAppBase (empty: DefaultWhatsAppBase).
func NewDispatcher(whatsAppBase string) *Dispatcher {
	if whatsAppBase == "" {
		whatsAppBase = DefaultWhatsAppBase
	}
	return &Dispatcher{HTTP: outbound.NewClient(15 * time.Second), WhatsAppBase: whatsAppBase}
}

// Deliver sends the job's message and returns the channel's id for it.
func (d *Dispatcher) Deliver(ctx context.Context, job Job) (string, error) {
	switch job.Inbox.ChannelType {
	case inbox.ChannelTypeAPI:
		return "", d.deliverAPI(ctx, job)
	case inbox.ChannelTypeWhatsapp:
		return d.deliverWhatsApp(ctx, job)
	case inbox.ChannelTypeEmail:
		return "", d.deliverEmail(ctx, job)
	}
	return "", Permanent(fmt.Errorf("channel %s cannot send messages", job.Inbox.ChannelType))
}

// AwaitsReceipt reports whether a channel tells, after accepting a
// message, when it reached the contact (WhatsApp's statuses: sent,
// delivered, read): such a message stays sent until its receipt. The API
// channel's receiver and an SMTP server take the message themselves.
func AwaitsReceipt(ib *ent.Inbox) bool { return ib.ChannelType == inbox.ChannelTypeWhatsapp }

// Deliverable reports whether a channel sends messages at all (an API
// inbox without a webhook URL has nowhere to send them).
func Deliverable(ib *ent.Inbox) bool {
	switch ib.ChannelType {
	case inbox.ChannelTypeAPI:
		return ib.Channel.WebhookURL != ""
	case inbox.ChannelTypeWhatsapp, inbox.ChannelTypeEmail:
		return true
	}
	return false
}

// classify turns an HTTP outcome into nil, a retryable or a permanent error.
func classify(what string, status int, err error) error {
	switch {
	case err == nil && status >= 200 && status < 300:
		return nil
	case err != nil && outbound.Retryable(0, err):
		return fmt.Errorf("%s: %w", what, err)
	case err != nil:
		return Permanent(fmt.Errorf("%s: %w", what, err))
	case outbound.Retryable(status, nil):
		return answerError{what, status}
	}
	return Permanent(answerError{what, status})
}

// answerError is a receiver's answer that was not a success; the attempt
// log keeps its status, as it does a webhook delivery's.
type answerError struct {
	what   string
	status int
}

func (e answerError) Error() string { return fmt.Sprintf("%s answered %d", e.what, e.status) }

// StatusOf is the HTTP status a failed attempt was answered with, 0 when
// it got no answer.
func StatusOf(err error) int {
	var a answerError
	if errors.As(err, &a) {
		return a.status
	}
	return 0
}
