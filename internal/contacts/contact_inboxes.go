package contacts

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// AttachInbox links a contact to an inbox under sourceID, or under the id the
// channel generates when none is given.
func (s *Service) AttachInbox(ctx context.Context, c *ent.Client, ct *ent.Contact, ib *ent.Inbox, sourceID *string) (*ent.ContactInbox, error) {
	sid := ""
	if sourceID != nil {
		sid = strings.TrimSpace(*sourceID)
	}
	if sid == "" {
		var err error
		if sid, err = generateSourceID(ct, ib); err != nil {
			return nil, err
		}
	}
	taken, err := c.ContactInbox.Query().
		Where(contactinbox.InboxID(ib.ID), contactinbox.SourceID(sid)).Exist(ctx)
	if err != nil {
		return nil, err
	}
	sourceTaken := apperr.Invalid("Source id has already been taken in this inbox", "source_id")
	if taken {
		return nil, sourceTaken
	}
	// A link the viewer cannot read (an agent outside the inbox) is not
	// seen taken above; the unique index finds it.
	ci, err := newContactInbox(ctx, c, ct, ib, sid)
	if ent.IsConstraintError(err) {
		return nil, sourceTaken
	}
	return ci, err
}

func newContactInbox(ctx context.Context, c *ent.Client, ct *ent.Contact, ib *ent.Inbox, sid string) (*ent.ContactInbox, error) {
	return c.ContactInbox.Create().SetContactID(ct.ID).SetInboxID(ib.ID).SetSourceID(sid).Save(ctx)
}

// generateSourceID is how a channel identifies a contact: its phone number on
// messaging apps, its e-mail on e-mail inboxes, a fresh UUID elsewhere.
func generateSourceID(ct *ent.Contact, ib *ent.Inbox) (string, error) {
	switch ib.ChannelType {
	case inbox.ChannelTypeWhatsapp, inbox.ChannelTypeSms:
		if ct.PhoneNumber == nil {
			return "", apperr.Invalid("Phone number is required to reach a contact through a "+string(ib.ChannelType)+" inbox", "phone_number")
		}
		return *ct.PhoneNumber, nil
	case inbox.ChannelTypeEmail:
		if ct.Email == nil {
			return "", apperr.Invalid("Email is required to reach a contact through an email inbox", "email")
		}
		return *ct.Email, nil
	default:
		return uuid.NewString(), nil
	}
}

// AddContactInbox makes a contact reachable through another inbox; each
// association gets its own source id.
func (s *Service) AddContactInbox(ctx context.Context, contactID int, inboxID *int, sourceID *string) (*ent.ContactInbox, error) {
	if inboxID == nil {
		return nil, apperr.Invalid("Inbox can't be blank: inbox_id is required", "inbox_id")
	}
	var ci *ent.ContactInbox
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		ct, err := c.Contact.Get(ctx, contactID)
		if err != nil {
			return core.NotFound(err, "Contact")
		}
		ib, err := c.Inbox.Get(ctx, *inboxID)
		if ent.IsNotFound(err) {
			return apperr.Invalidf("inbox_id", "Inbox %d does not exist in this account", *inboxID)
		}
		if err != nil {
			return err
		}
		if ci, err = s.AttachInbox(ctx, c, ct, ib, sourceID); err != nil {
			return err
		}
		ci.Edges.Inbox = ib
		return nil
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	// The link as made, not read back: an agent may link a contact to an
	// inbox it does not work in (as Chatwoot's agents may), and is told the
	// link it made, but reads no link there (ent/schema contactInboxPolicy).
	return ci.Unwrap(), nil
}

// Reachable is an inbox through which a contact can be reached, with the
// source id it has (or would get) there.
type Reachable struct {
	Inbox    *ent.Inbox
	SourceID string
}

// ContactableInboxes lists the inboxes that can reach a contact: those it is
// already linked to, plus channels its details allow (e-mail, phone, API).
// An agent is listed the inboxes it works in, as Chatwoot's are: it can
// start a conversation in no other, and reads no link there.
func (s *Service) ContactableInboxes(ctx context.Context, contactID int) ([]Reachable, error) {
	ct, err := s.Contact(ctx, contactID)
	if err != nil {
		return nil, apperr.From(err)
	}
	q := s.Client(ctx).Inbox.Query().Order(ent.Asc(inbox.FieldID))
	if worked := schema.WorkedInbox(ctx); worked != nil {
		q.Where(worked)
	}
	inboxes, err := q.All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	linked := map[int]string{}
	for _, ci := range ct.Edges.ContactInboxes {
		if _, ok := linked[ci.InboxID]; !ok {
			linked[ci.InboxID] = ci.SourceID
		}
	}
	var out []Reachable
	for _, ib := range inboxes {
		if sid, ok := linked[ib.ID]; ok {
			out = append(out, Reachable{Inbox: ib, SourceID: sid})
			continue
		}
		if ib.ChannelType == inbox.ChannelTypeWebWidget {
			continue // a widget visitor can only be reached in the session it opened
		}
		if sid, err := generateSourceID(ct, ib); err == nil {
			out = append(out, Reachable{Inbox: ib, SourceID: sid})
		}
	}
	return out, nil
}

// Sender is who wrote to an inbox through its channel: the contact's
// address in the channel (its contact inbox's source id) and what the
// channel tells of them.
type Sender struct {
	SourceID string
	Name     string
	Email    string
	Phone    string
}

// ContactForSender finds the contact inbox of a channel's sender, or makes
// one: for the account's contact with the sender's phone number or e-mail
// when there is one (as Chatwoot matches them), else for a new contact. It
// runs in the transaction of c and tells the listeners of a new contact.
// newContact says the contact was made here: a row, with its contact inbox,
// that nobody else sees before the transaction commits.
func (s *Service) ContactForSender(ctx context.Context, c *ent.Client, ib *ent.Inbox, from Sender) (ci *ent.ContactInbox, newContact bool, err error) {
	ci, err = c.ContactInbox.Query().Where(contactinbox.InboxID(ib.ID), contactinbox.SourceID(from.SourceID)).
		WithContact().Only(ctx)
	if err == nil || !ent.IsNotFound(err) {
		return ci, false, err
	}
	ct, err := s.contactBySenderAddress(ctx, c, from)
	if err != nil {
		return nil, false, err
	}
	if newContact = ct == nil; newContact {
		if ct, err = s.newSenderContact(ctx, c, from); err != nil {
			return nil, false, err
		}
	}
	// Not AttachInbox: the source id was just looked up in this
	// transaction. A concurrent message of the same new sender collides
	// with this row at the unique key instead, and its caller tries again.
	ci, err = newContactInbox(ctx, c, ct, ib, from.SourceID)
	if err != nil {
		return nil, false, err
	}
	ci.Edges.Contact = ct
	return ci, newContact, nil
}

// contactBySenderAddress is the account's contact with the sender's phone
// number, else e-mail (nil when none).
func (s *Service) contactBySenderAddress(ctx context.Context, c *ent.Client, from Sender) (*ent.Contact, error) {
	var preds []predicate.Contact
	if phone := senderPhone(from); phone != "" {
		preds = append(preds, contact.PhoneNumber(phone))
	}
	if email := senderEmail(from); email != "" {
		preds = append(preds, contact.Email(email))
	}
	for _, p := range preds {
		ct, err := c.Contact.Query().Where(p).Order(ent.Asc(contact.FieldID)).First(ctx)
		if err == nil || !ent.IsNotFound(err) {
			return ct, err
		}
	}
	return nil, nil
}

// newSenderContact creates the contact of a sender the account does not
// know yet, named as the channel names them (else by their address).
func (s *Service) newSenderContact(ctx context.Context, c *ent.Client, from Sender) (*ent.Contact, error) {
	ct, err := s.senderContactCreate(c, from).Save(ctx)
	if err != nil {
		return nil, err
	}
	return ct, s.EmitContactEvent(ctx, c, events.ContactCreated, ct)
}

// senderContactCreate builds the contact of a new sender.
func (s *Service) senderContactCreate(c *ent.Client, from Sender) *ent.ContactCreate {
	name := strings.TrimSpace(from.Name)
	if name == "" {
		name = from.SourceID
	}
	create := c.Contact.Create().SetName(core.Truncate(name, 255)).SetLastActivityAt(s.Now())
	if phone := senderPhone(from); phone != "" {
		create.SetPhoneNumber(phone)
	}
	if email := senderEmail(from); email != "" {
		create.SetEmail(email)
	}
	return create
}

// senderPhone and senderEmail are the addresses of a sender a contact is
// found by and made with ("": none, or not a valid one).
func senderPhone(from Sender) string {
	if core.ValidPhone(from.Phone) {
		return from.Phone
	}
	return ""
}

func senderEmail(from Sender) string {
	if email := core.NormalizeEmail(from.Email); core.ValidEmail(email) {
		return email
	}
	return ""
}
