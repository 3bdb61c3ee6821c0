package contacts

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/internal/events"
)

// NewSenders is ContactForSender for many senders of inbox ib at once, for
// those the account has never heard from, set-based: one read of the
// inbox's contact inboxes by source id, one of the account's contacts by
// address, one INSERT of the new contacts and one of their contact inboxes,
// with the same hooks and events as one at a time. It answers, in the order
// of from, each new sender's contact inbox with its contact, or nil for a
// sender it leaves to ContactForSender: one the inbox knows by source id or
// the account by address, or one whose source id or address an earlier
// sender of from has too.
func (s *Service) NewSenders(ctx context.Context, c *ent.Client, ib *ent.Inbox, from []Sender) ([]*ent.ContactInbox, error) {
	seen, err := knownSenders(ctx, c, ib, from)
	if err != nil {
		return nil, err
	}
	var creates []*ent.ContactCreate
	var made []int // the indexes in from of the senders made here
	for i, f := range from {
		if !seen.addNew(f) {
			continue
		}
		creates = append(creates, s.senderContactCreate(c, f))
		made = append(made, i)
	}
	out := make([]*ent.ContactInbox, len(from))
	if len(creates) == 0 {
		return out, nil
	}
	cts, err := c.Contact.CreateBulk(creates...).Save(ctx)
	if err != nil {
		return nil, err
	}
	cis := make([]*ent.ContactInboxCreate, len(cts))
	for k, ct := range cts {
		if err := s.EmitContactEvent(ctx, c, events.ContactCreated, ct); err != nil {
			return nil, err
		}
		cis[k] = c.ContactInbox.Create().SetContactID(ct.ID).SetInboxID(ib.ID).SetSourceID(from[made[k]].SourceID)
	}
	saved, err := c.ContactInbox.CreateBulk(cis...).Save(ctx)
	if err != nil {
		return nil, err
	}
	for k, ci := range saved {
		ci.Edges.Contact = cts[k]
		out[made[k]] = ci
	}
	return out, nil
}

// senderKeys are the source ids and addresses of senders already known or
// already taken, each prefixed by what it is.
type senderKeys map[string]bool

// addNew adds the keys of f and says whether none of them was there.
func (k senderKeys) addNew(f Sender) bool {
	keys := senderKeysOf(f)
	for _, key := range keys {
		if k[key] {
			return false
		}
	}
	for _, key := range keys {
		k[key] = true
	}
	return true
}

func senderKeysOf(f Sender) []string {
	keys := []string{"source:" + f.SourceID}
	if phone := senderPhone(f); phone != "" {
		keys = append(keys, "phone:"+phone)
	}
	if email := senderEmail(f); email != "" {
		keys = append(keys, "email:"+email)
	}
	return keys
}

// knownSenders reads which of the senders' source ids inbox ib knows and
// which of their addresses the account's contacts have.
func knownSenders(ctx context.Context, c *ent.Client, ib *ent.Inbox, from []Sender) (senderKeys, error) {
	var sids, phones, emails []string
	for _, f := range from {
		sids = append(sids, f.SourceID)
		if phone := senderPhone(f); phone != "" {
			phones = append(phones, phone)
		}
		if email := senderEmail(f); email != "" {
			emails = append(emails, email)
		}
	}
	known := senderKeys{}
	taken, err := c.ContactInbox.Query().Where(contactinbox.InboxID(ib.ID), contactinbox.SourceIDIn(sids...)).
		Select(contactinbox.FieldSourceID).Strings(ctx)
	if err != nil {
		return nil, err
	}
	for _, sid := range taken {
		known["source:"+sid] = true
	}
	var byAddress []predicate.Contact
	if len(phones) > 0 {
		byAddress = append(byAddress, contact.PhoneNumberIn(phones...))
	}
	if len(emails) > 0 {
		byAddress = append(byAddress, contact.EmailIn(emails...))
	}
	if len(byAddress) == 0 {
		return known, nil
	}
	cts, err := c.Contact.Query().Where(contact.Or(byAddress...)).
		Select(contact.FieldPhoneNumber, contact.FieldEmail).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, ct := range cts {
		if ct.PhoneNumber != nil {
			known["phone:"+*ct.PhoneNumber] = true
		}
		if ct.Email != nil {
			known["email:"+*ct.Email] = true
		}
	}
	return known, nil
}
