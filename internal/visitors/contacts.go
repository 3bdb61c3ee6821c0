package visitors

import (
	"context"
	"net/url"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/viewer"
)

// ContactInput is what a visitor says of themselves; nil was not sent.
type ContactInput struct {
	// SourceID is the contact identifier to use (create only; default a
	// new UUID).
	SourceID         *string
	Name             *string
	Email            *string
	PhoneNumber      *string
	AvatarURL        *string
	CustomAttributes map[string]any
	Identity
}

// Created is a new visitor and their pubsub token, the credential of
// their live socket, which is shown this once (only its hash is kept).
type Created struct {
	*Visitor
	PubsubToken string
}

// CreateVisitor makes a visitor of the inbox named by inboxID: a new
// contact (or, when identifier_hash proves the identifier, the contact
// that already has it) reachable through a new contact inbox. An
// identifier is kept only when proven: anyone can claim one.
func (s *Service) CreateVisitor(ctx context.Context, inboxID string, in ContactInput) (*Created, error) {
	ib, err := s.PublicInbox(ctx, inboxID)
	if err != nil {
		return nil, err
	}
	verified, err := verify(ib, in.Identity)
	if err != nil {
		return nil, err
	}
	if err := checkAvatar(in.AvatarURL); err != nil {
		return nil, err
	}
	token, hash := core.NewToken()
	var sourceID string
	err = s.InTx(core.AsChannel(ctx, ib.AccountID), func(ctx context.Context, c *ent.Client) error {
		ci, err := s.newContactInbox(ctx, c, ib, in, verified)
		if err != nil {
			return err
		}
		sourceID = ci.SourceID
		return c.ContactInbox.UpdateOneID(ci.ID).SetPubsubTokenHash(hash).SetHmacVerified(verified).Exec(ctx)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	v, err := s.load(viewer.VisitorContext(ctx, ib.AccountID, ib.ID, sourceID), ib)
	if err != nil {
		return nil, err
	}
	return &Created{Visitor: v, PubsubToken: token}, nil
}

// newContactInbox links the proven identifier's contact to the inbox, or
// creates the visitor's contact with it.
func (s *Service) newContactInbox(ctx context.Context, c *ent.Client, ib *ent.Inbox, in ContactInput, verified bool) (*ent.ContactInbox, error) {
	var identifier *string
	if verified {
		id := strings.TrimSpace(*in.Identifier)
		identifier = &id
		known, err := c.Contact.Query().Where(contact.Identifier(id)).Only(ctx)
		if err == nil {
			return s.contacts.AttachInbox(ctx, c, known, ib, in.SourceID)
		}
		if !ent.IsNotFound(err) {
			return nil, err
		}
	}
	made, err := s.contacts.CreateContact(ctx, contacts.ContactInput{
		InboxID: &ib.ID, SourceID: in.SourceID, Name: in.Name, Email: in.Email, PhoneNumber: in.PhoneNumber,
		Identifier: identifier, AvatarURL: in.AvatarURL, CustomAttributes: in.CustomAttributes,
	})
	if err != nil {
		return nil, err
	}
	return made.ContactInbox, nil
}

// UpdateVisitor is Chatwoot's identify: the visitor's name, e-mail, phone,
// avatar and custom attributes; with a proven identifier, the identifier
// too, and the visitor becomes verified. When another contact of the
// account already holds the proven identifier, the visitor's contact is
// merged into it (the same person on another device).
func (s *Service) UpdateVisitor(ctx context.Context, k Key, in ContactInput) (*Visitor, error) {
	ctx, v, err := s.find(ctx, k)
	if err != nil {
		return nil, err
	}
	verified, err := verify(v.Inbox, in.Identity)
	if err != nil {
		return nil, err
	}
	if err := checkAvatar(in.AvatarURL); err != nil {
		return nil, err
	}
	err = s.InTx(asChannel(ctx, v), func(ctx context.Context, c *ent.Client) error {
		contactID, err := s.identify(ctx, c, v, in, verified)
		if err != nil {
			return err
		}
		upd := contacts.ContactInput{Name: in.Name, Email: in.Email, PhoneNumber: in.PhoneNumber,
			AvatarURL: in.AvatarURL, CustomAttributes: in.CustomAttributes}
		if verified {
			upd.Identifier = in.Identifier
		}
		if _, err := s.contacts.UpdateContact(ctx, contactID, upd); err != nil {
			return err
		}
		if !verified {
			return nil
		}
		return c.ContactInbox.UpdateOneID(v.ContactInbox.ID).SetHmacVerified(true).Exec(ctx)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.load(ctx, v.Inbox)
}

// identify is the contact the visitor is after an update: another contact
// that holds the proven identifier absorbs the visitor's; otherwise the
// visitor's own.
func (s *Service) identify(ctx context.Context, c *ent.Client, v *Visitor, in ContactInput, verified bool) (int, error) {
	own := v.ContactInbox.ContactID
	if !verified {
		return own, nil
	}
	holder, err := c.Contact.Query().
		Where(contact.Identifier(strings.TrimSpace(*in.Identifier)), contact.IDNEQ(own)).Only(ctx)
	if ent.IsNotFound(err) {
		return own, nil
	}
	if err != nil {
		return 0, err
	}
	if _, err := s.contacts.MergeContacts(ctx, &holder.ID, &own); err != nil {
		return 0, err
	}
	return holder.ID, nil
}

// checkAvatar refuses an avatar URL that is not http(s): agents' pages
// show it.
func checkAvatar(u *string) error {
	if u == nil || *u == "" {
		return nil
	}
	p, err := url.Parse(*u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return apperr.Invalid("Avatar url must be an http(s) URL", "avatar_url")
	}
	return nil
}
