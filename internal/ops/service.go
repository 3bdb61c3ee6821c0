// Package ops wires the domain packages into the one Service the transports
// (REST, GraphQL, console), the job runner and the commands call. Each
// operation lives in its domain package (accounts, inboxes, contacts,
// conversations, schedules, kanban, webhooks) over the shared core; the
// Service embeds them, so svc.CreateContact is contacts.Service.CreateContact.
package ops

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/channels/whatsapp"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/outbound"
	"github.com/switchboard/switchboard/internal/schedules"
	"github.com/switchboard/switchboard/internal/storage"
	"github.com/switchboard/switchboard/internal/visitors"
	"github.com/switchboard/switchboard/internal/webhooks"
)

// The domain services under the names they are embedded by (two embedded
// types may not share the name Service).
type (
	AccountsService      = accounts.Service
	InboxesService       = inboxes.Service
	ContactsService      = contacts.Service
	ConversationsService = conversations.Service
	SchedulesService     = schedules.Service
	KanbanService        = kanban.Service
	WebhooksService      = webhooks.Service
)

// Service is every operation of the product over one database.
type Service struct {
	*core.Core
	*AccountsService
	*InboxesService
	*ContactsService
	*ConversationsService
	*SchedulesService
	*KanbanService
	*WebhooksService
	// Visitors is the public client API's operations, kept by name: their
	// names (Conversation, Messages, ...) are the visitor's versions of
	// the agents' operations above.
	Visitors *visitors.Service
	// WhatsApp receives the WhatsApp Cloud inboxes' webhooks (a field, not
	// embedded: its Receive is not conversations' Receive).
	WhatsApp *whatsapp.Service
}

// settings are what the Options set before the services are built.
type settings struct {
	clock       func() time.Time
	storage     *storage.Store
	hub         *events.Hub
	afterCommit func()
	catchUp     time.Duration
	authLimits  accounts.AuthLimits
	visitors    visitors.Limits
	publicURL   string
	graphBase   string
	displayIDs  func(ctx context.Context, accountID, n int, now time.Time) (int, error)
}

// Option configures a Service.
type Option func(*settings)

// WithEvents gives the Service the hub it publishes committed changes to.
func WithEvents(h *events.Hub) Option { return func(s *settings) { s.hub = h } }

// WithDisplayIDCounter has new conversations take their display ids through
// take, in a statement of its own before their transaction (see
// core.Core.TakeDisplayID).
func WithDisplayIDCounter(take func(ctx context.Context, accountID, n int, now time.Time) (int, error)) Option {
	return func(s *settings) { s.displayIDs = take }
}

// WithAfterCommit sets what runs after each committed transaction.
func WithAfterCommit(f func()) Option { return func(s *settings) { s.afterCommit = f } }

// WithStorage gives the Service the store that keeps attachments.
func WithStorage(st *storage.Store) Option { return func(s *settings) { s.storage = st } }

// WithAuthLimits replaces accounts.DefaultAuthLimits.
func WithAuthLimits(l accounts.AuthLimits) Option { return func(s *settings) { s.authLimits = l } }

// WithVisitorLimits replaces visitors.DefaultLimits.
func WithVisitorLimits(l visitors.Limits) Option { return func(s *settings) { s.visitors = l } }

// WithClock sets the Service's clock (tests move time instead of waiting).
func WithClock(now func() time.Time) Option { return func(s *settings) { s.clock = now } }

// WithPublicURL sets where the server is reached (PUBLIC_URL), the base of
// the callback URLs shown for channels.
func WithPublicURL(u string) Option { return func(s *settings) { s.publicURL = u } }

// WithWhatsAppBase sets the WhatsApp Cloud API's base URL media is fetched
// from (empty: delivery.DefaultWhatsAppBase).
func WithWhatsAppBase(base string) Option { return func(s *settings) { s.graphBase = base } }

// graphTimeout bounds one Graph API request of a media fetch.
const graphTimeout = 30 * time.Second

// WithCatchUpWindow sets how late a schedule may still fire.
func WithCatchUpWindow(d time.Duration) Option { return func(s *settings) { s.catchUp = d } }

// New returns a Service over client.
func New(client *ent.Client, opts ...Option) *Service {
	st := settings{authLimits: accounts.DefaultAuthLimits, visitors: visitors.DefaultLimits}
	for _, o := range opts {
		o(&st)
	}
	c := core.New(client)
	if st.clock != nil {
		c.Clock = st.clock
	}
	c.Files, c.Hub, c.AfterCommit, c.CatchUp = st.storage, st.hub, st.afterCommit, st.catchUp
	c.PublicURL, c.TakeDisplayID = st.publicURL, st.displayIDs
	if st.graphBase == "" {
		st.graphBase = delivery.DefaultWhatsAppBase
	}
	acc := accounts.New(c, st.authLimits)
	ib := inboxes.New(c, acc)
	ct := contacts.New(c, ib.InboxesOf)
	conv := conversations.New(c, ct, ib)
	kb := kanban.New(c, conv)
	wh := webhooks.New(c)
	// The order listeners hear a change in: the account's webhooks, the
	// kanban webhook, then the automations it fires.
	c.Listen(wh.OutboxListener(), kb.WebhookListener(), kb.AutomationListener())
	return &Service{
		Core: c, AccountsService: acc, InboxesService: ib, ContactsService: ct,
		ConversationsService: conv, SchedulesService: schedules.New(c, conv), KanbanService: kb, WebhooksService: wh,
		Visitors: visitors.New(c, ib, ct, conv, st.visitors),
		WhatsApp: whatsapp.New(ib, conv, whatsapp.Graph{Base: st.graphBase, HTTP: outbound.NewClient(graphTimeout)}),
	}
}
