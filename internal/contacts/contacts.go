package contacts

import (
	"context"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/customattributedefinition"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/wire"
)

// ContactsPerPage is Chatwoot's page size for contact lists.
const ContactsPerPage = 15

// ContactInput carries the contact fields of a create or update; nil means
// "not sent". On update, attribute maps are merged into the stored ones.
type ContactInput struct {
	InboxID              *int
	SourceID             *string
	Name                 *string
	Email                *string
	PhoneNumber          *string
	Identifier           *string
	Blocked              *bool
	AvatarURL            *string
	AdditionalAttributes map[string]any
	CustomAttributes     map[string]any
}

// CreatedContact is a new contact and the contact inbox made with it.
type CreatedContact struct {
	Contact      *ent.Contact
	ContactInbox *ent.ContactInbox
}

// CreateContact creates a contact reachable through in.InboxID, which the
// spec requires.
func (s *Service) CreateContact(ctx context.Context, in ContactInput) (*CreatedContact, error) {
	if in.InboxID == nil {
		return nil, apperr.Invalid("Inbox can't be blank: inbox_id is required", "inbox_id")
	}
	var out CreatedContact
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		ib, err := c.Inbox.Get(ctx, *in.InboxID)
		if ent.IsNotFound(err) {
			return apperr.Invalidf("inbox_id", "Inbox %d does not exist in this account", *in.InboxID)
		}
		if err != nil {
			return err
		}
		f, err := s.checkContactFields(ctx, c, 0, in)
		if err != nil {
			return err
		}
		create := c.Contact.Create().
			SetNillableName(f.name).SetNillableEmail(f.email).SetNillablePhoneNumber(f.phone).
			SetNillableIdentifier(f.identifier).SetNillableBlocked(in.Blocked).
			SetNillableAvatarURL(in.AvatarURL).SetLastActivityAt(s.Now())
		if in.AdditionalAttributes != nil {
			create.SetAdditionalAttributes(core.MergeAttributes(nil, in.AdditionalAttributes))
		}
		if f.custom != nil {
			create.SetCustomAttributes(core.MergeAttributes(nil, f.custom))
		}
		ct, err := create.Save(ctx)
		if err != nil {
			return err
		}
		ci, err := s.AttachInbox(ctx, c, ct, ib, in.SourceID)
		if err != nil {
			return err
		}
		ci.Edges.Inbox = ib
		out = CreatedContact{Contact: ct, ContactInbox: ci}
		return s.EmitContactEvent(ctx, c, events.ContactCreated, ct)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.reloadCreated(ctx, out)
}

// reloadCreated reads a new contact back outside the transaction that made
// it, so that callers may follow its edges after the commit.
func (s *Service) reloadCreated(ctx context.Context, made CreatedContact) (*CreatedContact, error) {
	ct, err := s.Contact(ctx, made.Contact.ID)
	if err != nil {
		return nil, err
	}
	// The link as made: an agent who linked the contact to an inbox it does
	// not work in is told the link it made, but reads no link there.
	out := &CreatedContact{Contact: ct, ContactInbox: made.ContactInbox.Unwrap()}
	for _, ci := range ct.Edges.ContactInboxes {
		if ci.ID == made.ContactInbox.ID {
			out.ContactInbox = ci
		}
	}
	return out, nil
}

// UpdateContact changes the sent fields of a contact.
func (s *Service) UpdateContact(ctx context.Context, id int, in ContactInput) (*ent.Contact, error) {
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		ct, err := c.Contact.Get(ctx, id)
		if err != nil {
			return core.NotFound(err, "Contact")
		}
		f, err := s.checkContactFields(ctx, c, id, in)
		if err != nil {
			return err
		}
		upd := ct.Update().SetNillableName(f.name).SetNillableBlocked(in.Blocked).SetNillableAvatarURL(in.AvatarURL)
		setOrClear(in.Email, f.email, upd.SetEmail, upd.ClearEmail)
		setOrClear(in.PhoneNumber, f.phone, upd.SetPhoneNumber, upd.ClearPhoneNumber)
		setOrClear(in.Identifier, f.identifier, upd.SetIdentifier, upd.ClearIdentifier)
		if in.AdditionalAttributes != nil {
			upd.SetAdditionalAttributes(core.MergeAttributes(ct.AdditionalAttributes, in.AdditionalAttributes))
		}
		if f.custom != nil {
			upd.SetCustomAttributes(core.MergeAttributes(ct.CustomAttributes, f.custom))
		}
		ct, err = upd.Save(ctx)
		if err != nil {
			return err
		}
		return s.EmitContactEvent(ctx, c, events.ContactUpdated, ct)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Contact(ctx, id)
}

// setOrClear applies an optional string field: not sent leaves it, sent empty
// clears it, anything else sets the normalized value.
func setOrClear[U any](sent *string, value *string, set func(string) U, clear func() U) {
	switch {
	case sent == nil:
	case value == nil:
		clear()
	default:
		set(*value)
	}
}

// contactFields are the checked, normalized values of a ContactInput.
type contactFields struct {
	name, email, phone, identifier *string
	custom                         map[string]any
}

// checkContactFields validates and normalizes in, for the contact selfID (0
// for a new one): formats, and uniqueness of e-mail, phone and identifier in
// the account.
func (s *Service) checkContactFields(ctx context.Context, c *ent.Client, selfID int, in ContactInput) (contactFields, error) {
	var f contactFields
	var errs core.FieldErrors
	if in.Name != nil {
		n := strings.TrimSpace(*in.Name)
		f.name = &n
	}
	f.email = blankToNil(in.Email, core.NormalizeEmail)
	if f.email != nil && !core.ValidEmail(*f.email) {
		errs.Add("email", "Email is invalid")
	}
	f.phone = blankToNil(in.PhoneNumber, strings.TrimSpace)
	if f.phone != nil && !core.ValidPhone(*f.phone) {
		errs.Add("phone_number", "Phone number should be in e164 format (a + and up to 15 digits)")
	}
	f.identifier = blankToNil(in.Identifier, strings.TrimSpace)
	unique := []struct {
		field string
		value *string
		pred  func(string) predicate.Contact
		label string
	}{
		{"email", f.email, contact.Email, "Email"},
		{"phone_number", f.phone, contact.PhoneNumber, "Phone number"},
		{"identifier", f.identifier, contact.Identifier, "Identifier"},
	}
	for _, u := range unique {
		if u.value == nil || errs.Has(u.field) {
			continue
		}
		taken, err := c.Contact.Query().Where(u.pred(*u.value), contact.IDNEQ(selfID)).Exist(ctx)
		if err != nil {
			return f, err
		}
		if taken {
			errs.Add(u.field, u.label+" has already been taken")
		}
	}
	if err := errs.Err(); err != nil {
		return f, err
	}
	if in.CustomAttributes != nil {
		kept, err := s.DefinedAttributes(ctx, c, customattributedefinition.AttributeModelContactAttribute, in.CustomAttributes)
		if err != nil {
			return f, err
		}
		f.custom = kept
	}
	return f, nil
}

func blankToNil(v *string, normalize func(string) string) *string {
	if v == nil {
		return nil
	}
	n := normalize(*v)
	if n == "" {
		return nil
	}
	return &n
}

// DefinedAttributes keeps only the keys declared as custom attributes of the
// model in the account.
func (s *Service) DefinedAttributes(ctx context.Context, c *ent.Client, model customattributedefinition.AttributeModel, attrs map[string]any) (map[string]any, error) {
	keys, err := c.CustomAttributeDefinition.Query().
		Where(customattributedefinition.AttributeModelEQ(model)).
		Select(customattributedefinition.FieldAttributeKey).Strings(ctx)
	if err != nil {
		return nil, err
	}
	kept := make(map[string]any, len(attrs))
	for _, k := range keys {
		if v, ok := attrs[k]; ok {
			kept[k] = v
		}
	}
	return kept, nil
}

// Contact returns a contact with its contact inboxes and their inboxes.
func (s *Service) Contact(ctx context.Context, id int) (*ent.Contact, error) {
	return s.ContactShaped(ctx, id, nil)
}

// ContactShape chooses the edges loaded with a contact, in the same
// statement batch as the contact itself. GraphQL passes the fields the query
// asks for (CollectFields), so that each nested edge is one statement for
// all rows rather than one per row.
type ContactShape func(*ent.ContactQuery) (*ent.ContactQuery, error)

// ContactShaped is Contact with the edges chosen by shape (nil: the contact
// inboxes with their inboxes, as REST renders them).
func (s *Service) ContactShaped(ctx context.Context, id int, shape ContactShape) (*ent.Contact, error) {
	q := s.Client(ctx).Contact.Query().Where(contact.ID(id))
	if shape == nil {
		q = q.WithContactInboxes(withContactInboxes)
	} else {
		var err error
		if q, err = shape(q); err != nil {
			return nil, err
		}
	}
	ct, err := q.Only(ctx)
	if err != nil {
		return nil, core.NotFound(err, "Contact")
	}
	if shape == nil {
		err = s.attachInboxes(ctx, ct)
	}
	return ct, err
}

// withContactInboxes loads contact inboxes without their inboxes, which
// attachInboxes gives them: every contact shown names its inboxes, and
// inboxes change rarely, so they come from the inboxes' memory rather than
// a statement each read (docs/performance.md). Ordered by contact first, a
// page's contact inboxes come straight from the (contact_id, account_id)
// index, without a sort.
func withContactInboxes(q *ent.ContactInboxQuery) {
	q.Order(ent.Asc(contactinbox.FieldContactID), ent.Asc(contactinbox.FieldID))
}

// attachInboxes sets the inbox of each contact inbox of cts (loaded by
// withContactInboxes). One the viewer may not read stays unset, and is
// rendered without it.
func (s *Service) attachInboxes(ctx context.Context, cts ...*ent.Contact) error {
	var ids []int
	for _, ct := range cts {
		for _, ci := range ct.Edges.ContactInboxes {
			ids = append(ids, ci.InboxID)
		}
	}
	ibs, err := s.inboxesOf(ctx, s.Client(ctx), ids)
	if err != nil {
		return err
	}
	for _, ct := range cts {
		for _, ci := range ct.Edges.ContactInboxes {
			ci.Edges.Inbox = ibs[ci.InboxID]
		}
	}
	return nil
}

// DeleteContact deletes a contact with its conversations (administrators
// only, enforced by the contact policy).
func (s *Service) DeleteContact(ctx context.Context, id int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	return core.ApperrOrNil(core.NotFound(s.Client(ctx).Contact.DeleteOneID(id).Exec(ctx), "Contact"))
}

// EmitContactEvent tells the listeners of a change of contact ct.
func (s *Service) EmitContactEvent(ctx context.Context, c *ent.Client, kind events.Kind, ct *ent.Contact) error {
	ev := events.Event{AccountID: ct.AccountID, Kind: kind, ContactID: ct.ID}
	return s.Notify(ctx, c, core.Change{Event: ev, Payload: func() (map[string]any, error) {
		acc, err := c.Account.Get(core.AsOutbox(ctx, ct.AccountID), ct.AccountID)
		if err != nil {
			return nil, err
		}
		p := wire.Fields(wire.ContactBase(ct))
		p["account"] = map[string]any{"id": acc.ID, "name": acc.Name}
		return p, nil
	}})
}
