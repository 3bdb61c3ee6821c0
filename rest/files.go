package rest

import (
	"mime"
	"os"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/storage"
)

// inlineTypes are the uploaded content types a browser may render in place:
// formats that cannot carry script. Everything else (HTML, SVG, XML, text,
// unknown types) is served as a download, so an uploaded page never runs
// from our origin.
var inlineTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true,
	"application/pdf": true,
}

func inlineType(mediaType string) bool {
	return inlineTypes[mediaType] || strings.HasPrefix(mediaType, "audio/") || strings.HasPrefix(mediaType, "video/")
}

// fileCSP keeps a served file from running anything or reaching anything,
// should a browser render it after all.
const fileCSP = "default-src 'none'; sandbox"

// sendUpload serves a stored upload with the headers every file response
// carries: the uploader's content type (reduced to a well-formed media
// type), a download disposition unless the type is on the inline
// allow-list, nosniff and a sandboxing CSP.
func sendUpload(c *fiber.Ctx, path, name, contentType string) error {
	if _, err := os.Stat(path); err != nil {
		// Fiber's own answer would name the path on disk.
		return apperr.NotFound("Attachment")
	}
	if err := c.SendFile(path); err != nil {
		return err
	}
	// After SendFile, which sets a content type from the file's extension.
	mediaType, ctype := fileContentType(contentType)
	c.Set(fiber.HeaderContentType, ctype)
	c.Set(fiber.HeaderContentDisposition, contentDisposition(mediaType, name))
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderContentSecurityPolicy, fileCSP)
	return nil
}

// fileContentType parses a stored content type; anything unreadable is
// application/octet-stream.
func fileContentType(contentType string) (mediaType, header string) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err == nil {
		if h := mime.FormatMediaType(mt, params); h != "" {
			return mt, h
		}
	}
	return "application/octet-stream", "application/octet-stream"
}

// contentDisposition is inline for allow-listed types, attachment for the
// rest, with the name made safe and encoded (RFC 2231 for non-ASCII).
func contentDisposition(mediaType, name string) string {
	kind := "attachment"
	if inlineType(mediaType) {
		kind = "inline"
	}
	if h := mime.FormatMediaType(kind, map[string]string{"filename": storage.SafeName(name)}); h != "" {
		return h
	}
	return kind
}
