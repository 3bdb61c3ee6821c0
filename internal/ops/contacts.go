package ops

import (
	"context"
	"strings"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"
	"github.com/google/uuid"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/customattributedefinition"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/events"
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
	err := s.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
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
			SetNillableAvatarURL(in.AvatarURL).SetLastActivityAt(s.now())
		if in.AdditionalAttributes != nil {
			create.SetAdditionalAttributes(mergeAttributes(nil, in.AdditionalAttributes))
		}
		if f.custom != nil {
			create.SetCustomAttributes(mergeAttributes(nil, f.custom))
		}
		ct, err := create.Save(ctx)
		if err != nil {
			return err
		}
		ci, err := s.attachInbox(ctx, c, ct, ib, in.SourceID)
		if err != nil {
			return err
		}
		out = CreatedContact{Contact: ct, ContactInbox: ci}
		return s.emitContactEvent(ctx, c, events.ContactCreated, ct)
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
	out := &CreatedContact{Contact: ct}
	for _, ci := range ct.Edges.ContactInboxes {
		if ci.ID == made.ContactInbox.ID {
			out.ContactInbox = ci
		}
	}
	return out, nil
}

// UpdateContact changes the sent fields of a contact.
func (s *Service) UpdateContact(ctx context.Context, id int, in ContactInput) (*ent.Contact, error) {
	err := s.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		ct, err := c.Contact.Get(ctx, id)
		if err != nil {
			return notFound(err, "Contact")
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
			upd.SetAdditionalAttributes(mergeAttributes(ct.AdditionalAttributes, in.AdditionalAttributes))
		}
		if f.custom != nil {
			upd.SetCustomAttributes(mergeAttributes(ct.CustomAttributes, f.custom))
		}
		ct, err = upd.Save(ctx)
		if err != nil {
			return err
		}
		return s.emitContactEvent(ctx, c, events.ContactUpdated, ct)
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
	var errs fieldErrors
	if in.Name != nil {
		n := strings.TrimSpace(*in.Name)
		f.name = &n
	}
	f.email = blankToNil(in.Email, normalizeEmail)
	if f.email != nil && !validEmail(*f.email) {
		errs.add("email", "Email is invalid")
	}
	f.phone = blankToNil(in.PhoneNumber, strings.TrimSpace)
	if f.phone != nil && !validPhone(*f.phone) {
		errs.add("phone_number", "Phone number should be in e164 format (a + and up to 15 digits)")
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
		if u.value == nil || containsString(errs.fields, u.field) {
			continue
		}
		taken, err := c.Contact.Query().Where(u.pred(*u.value), contact.IDNEQ(selfID)).Exist(ctx)
		if err != nil {
			return f, err
		}
		if taken {
			errs.add(u.field, u.label+" has already been taken")
		}
	}
	if err := errs.err(); err != nil {
		return f, err
	}
	if in.CustomAttributes != nil {
		kept, err := s.definedAttributes(ctx, c, customattributedefinition.AttributeModelContactAttribute, in.CustomAttributes)
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

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// definedAttributes keeps only the keys declared as custom attributes of the
// model in the account.
func (s *Service) definedAttributes(ctx context.Context, c *ent.Client, model customattributedefinition.AttributeModel, attrs map[string]any) (map[string]any, error) {
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

// mergeAttributes merges update into base (a nil value removes the key), as
// Chatwoot merges attribute hashes on update.
func mergeAttributes(base, update map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(update))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range update {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

// attachInbox links a contact to an inbox under sourceID, or under the id the
// channel generates when none is given.
func (s *Service) attachInbox(ctx context.Context, c *ent.Client, ct *ent.Contact, ib *ent.Inbox, sourceID *string) (*ent.ContactInbox, error) {
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
	if taken {
		return nil, apperr.Invalid("Source id has already been taken in this inbox", "source_id")
	}
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
		q = q.WithContactInboxes(withInbox)
	} else {
		var err error
		if q, err = shape(q); err != nil {
			return nil, err
		}
	}
	ct, err := q.Only(ctx)
	return ct, notFound(err, "Contact")
}

// withInbox loads contact inboxes with their inbox, each contact's by id.
// Ordered by contact first, a page's contact inboxes come straight from the
// (contact_id, account_id) index, without a sort.
func withInbox(q *ent.ContactInboxQuery) {
	q.WithInbox().Order(ent.Asc(contactinbox.FieldContactID), ent.Asc(contactinbox.FieldID))
}

// DeleteContact deletes a contact with its conversations (administrators
// only, enforced by the contact policy).
func (s *Service) DeleteContact(ctx context.Context, id int) error {
	if err := requireAdmin(ctx); err != nil {
		return err
	}
	return apperrOrNil(notFound(s.Client(ctx).Contact.DeleteOneID(id).Exec(ctx), "Contact"))
}

// ContactListParams selects and orders a page of contacts.
type ContactListParams struct {
	Sort   string
	Page   int
	Labels []string
}

var contactSorts = map[string]func(...sql.OrderTermOption) contact.OrderOption{
	"name":             contact.ByName,
	"email":            contact.ByEmail,
	"phone_number":     contact.ByPhoneNumber,
	"last_activity_at": contact.ByLastActivityAt,
	"created_at":       contact.ByCreatedAt,
}

// contactOrder parses Chatwoot's sort parameter ("name", "-last_activity_at").
// The default is most recent activity first; ties go by id so pages are stable.
func contactOrder(sort string) ([]contact.OrderOption, error) {
	if sort == "" {
		sort = "-last_activity_at"
	}
	desc := strings.HasPrefix(sort, "-")
	by, ok := contactSorts[strings.TrimPrefix(sort, "-")]
	if !ok {
		return nil, apperr.Invalidf("sort", "Unknown sort %q: use name, email, phone_number, last_activity_at or created_at, with - for descending", sort)
	}
	dir := sql.OrderAsc()
	if desc {
		dir = sql.OrderDesc()
	}
	return []contact.OrderOption{by(dir, sql.OrderNullsLast()), contact.ByID(dir)}, nil
}

// ListContacts returns a page of the account's contacts; with Labels, those
// having any of them (Chatwoot's tagged_with(labels, any: true)).
func (s *Service) ListContacts(ctx context.Context, p ContactListParams) (*Page[*ent.Contact], error) {
	var preds []predicate.Contact
	if len(p.Labels) > 0 {
		anyLabel := make([]predicate.Contact, 0, len(p.Labels))
		for _, l := range p.Labels {
			anyLabel = append(anyLabel, hasLabel(l))
		}
		preds = append(preds, contact.Or(anyLabel...))
	}
	return s.contactPage(ctx, preds, p.Sort, p.Page)
}

func hasLabel(label string) predicate.Contact {
	return func(s *sql.Selector) {
		s.Where(sqljson.ValueContains(s.C(contact.FieldLabels), label))
	}
}

func (s *Service) contactPage(ctx context.Context, preds []predicate.Contact, sort string, page int) (*Page[*ent.Contact], error) {
	order, err := contactOrder(sort)
	if err != nil {
		return nil, err
	}
	if page < 1 {
		page = 1
	}
	q := s.Client(ctx).Contact.Query().Where(preds...)
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	items, err := q.Order(order...).Offset(pageOffset(page, ContactsPerPage)).Limit(ContactsPerPage).
		WithContactInboxes(withInbox).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	return &Page[*ent.Contact]{
		Items: items, Total: total, Page: page,
		HasMore: pageOffset(page, ContactsPerPage)+len(items) < total,
	}, nil
}

// ContactConversations returns a contact's latest 20 conversations.
func (s *Service) ContactConversations(ctx context.Context, id int) ([]*ent.Conversation, error) {
	if _, err := s.Client(ctx).Contact.Get(ctx, id); err != nil {
		return nil, apperr.From(notFound(err, "Contact"))
	}
	convs, err := s.Client(ctx).Conversation.Query().Where(conversation.ContactID(id)).
		Order(ent.Desc(conversation.FieldLastActivityAt), ent.Desc(conversation.FieldID)).
		Limit(20).WithContact().WithInbox().All(ctx)
	return convs, apperrOrNil(err)
}

// AddContactInbox makes a contact reachable through another inbox; each
// association gets its own source id.
func (s *Service) AddContactInbox(ctx context.Context, contactID int, inboxID *int, sourceID *string) (*ent.ContactInbox, error) {
	if inboxID == nil {
		return nil, apperr.Invalid("Inbox can't be blank: inbox_id is required", "inbox_id")
	}
	var ci *ent.ContactInbox
	err := s.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		ct, err := c.Contact.Get(ctx, contactID)
		if err != nil {
			return notFound(err, "Contact")
		}
		ib, err := c.Inbox.Get(ctx, *inboxID)
		if ent.IsNotFound(err) {
			return apperr.Invalidf("inbox_id", "Inbox %d does not exist in this account", *inboxID)
		}
		if err != nil {
			return err
		}
		ci, err = s.attachInbox(ctx, c, ct, ib, sourceID)
		return err
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	// Read back outside the committed transaction, so edges can be followed.
	ci, err = s.Client(ctx).ContactInbox.Query().Where(contactinbox.ID(ci.ID)).WithInbox().Only(ctx)
	return ci, apperrOrNil(err)
}

// Reachable is an inbox through which a contact can be reached, with the
// source id it has (or would get) there.
type Reachable struct {
	Inbox    *ent.Inbox
	SourceID string
}

// ContactableInboxes lists the inboxes that can reach a contact: those it is
// already linked to, plus channels its details allow (e-mail, phone, API).
func (s *Service) ContactableInboxes(ctx context.Context, contactID int) ([]Reachable, error) {
	ct, err := s.Contact(ctx, contactID)
	if err != nil {
		return nil, apperr.From(err)
	}
	inboxes, err := s.Client(ctx).Inbox.Query().Order(ent.Asc(inbox.FieldID)).All(ctx)
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

// ContactLabels returns a contact's labels.
func (s *Service) ContactLabels(ctx context.Context, id int) ([]string, error) {
	ct, err := s.Client(ctx).Contact.Get(ctx, id)
	if err != nil {
		return nil, apperr.From(notFound(err, "Contact"))
	}
	return ct.Labels, nil
}

// SetContactLabels replaces a contact's labels with labels (any strings, as
// Chatwoot accepts; blanks and repeats dropped).
func (s *Service) SetContactLabels(ctx context.Context, id int, labels []string) ([]string, error) {
	clean := cleanLabels(labels)
	ct, err := s.Client(ctx).Contact.UpdateOneID(id).SetLabels(clean).Save(ctx)
	if err != nil {
		return nil, apperr.From(notFound(err, "Contact"))
	}
	return ct.Labels, nil
}

func cleanLabels(labels []string) []string {
	out := make([]string, 0, len(labels))
	seen := map[string]bool{}
	for _, l := range labels {
		l = strings.TrimSpace(l)
		if l == "" || seen[l] {
			continue
		}
		seen[l] = true
		out = append(out, l)
	}
	return out
}

// MergeContacts moves the mergee's conversations, contact inboxes and labels
// to the base contact, fills the base's empty fields from the mergee, and
// deletes the mergee.
func (s *Service) MergeContacts(ctx context.Context, baseID, mergeeID *int) (*ent.Contact, error) {
	var errs fieldErrors
	if baseID == nil {
		errs.add("base_contact_id", "Base contact id can't be blank")
	}
	if mergeeID == nil {
		errs.add("mergee_contact_id", "Mergee contact id can't be blank")
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	if *baseID == *mergeeID {
		return nil, apperr.Invalid("A contact cannot be merged into itself", "mergee_contact_id")
	}
	err := s.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		base, err := c.Contact.Get(ctx, *baseID)
		if err != nil {
			return notFound(err, "Contact")
		}
		mergee, err := c.Contact.Get(ctx, *mergeeID)
		if err != nil {
			return notFound(err, "Contact")
		}
		merging := asContactMerge(ctx, base.AccountID)
		if err := moveContactChildren(merging, c, mergee.ID, base.ID); err != nil {
			return err
		}
		// The mergee goes first: its e-mail, phone and identifier are unique
		// and may be about to fill the base's empty fields.
		if err := c.Contact.DeleteOneID(mergee.ID).Exec(merging); err != nil {
			return err
		}
		return fillFromMergee(ctx, base, mergee)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Contact(ctx, *baseID)
}

func moveContactChildren(ctx context.Context, c *ent.Client, from, to int) error {
	if _, err := c.Conversation.Update().Where(conversation.ContactID(from)).SetContactID(to).Save(ctx); err != nil {
		return err
	}
	// The mergee's schedules would go with it (cascade): they are the base's now.
	if _, err := c.ScheduledMessage.Update().Where(scheduledmessage.ContactID(from)).SetContactID(to).Save(ctx); err != nil {
		return err
	}
	_, err := c.ContactInbox.Update().Where(contactinbox.ContactID(from)).SetContactID(to).Save(ctx)
	return err
}

func fillFromMergee(ctx context.Context, base, mergee *ent.Contact) error {
	upd := base.Update().
		SetLabels(cleanLabels(append(append([]string{}, base.Labels...), mergee.Labels...))).
		SetAdditionalAttributes(mergeAttributes(mergee.AdditionalAttributes, base.AdditionalAttributes)).
		SetCustomAttributes(mergeAttributes(mergee.CustomAttributes, base.CustomAttributes))
	if base.Name == "" {
		upd.SetName(mergee.Name)
	}
	if base.Email == nil {
		upd.SetNillableEmail(mergee.Email)
	}
	if base.PhoneNumber == nil {
		upd.SetNillablePhoneNumber(mergee.PhoneNumber)
	}
	if base.Identifier == nil {
		upd.SetNillableIdentifier(mergee.Identifier)
	}
	if base.AvatarURL == "" {
		upd.SetAvatarURL(mergee.AvatarURL)
	}
	if mergee.LastActivityAt != nil && (base.LastActivityAt == nil || mergee.LastActivityAt.After(*base.LastActivityAt)) {
		upd.SetLastActivityAt(*mergee.LastActivityAt)
	}
	_, err := upd.Save(ctx)
	return err
}
