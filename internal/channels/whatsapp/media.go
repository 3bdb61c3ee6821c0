package whatsapp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// Graph is how media is fetched: the Cloud API's base URL (the configured
// WHATSAPP_API_BASE) and the outbound client, whose address guard every
// download passes.
type Graph struct {
	Base string
	HTTP *http.Client
}

// errMediaGone is a media file the Graph API will not give (expired,
// deleted, too large): the message is stored without it.
var errMediaGone = errors.New("media unavailable")

// mediaInfo is the Graph API's answer for a media id.
type mediaInfo struct {
	URL      string `json:"url"`
	MimeType string `json:"mime_type"`
	FileSize int64  `json:"file_size"`
}

// fetchMedia downloads a message's file with the inbox's access token, up
// to maxSize bytes. A failure another try may fix (the Graph API down,
// throttling, a timeout) is apperr's unavailable, so that Meta posts again;
// one it will not fix wraps errMediaGone.
func (g Graph) fetchMedia(ctx context.Context, apiKey string, m *media, msgType string, maxSize int64) (core.Upload, error) {
	var info mediaInfo
	raw, err := g.get(ctx, apiKey, strings.TrimRight(g.Base, "/")+"/"+url.PathEscape(m.ID), 64<<10)
	if err != nil {
		return core.Upload{}, err
	}
	if err := json.Unmarshal(raw, &info); err != nil || info.URL == "" {
		return core.Upload{}, fmt.Errorf("%w: the Graph API gave no URL for media %s", errMediaGone, m.ID)
	}
	if info.FileSize > maxSize {
		return core.Upload{}, fmt.Errorf("%w: %d bytes is over the limit of %d", errMediaGone, info.FileSize, maxSize)
	}
	data, err := g.get(ctx, apiKey, info.URL, maxSize)
	if err != nil {
		return core.Upload{}, err
	}
	ct := firstNonBlank(info.MimeType, m.MimeType, "application/octet-stream")
	return core.Upload{Name: fileName(m, msgType, ct), ContentType: ct, Size: int64(len(data)),
		Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}, nil
}

// get reads target with the Bearer token, refusing a body over limit bytes.
func (g Graph) get(ctx context.Context, apiKey, target string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errMediaGone, err)
	}
	req.Header.Set("Authorization", "Bearer "+apiKey)
	resp, err := g.HTTP.Do(req)
	if err != nil {
		return nil, unavailable("The WhatsApp Graph API could not be reached for a media file; post again later", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests {
		return nil, unavailable(fmt.Sprintf("The WhatsApp Graph API answered %d for a media file; post again later", resp.StatusCode), nil)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: the Graph API answered %d", errMediaGone, resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, unavailable("A media file's download broke off; post again later", err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: the file is over the limit of %d bytes", errMediaGone, limit)
	}
	return data, nil
}

func unavailable(message string, err error) error {
	return &apperr.Error{Kind: apperr.KindUnavailable, Message: message, Err: err}
}

// fileName is the document's own name, else one made of the message type
// and the media id with the content type's extension.
func fileName(m *media, msgType, contentType string) string {
	if strings.TrimSpace(m.Filename) != "" {
		return m.Filename
	}
	return msgType + "-" + m.ID + extension(contentType)
}

// commonExtensions are the usual extensions of WhatsApp's media types
// (mime's list is alphabetical: .jfif before .jpg).
var commonExtensions = map[string]string{
	"image/jpeg": ".jpg", "image/png": ".png", "image/webp": ".webp", "audio/ogg": ".ogg", "audio/mpeg": ".mp3",
	"audio/aac": ".aac", "audio/mp4": ".m4a", "audio/amr": ".amr", "video/mp4": ".mp4", "video/3gpp": ".3gp",
	"application/pdf": ".pdf", "text/plain": ".txt",
}

func extension(contentType string) string {
	base, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	if ext, ok := commonExtensions[base]; ok {
		return ext
	}
	if exts, _ := mime.ExtensionsByType(base); len(exts) > 0 {
		return exts[0]
	}
	return ""
}

func firstNonBlank(values ...string) string {
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
