package conversations

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/attachment"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// CreateMessage posts a message (or a private note) in a conversation, with
// its attachments. (Incoming messages are for API inboxes only: see the
// Message hooks in ent/schema.)
func (s *Service) CreateMessage(ctx context.Context, displayID int, in MessageInput, files []core.Upload) (*ent.Message, error) {
	cv, err := s.conversationToWriteIn(ctx, displayID)
	if err != nil {
		return nil, err
	}
	if err := s.CheckUploads(files); err != nil {
		return nil, err
	}
	if err := validateMessage(in); err != nil {
		return nil, err
	}
	stored, err := s.StoreUploads(cv.AccountID, files)
	if err != nil {
		return nil, err
	}
	var m *ent.Message
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		m, err = s.AddMessage(ctx, c, cv, in, stored)
		return err
	})
	if err != nil {
		s.RemoveStored(stored)
		return nil, apperr.From(err)
	}
	// The message as the viewer saved it, with its attachments: reading it
	// back cost two statements and could only show a delivery that began
	// since the commit.
	for i, at := range m.Edges.Attachments {
		m.Edges.Attachments[i] = core.Detached(ctx, at)
	}
	return core.Detached(ctx, m), nil
}

// validateMessage checks a message's fields before anything is stored.
func validateMessage(in MessageInput) error {
	_, err := messageFields(in)
	return err
}

// DeleteMessage deletes a message of a conversation, with its files.
func (s *Service) DeleteMessage(ctx context.Context, displayID, messageID int) (*ent.Message, error) {
	cv, err := s.conversationToWriteIn(ctx, displayID)
	if err != nil {
		return nil, err
	}
	var m *ent.Message
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		m, err = c.Message.Query().Where(message.ID(messageID), message.ConversationID(cv.ID)).
			WithAttachments().Only(ctx)
		if err != nil {
			return core.NotFound(err, "Message")
		}
		return c.Message.DeleteOne(m).Exec(ctx)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	keys := make([]string, 0, len(m.Edges.Attachments))
	for _, a := range m.Edges.Attachments {
		keys = append(keys, a.StorageKey)
	}
	s.RemoveUnreferenced(ctx, keys)
	return m, nil
}

// Attachment returns an attachment the viewer may see.
func (s *Service) Attachment(ctx context.Context, id int) (*ent.Attachment, error) {
	// The attachment policy shows a file where its message or schedule is visible.
	a, err := s.Client(ctx).Attachment.Get(ctx, id)
	return a, core.ApperrOrNil(core.NotFound(err, "Attachment"))
}

// SignedAttachment returns an attachment for a download URL whose signature
// the transport has verified (no viewer: the signature is the permission).
func (s *Service) SignedAttachment(ctx context.Context, accountID, id int) (*ent.Attachment, error) {
	a, err := s.Client(ctx).Attachment.Query().
		Where(attachment.ID(id), attachment.AccountID(accountID)).Only(core.AsSignedLink(ctx, accountID))
	return a, core.ApperrOrNil(core.NotFound(err, "Attachment"))
}

// SignedURLLifetime is how long an attachment's data URL works without a
// token.
const SignedURLLifetime = 24 * time.Hour

// SignAttachment signs a download of an attachment for SignedURLLifetime:
// the signature stands in for the API token (see wire.AttachmentPath).
func (s *Service) SignAttachment(at *ent.Attachment) (exp time.Time, sig string) {
	exp = s.Now().Add(SignedURLLifetime)
	return exp, s.Files.Sign(at.ID, exp)
}
