package rest

import (
	"io"
	"mime/multipart"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/wire"
)

func (a *API) listMessages(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Conversation")
	if err != nil {
		return err
	}
	before, err := optionalQueryInt(c, "before")
	if err != nil {
		return err
	}
	after, err := optionalQueryInt(c, "after")
	if err != nil {
		return err
	}
	p, err := a.svc.Messages(c.UserContext(), id, before, after)
	if err != nil {
		return err
	}
	payload := make([]wire.MessageJSON, 0, len(p.Messages))
	for _, m := range p.Messages {
		payload = append(payload, a.messageWithFiles(c, m, p.Conversation.DisplayID))
	}
	cv := p.Conversation
	meta := H{
		"labels":                wire.OrEmpty(cv.Labels),
		"additional_attributes": wire.OrEmptyMap(cv.AdditionalAttributes),
		"agent_last_seen_at":    wire.TimePtr(cv.AgentLastSeenAt),
		"assignee_last_seen_at": nil,
	}
	if cv.Edges.Contact != nil {
		meta["contact"] = wire.ContactBase(cv.Edges.Contact)
	}
	return c.JSON(H{"meta": meta, "payload": payload})
}

func optionalQueryInt(c *fiber.Ctx, name string) (*int, error) {
	if strings.TrimSpace(c.Query(name)) == "" {
		return nil, nil
	}
	n, err := queryInt(c, name, 0)
	return &n, err
}

func (a *API) createMessage(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Conversation")
	if err != nil {
		return err
	}
	var req messageRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	files, err := uploads(c)
	if err != nil {
		return err
	}
	m, err := a.svc.CreateMessage(c.UserContext(), id, *req.input(), files)
	if err != nil {
		return err
	}
	return c.JSON(a.messageWithFiles(c, m, id))
}

// uploads reads the attachments[] files of a multipart request.
func uploads(c *fiber.Ctx) ([]core.Upload, error) {
	if !strings.HasPrefix(strings.ToLower(c.Get(fiber.HeaderContentType)), fiber.MIMEMultipartForm) {
		return nil, nil
	}
	form, err := c.MultipartForm()
	if err != nil {
		return nil, apperr.BadRequest("Malformed multipart body: %v", err)
	}
	var out []core.Upload
	for _, key := range []string{"attachments[]", "attachments"} {
		for _, fh := range form.File[key] {
			out = append(out, uploadOf(fh))
		}
	}
	return out, nil
}

func uploadOf(fh *multipart.FileHeader) core.Upload {
	return core.Upload{
		Name: fh.Filename, ContentType: fh.Header.Get("Content-Type"), Size: fh.Size,
		Open: func() (io.ReadCloser, error) { return fh.Open() },
	}
}

func (a *API) deleteMessage(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Conversation")
	if err != nil {
		return err
	}
	mid, err := pathID(c, "message_id", "Message")
	if err != nil {
		return err
	}
	m, err := a.svc.DeleteMessage(c.UserContext(), id, mid)
	if err != nil {
		return err
	}
	h := wire.Message(m, id)
	h.ContentAttributes = H{"deleted": true}
	return c.JSON(h)
}

// messageWithFiles is a message with its attachments, whose data_url
// carries a short-lived signature so a browser can open it without a token.
func (a *API) messageWithFiles(c *fiber.Ctx, m *ent.Message, displayID int) wire.MessageJSON {
	h := wire.Message(m, displayID)
	if len(m.Edges.Attachments) > 0 {
		atts := make([]H, 0, len(m.Edges.Attachments))
		for _, at := range m.Edges.Attachments {
			atts = append(atts, a.attachmentJSON(c, at))
		}
		h.Attachments = atts
	}
	return h
}

func (a *API) attachmentJSON(c *fiber.Ctx, at *ent.Attachment) H {
	return a.attachmentAt(c.BaseURL(), at)
}

// attachmentAt is an attachment with its data_url signed, under the base
// URL the client reached the server at.
func (a *API) attachmentAt(base string, at *ent.Attachment) H {
	exp, sig := a.svc.SignAttachment(at)
	url := base + wire.AttachmentPath(at, exp, sig)
	return H{
		"id":           at.ID,
		"message_id":   wire.IntPtr(at.MessageID),
		"account_id":   at.AccountID,
		"file_type":    string(at.FileType),
		"content_type": at.ContentType,
		"file_name":    at.FileName,
		"extension":    strings.TrimPrefix(filepath.Ext(at.FileName), "."),
		"file_size":    at.FileSize,
		"data_url":     url,
		"thumb_url":    "",
	}
}

// downloadAttachment serves a file to a caller holding either a valid
// signature (exp, sig) or the API token.
func (a *API) downloadAttachment(c *fiber.Ctx) error {
	accountID, err := pathID(c, "account_id", "Account")
	if err != nil {
		return err
	}
	id, err := pathID(c, "id", "Attachment")
	if err != nil {
		return err
	}
	var at *ent.Attachment
	if sig := c.Query("sig"); sig != "" {
		exp, _ := strconv.ParseInt(c.Query("exp"), 10, 64)
		if !a.svc.Storage().Verify(id, exp, sig, time.Now()) {
			return apperr.Forbidden("The download link is invalid or has expired")
		}
		at, err = a.svc.SignedAttachment(c.UserContext(), accountID, id)
	} else {
		if err := authenticate(c, a.svc); err != nil {
			return err
		}
		at, err = a.svc.Attachment(c.UserContext(), id)
	}
	if err != nil {
		return err
	}
	return sendUpload(c, a.svc.Storage().Path(at.StorageKey), at.FileName, at.ContentType)
}
