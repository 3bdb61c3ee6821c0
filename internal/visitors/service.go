// Package visitors holds the operations of Chatwoot's public client API: a
// visitor (a website widget's or an app's customer) names an API or web
// widget inbox by its public identifier and themselves by their contact
// inbox's source id, with no user token, and reads and writes only their own
// contact, conversations and non-private messages.
//
// The inbox is found by its public identifier past the privacy rules
// (core.AsInboxLookup). Everything read for the visitor is then read as the
// visitor (viewer.VisitorContext): the privacy rules in ent/schema
// (policy_visitor.go) narrow it to their own contact, conversations and
// public messages. What the visitor sends is written by the inbox's
// channel (core.AsChannel), as for every channel, and read back as the
// visitor.
package visitors

import (
	"context"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/throttle"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Limits bound what one client address and one visitor may ask.
type Limits struct {
	PerAddress throttle.Config
	PerVisitor throttle.Config
}

// DefaultLimits: 120 requests per client address, then two a second; 60
// per visitor, then one a second. A widget polls far less; a script
// flooding an inbox is refused with 429 long before it costs much.
var DefaultLimits = Limits{
	PerAddress: throttle.Config{Burst: 120, Every: 500 * time.Millisecond},
	PerVisitor: throttle.Config{Burst: 60, Every: time.Second},
}

// UnthrottledLimits never throttle: for suites that send thousands of
// requests from one address on purpose (the route fuzzer, the matrix).
var UnthrottledLimits = Limits{
	PerAddress: throttle.Config{Burst: 1 << 20, Every: time.Nanosecond},
	PerVisitor: throttle.Config{Burst: 1 << 20, Every: time.Nanosecond},
}

// Service runs the public client API's operations.
type Service struct {
	*core.Core
	inboxes       *inboxes.Service
	contacts      *contacts.Service
	conversations *conversations.Service
	byAddress     *throttle.Limiter
	byVisitor     *throttle.Limiter
	sockets       sockets
}

// New returns the visitors' Service.
func New(c *core.Core, ib *inboxes.Service, ct *contacts.Service, conv *conversations.Service, l Limits) *Service {
	limiter := func(cfg throttle.Config) *throttle.Limiter {
		if cfg.Now == nil {
			cfg.Now = c.Now
		}
		return throttle.New(cfg)
	}
	return &Service{Core: c, inboxes: ib, contacts: ct, conversations: conv,
		byAddress: limiter(l.PerAddress), byVisitor: limiter(l.PerVisitor),
		sockets: sockets{perVisitor: map[int]int{}}}
}

// Key names a visitor: the inbox's public identifier (an API channel's
// inbox_identifier, a web widget's website_token) and the visitor's contact
// identifier (their contact inbox's source id).
type Key struct {
	Inbox   string
	Contact string
}

// Visitor is a contact as the public API serves them: through one contact
// inbox of one public inbox.
type Visitor struct {
	Inbox        *ent.Inbox
	ContactInbox *ent.ContactInbox // with its contact
}

// Contact is the visitor's contact.
func (v *Visitor) Contact() *ent.Contact { return v.ContactInbox.Edges.Contact }

// AdmitAddress spends one request of a client address, or says how long
// it must wait (429).
func (s *Service) AdmitAddress(addr string) error {
	return admit(s.byAddress, throttle.AddressKey(addr))
}

func admit(l *throttle.Limiter, key string) error {
	if at, wait := l.Take(key); at == nil {
		return apperr.TooManyRequests("Too many requests: try again in "+throttle.WaitText(wait)+".", wait)
	}
	return nil
}

// PublicInbox is the API or web widget inbox whose public identifier is id.
func (s *Service) PublicInbox(ctx context.Context, id string) (*ent.Inbox, error) {
	id = strings.TrimSpace(id)
	if id == "" || len(id) > 255 {
		return nil, apperr.NotFound("Inbox")
	}
	ibs, err := s.inboxes.InboxesByChannelKey(ctx, 1,
		inboxes.ChannelKey{Type: inbox.ChannelTypeAPI, Value: id},
		inboxes.ChannelKey{Type: inbox.ChannelTypeWebWidget, Value: id})
	if err != nil {
		return nil, err
	}
	if len(ibs) == 0 {
		return nil, apperr.NotFound("Inbox")
	}
	return ibs[0], nil
}

// Find is the visitor k names, after the visitor's own rate limit, and the
// context that reads as them (pass it to the other operations). In an inbox
// with hmac_mandatory only a visitor whose identity was verified is
// served.
func (s *Service) Find(ctx context.Context, k Key) (context.Context, *Visitor, error) {
	ctx, v, err := s.find(ctx, k)
	if err != nil {
		return ctx, nil, err
	}
	if v.Inbox.Channel.HMACMandatory && !v.ContactInbox.HmacVerified {
		return ctx, nil, unverified()
	}
	return ctx, v, nil
}

// find is Find without the identity requirement (identifying is how a
// visitor meets it).
func (s *Service) find(ctx context.Context, k Key) (context.Context, *Visitor, error) {
	ib, err := s.PublicInbox(ctx, k.Inbox)
	if err != nil {
		return ctx, nil, err
	}
	ctx = viewer.VisitorContext(ctx, ib.AccountID, ib.ID, k.Contact)
	v, err := s.load(ctx, ib)
	if err != nil {
		return ctx, nil, err
	}
	if err := admit(s.byVisitor, itoa(v.ContactInbox.ID)); err != nil {
		return ctx, nil, err
	}
	return ctx, v, nil
}

// load reads the visitor of ctx, with their contact: the one contact
// inbox the rules let them see, or 404.
func (s *Service) load(ctx context.Context, ib *ent.Inbox) (*Visitor, error) {
	ci, err := s.DB.ContactInbox.Query().WithContact().Only(ctx)
	if err != nil {
		return nil, apperr.From(core.NotFound(err, "Contact"))
	}
	return &Visitor{Inbox: ib, ContactInbox: ci}, nil
}

// asChannel is the context in which what the visitor sends is written:
// by the inbox's channel, as every channel's customer messages are.
func asChannel(ctx context.Context, v *Visitor) context.Context {
	return core.AsChannel(ctx, v.Inbox.AccountID)
}
