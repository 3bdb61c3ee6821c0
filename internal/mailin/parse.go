// Package mailin receives the mail of e-mail inboxes that have IMAP
// settings: a fetcher per inbox keeps a connection to the mailbox (IDLE
// where the server offers it, polling otherwise), parses each new mail and
// stores it through conversations.Service.Receive, which threads it and
// stores it once (the mail's Message-ID is the message's source id).
package mailin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"time"

	"github.com/emersion/go-message"
	// Mail in ISO-8859-*, Windows-125x, Shift JIS and the like is decoded to
	// UTF-8 (go-message knows only UTF-8 and US-ASCII by itself).
	_ "github.com/emersion/go-message/charset"
	"github.com/emersion/go-message/mail"

	"github.com/switchboard/switchboard/internal/core"
)

// Bounds of what one mail puts in a message: its content_attributes are a
// JSON object capped by the schema (64 KiB), so lists and header values are
// cut well below that.
const (
	maxAddresses   = 50
	maxHeaderRunes = 998 // RFC 5322's line limit
	maxReferences  = 50
	maxSourceID    = 255 // the messages.source_id column
)

// Mail is what the service keeps of one e-mail.
type Mail struct {
	// SourceID identifies the mail across fetches and instances: its
	// Message-ID, or a hash of its header when it has none.
	SourceID    string
	MessageID   string
	FromName    string
	FromAddress string
	To, CC      []string
	Subject     string
	Date        time.Time
	InReplyTo   string
	// References lists the thread's Message-IDs, oldest first.
	References []string
	// Text is the reply: the text part (or the HTML one as text) with the
	// quoted history and the signature trimmed.
	Text  string
	Files []core.Upload
	// Skipped names the attachments that were over a limit.
	Skipped []string
}

// Limits bound the files one mail may carry.
type Limits struct {
	MaxFiles    int
	MaxFileSize int64
}

// ErrNoSender is a mail without a usable From address: there is no one to
// make a contact of.
var ErrNoSender = errors.New("the mail has no valid From address")

// Parse reads a raw RFC 5322 mail.
func Parse(raw []byte, lim Limits) (*Mail, error) {
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil && !message.IsUnknownCharset(err) {
		return nil, fmt.Errorf("reading the mail: %w", err)
	}
	defer r.Close()
	m := &Mail{}
	if err := m.readHeader(r.Header, raw); err != nil {
		return nil, err
	}
	var body bodyParts
	if err := body.read(r, lim); err != nil {
		return nil, err
	}
	m.Files, m.Skipped = body.files, body.skipped
	m.Text = Reply(body.text())
	return m, nil
}

func (m *Mail) readHeader(h mail.Header, raw []byte) error {
	from, _ := h.AddressList("From")
	if len(from) == 0 || !core.ValidEmail(core.NormalizeEmail(from[0].Address)) {
		return ErrNoSender
	}
	m.FromName = clip(from[0].Name, maxHeaderRunes)
	m.FromAddress = core.NormalizeEmail(from[0].Address)
	m.To = addresses(h, "To")
	m.CC = addresses(h, "Cc")
	subject, _ := h.Subject()
	m.Subject = clip(subject, maxHeaderRunes)
	m.Date, _ = h.Date()
	m.MessageID, _ = h.MessageID()
	m.MessageID = clip(m.MessageID, maxHeaderRunes)
	if ids, _ := h.MsgIDList("In-Reply-To"); len(ids) > 0 {
		m.InReplyTo = clip(ids[0], maxHeaderRunes)
	}
	refs, _ := h.MsgIDList("References")
	if len(refs) > maxReferences {
		refs = refs[len(refs)-maxReferences:] // the newest count for threading
	}
	m.References = refs
	m.SourceID = sourceID(m.MessageID, raw)
	return nil
}

// sourceID is the Message-ID, or, for a mail without one (or one too long
// for the column), a hash that is the same at every fetch of the mail: of
// its whole header, which servers hand out byte for byte as stored.
func sourceID(messageID string, raw []byte) string {
	if messageID != "" && len(messageID) <= maxSourceID {
		return messageID
	}
	header := raw
	if i := bytes.Index(raw, []byte("\r\n\r\n")); i >= 0 {
		header = raw[:i]
	} else if i := bytes.Index(raw, []byte("\n\n")); i >= 0 {
		header = raw[:i]
	}
	sum := sha256.Sum256(header)
	return "sha256-" + hex.EncodeToString(sum[:]) + "@mail.switchboard"
}

func addresses(h mail.Header, key string) []string {
	list, _ := h.AddressList(key)
	out := make([]string, 0, min(len(list), maxAddresses))
	for _, a := range list {
		if len(out) == maxAddresses {
			break
		}
		out = append(out, clip(a.Address, maxHeaderRunes))
	}
	return out
}

// bodyParts gathers the parts of a mail body as they are read.
type bodyParts struct {
	plain, html string
	files       []core.Upload
	skipped     []string
}

// text is the plain part, or else the HTML one as text.
func (b *bodyParts) text() string {
	if strings.TrimSpace(b.plain) != "" {
		return b.plain
	}
	return HTMLToText(b.html)
}

// read walks the parts: the first text/plain and text/html parts are the
// body, anything else with a body is a file.
func (b *bodyParts) read(r *mail.Reader, lim Limits) error {
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil && !message.IsUnknownCharset(err) {
			if b.plain != "" || b.html != "" || len(b.files) > 0 {
				return nil // a mail cut short (no closing boundary) keeps what was read
			}
			return fmt.Errorf("reading the mail's parts: %w", err)
		}
		if err := b.readPart(p, lim); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return nil
			}
			return err
		}
	}
}

func (b *bodyParts) readPart(p *mail.Part, lim Limits) error {
	if h, ok := p.Header.(*mail.InlineHeader); ok {
		t, _, _ := h.ContentType()
		_, hasName := filename(h.Header)
		switch {
		case t == "text/plain" && b.plain == "" && !hasName:
			return readText(p.Body, &b.plain)
		case t == "text/html" && b.html == "" && !hasName:
			return readText(p.Body, &b.html)
		case strings.HasPrefix(t, "text/") && !hasName:
			return nil // another alternative of the body
		}
		return b.addFile(h.Header, p.Body, lim)
	}
	h := p.Header.(*mail.AttachmentHeader)
	return b.addFile(h.Header, p.Body, lim)
}

// maxBodyBytes bounds the text read of one body part: the message keeps at
// most 150,000 characters, and HTML needs room for its markup.
const maxBodyBytes = 4 << 20

// readText reads a text part as the message keeps it: valid UTF-8 without
// NULs (which no text column takes: a mail with one was dropped whole). A
// part cut short by the mail's end keeps what it had.
func readText(r io.Reader, dst *string) error {
	raw, err := io.ReadAll(io.LimitReader(r, maxBodyBytes))
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("reading a text part: %w", err)
	}
	*dst = cleanText(raw)
	return nil
}

func cleanText(raw []byte) string {
	return string(bytes.ToValidUTF8(bytes.ReplaceAll(raw, []byte{0}, nil), []byte("\uFFFD")))
}

// addFile keeps a part as an attachment, unless there are already as many
// as a message takes or it is over the store's per-file limit (then it is
// named in Skipped: the rest of the mail still arrives).
func (b *bodyParts) addFile(h message.Header, r io.Reader, lim Limits) error {
	name, _ := filename(h)
	t, _, _ := h.ContentType()
	if name == "" {
		name = fallbackName(t, len(b.files)+len(b.skipped)+1)
	}
	if len(b.files) >= lim.MaxFiles {
		b.skipped = append(b.skipped, name)
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(r, lim.MaxFileSize+1))
	if err != nil {
		return fmt.Errorf("reading attachment %s: %w", name, err)
	}
	if int64(len(data)) > lim.MaxFileSize || len(data) == 0 {
		b.skipped = append(b.skipped, name)
		return nil
	}
	b.files = append(b.files, core.Upload{Name: name, ContentType: t, Size: int64(len(data)),
		Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }})
	return nil
}

// filename is the part's file name (Content-Disposition's, else
// Content-Type's name parameter).
func filename(h message.Header) (string, bool) {
	if _, params, err := h.ContentDisposition(); err == nil && params["filename"] != "" {
		return clip(params["filename"], 255), true
	}
	if _, params, err := h.ContentType(); err == nil && params["name"] != "" {
		return clip(params["name"], 255), true
	}
	return "", false
}

func fallbackName(contentType string, n int) string {
	ext := ""
	if exts, _ := mime.ExtensionsByType(contentType); len(exts) > 0 {
		ext = exts[0]
	}
	return fmt.Sprintf("attachment-%d%s", n, ext)
}

// clip cuts s to at most n characters.
func clip(s string, n int) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\x00", ""))
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
