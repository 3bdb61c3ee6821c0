package contacts

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// MergeContacts moves the mergee's conversations, contact inboxes and labels
// to the base contact, fills the base's empty fields from the mergee, and
// deletes the mergee.
func (s *Service) MergeContacts(ctx context.Context, baseID, mergeeID *int) (*ent.Contact, error) {
	var errs core.FieldErrors
	if baseID == nil {
		errs.Add("base_contact_id", "Base contact id can't be blank")
	}
	if mergeeID == nil {
		errs.Add("mergee_contact_id", "Mergee contact id can't be blank")
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	if *baseID == *mergeeID {
		return nil, apperr.Invalid("A contact cannot be merged into itself", "mergee_contact_id")
	}
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		base, err := c.Contact.Get(ctx, *baseID)
		if err != nil {
			return core.NotFound(err, "Contact")
		}
		mergee, err := c.Contact.Get(ctx, *mergeeID)
		if err != nil {
			return core.NotFound(err, "Contact")
		}
		merging := core.AsContactMerge(ctx, base.AccountID)
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
		SetLabels(CleanLabels(append(append([]string{}, base.Labels...), mergee.Labels...))).
		SetAdditionalAttributes(core.MergeAttributes(mergee.AdditionalAttributes, base.AdditionalAttributes)).
		SetCustomAttributes(core.MergeAttributes(mergee.CustomAttributes, base.CustomAttributes))
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
