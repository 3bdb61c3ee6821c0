package ops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/attachment"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/storage"
)

// Upload is a file sent with a message.
type Upload struct {
	Name        string
	ContentType string
	Size        int64
	Open        func() (io.ReadCloser, error)
}

// CreateMessage posts a message (or a private note) in a conversation, with
// its attachments. (Incoming messages are for API inboxes only: see the
// Message hooks in ent/schema.)
func (s *Service) CreateMessage(ctx context.Context, displayID int, in MessageInput, files []Upload) (*ent.Message, error) {
	cv, err := s.Conversation(ctx, displayID)
	if err != nil {
		return nil, err
	}
	if err := s.checkUploads(files); err != nil {
		return nil, err
	}
	if err := validateMessage(in); err != nil {
		return nil, err
	}
	stored, err := s.storeUploads(cv.AccountID, files)
	if err != nil {
		return nil, err
	}
	var id int
	err = s.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		m, err := s.addMessage(ctx, c, cv, in)
		if err != nil {
			return err
		}
		id = m.ID
		return createAttachments(ctx, c, stored, func(b *ent.AttachmentCreate) { b.SetMessageID(m.ID) })
	})
	if err != nil {
		s.removeStored(stored)
		return nil, apperr.From(err)
	}
	return s.Client(ctx).Message.Query().Where(message.ID(id)).WithAttachments().Only(ctx)
}

// validateMessage checks a message's fields before anything is stored.
func validateMessage(in MessageInput) error {
	_, err := messageFields(in)
	return err
}

type storedFile struct {
	name, contentType, key string
	size                   int64
}

func (s *Service) checkUploads(files []Upload) error {
	if len(files) == 0 {
		return nil
	}
	if s.storage == nil {
		return errors.New("no attachment storage configured")
	}
	if err := checkListLen("attachments", len(files), MaxAttachments); err != nil {
		return err
	}
	for _, f := range files {
		if f.Size > s.storage.MaxFileSize() {
			return apperr.Invalidf("attachments", "%s is %d bytes; the limit is %d bytes per file", storage.SafeName(f.Name), f.Size, s.storage.MaxFileSize())
		}
	}
	return nil
}

// storeUploads writes the files to storage; on any failure none stays.
func (s *Service) storeUploads(accountID int, files []Upload) ([]storedFile, error) {
	var out []storedFile
	for _, f := range files {
		sf, err := s.storeUpload(accountID, f)
		if err != nil {
			s.removeStored(out)
			return nil, err
		}
		out = append(out, sf)
	}
	return out, nil
}

func (s *Service) storeUpload(accountID int, f Upload) (storedFile, error) {
	// The name is kept for display and downloads only: reduced to a safe base
	// name once, here, for every transport.
	f.Name = storage.SafeName(f.Name)
	r, err := f.Open()
	if err != nil {
		return storedFile{}, fmt.Errorf("reading upload %s: %w", f.Name, err)
	}
	defer r.Close()
	key, size, err := s.storage.Save(accountID, f.Name, r)
	if errors.Is(err, storage.ErrTooLarge) {
		return storedFile{}, apperr.Invalidf("attachments", "%s is over the limit of %d bytes per file", f.Name, s.storage.MaxFileSize())
	}
	if err != nil {
		return storedFile{}, err
	}
	ct := f.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	return storedFile{name: f.Name, contentType: ct, key: key, size: size}, nil
}

// createAttachments records stored files as attachments of the owner that
// own sets (a message or a schedule).
func createAttachments(ctx context.Context, c *ent.Client, stored []storedFile, own func(*ent.AttachmentCreate)) error {
	if len(stored) == 0 {
		return nil
	}
	return c.Attachment.MapCreateBulk(stored, func(b *ent.AttachmentCreate, i int) {
		f := stored[i]
		own(b.SetFileName(f.name).SetContentType(f.contentType).
			SetFileSize(f.size).SetStorageKey(f.key).SetFileType(fileType(f.contentType)))
	}).Exec(ctx)
}

// removeUnreferenced deletes the stored files no attachment refers to any
// more: the messages a schedule posted share its files.
func (s *Service) removeUnreferenced(ctx context.Context, keys []string) {
	ctx = AsBackgroundWork(ctx)
	for _, k := range keys {
		used, err := s.client.Attachment.Query().Where(attachment.StorageKey(k)).Exist(ctx)
		if err == nil && !used {
			s.storage.Remove(k)
		}
	}
}

func (s *Service) removeStored(files []storedFile) {
	for _, f := range files {
		s.storage.Remove(f.key)
	}
}

// fileType is Chatwoot's attachment kind for a content type.
func fileType(contentType string) attachment.FileType {
	switch {
	case strings.HasPrefix(contentType, "image/"):
		return attachment.FileTypeImage
	case strings.HasPrefix(contentType, "audio/"):
		return attachment.FileTypeAudio
	case strings.HasPrefix(contentType, "video/"):
		return attachment.FileTypeVideo
	}
	return attachment.FileTypeFile
}

// DeleteMessage deletes a message of a conversation, with its files.
func (s *Service) DeleteMessage(ctx context.Context, displayID, messageID int) (*ent.Message, error) {
	cv, err := s.Conversation(ctx, displayID)
	if err != nil {
		return nil, err
	}
	var m *ent.Message
	err = s.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		m, err = c.Message.Query().Where(message.ID(messageID), message.ConversationID(cv.ID)).
			WithAttachments().Only(ctx)
		if err != nil {
			return notFound(err, "Message")
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
	s.removeUnreferenced(ctx, keys)
	return m, nil
}

// Attachment returns an attachment the viewer may see.
func (s *Service) Attachment(ctx context.Context, id int) (*ent.Attachment, error) {
	// The attachment policy shows a file where its message or schedule is visible.
	a, err := s.Client(ctx).Attachment.Get(ctx, id)
	return a, apperrOrNil(notFound(err, "Attachment"))
}

// SignedAttachment returns an attachment for a download URL whose signature
// the transport has verified (no viewer: the signature is the permission).
func (s *Service) SignedAttachment(ctx context.Context, accountID, id int) (*ent.Attachment, error) {
	a, err := s.Client(ctx).Attachment.Query().
		Where(attachment.ID(id), attachment.AccountID(accountID)).Only(asSignedLink(ctx, accountID))
	return a, apperrOrNil(notFound(err, "Attachment"))
}

// SignedURLLifetime is how long an attachment's data URL works without a
// token.
const SignedURLLifetime = 24 * time.Hour

// SignAttachment signs a download of an attachment for SignedURLLifetime:
// the signature stands in for the API token (see wire.AttachmentPath).
func (s *Service) SignAttachment(at *ent.Attachment) (exp time.Time, sig string) {
	exp = s.now().Add(SignedURLLifetime)
	return exp, s.storage.Sign(at.ID, exp)
}
