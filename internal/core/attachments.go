package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/attachment"
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

// StoredFile is an upload saved in the store, not yet an attachment row.
type StoredFile struct {
	name, contentType, key string
	size                   int64
}

// CheckUploads refuses, before anything is stored, more files than a
// message takes or a file over the store's limit.
func (s *Core) CheckUploads(files []Upload) error {
	if len(files) == 0 {
		return nil
	}
	if s.Files == nil {
		return errors.New("no attachment storage configured")
	}
	if err := CheckListLen("attachments", len(files), MaxAttachments); err != nil {
		return err
	}
	for _, f := range files {
		if f.Size > s.Files.MaxFileSize() {
			return apperr.Invalidf("attachments", "%s is %d bytes; the limit is %d bytes per file", storage.SafeName(f.Name), f.Size, s.Files.MaxFileSize())
		}
	}
	return nil
}

// StoreUploads writes the files to storage; on any failure none stays.
func (s *Core) StoreUploads(accountID int, files []Upload) ([]StoredFile, error) {
	var out []StoredFile
	for _, f := range files {
		sf, err := s.storeUpload(accountID, f)
		if err != nil {
			s.RemoveStored(out)
			return nil, err
		}
		out = append(out, sf)
	}
	return out, nil
}

func (s *Core) storeUpload(accountID int, f Upload) (StoredFile, error) {
	// The name is kept for display and downloads only: reduced to a safe base
	// name once, here, for every transport.
	f.Name = storage.SafeName(f.Name)
	r, err := f.Open()
	if err != nil {
		return StoredFile{}, fmt.Errorf("reading upload %s: %w", f.Name, err)
	}
	defer r.Close()
	key, size, err := s.Files.Save(accountID, f.Name, r)
	if errors.Is(err, storage.ErrTooLarge) {
		return StoredFile{}, apperr.Invalidf("attachments", "%s is over the limit of %d bytes per file", f.Name, s.Files.MaxFileSize())
	}
	if err != nil {
		return StoredFile{}, err
	}
	ct := f.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	return StoredFile{name: f.Name, contentType: ct, key: key, size: size}, nil
}

// CreateAttachments records stored files as attachments of the owner that
// own sets (a message or a schedule) and returns them.
func CreateAttachments(ctx context.Context, c *ent.Client, stored []StoredFile, own func(*ent.AttachmentCreate)) ([]*ent.Attachment, error) {
	if len(stored) == 0 {
		return nil, nil
	}
	return c.Attachment.MapCreateBulk(stored, func(b *ent.AttachmentCreate, i int) {
		f := stored[i]
		own(b.SetFileName(f.name).SetContentType(f.contentType).
			SetFileSize(f.size).SetStorageKey(f.key).SetFileType(fileType(f.contentType)))
	}).Save(ctx)
}

// RemoveUnreferenced deletes the stored files no attachment refers to any
// more: the messages a schedule posted share its files.
func (s *Core) RemoveUnreferenced(ctx context.Context, keys []string) {
	ctx = AsBackgroundWork(ctx)
	for _, k := range keys {
		used, err := s.DB.Attachment.Query().Where(attachment.StorageKey(k)).Exist(ctx)
		if err == nil && !used {
			s.Files.Remove(k)
		}
	}
}

// RemoveStored deletes files stored for a change that did not commit.
func (s *Core) RemoveStored(files []StoredFile) {
	for _, f := range files {
		s.Files.Remove(f.key)
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

// StoredFilesOf is the stored files of atts, to attach to another owner (a
// message a schedule posts): new attachment rows on the same files, which
// stay while any row refers to them.
func StoredFilesOf(atts []*ent.Attachment) []StoredFile {
	files := make([]StoredFile, 0, len(atts))
	for _, a := range atts {
		files = append(files, StoredFile{name: a.FileName, contentType: a.ContentType, key: a.StorageKey, size: a.FileSize})
	}
	return files
}
