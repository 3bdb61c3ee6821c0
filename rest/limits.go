package rest

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// MaxJSONBody caps every request body that is not a multipart upload
// (JSON, url-encoded forms, GraphQL documents). Fiber's BodyLimit is one
// number for the whole app and must leave room for uploads, so the smaller
// cap for everything else is checked here, before any handler reads it.
const MaxJSONBody = 1 << 20

// limitBody answers 413 with the JSON error shape when a non-multipart body
// is over MaxJSONBody, and refuses compressed request bodies: Fiber inflates
// them on read without a bound, which would turn a small body into an
// unbounded one after this check.
func limitBody(c *fiber.Ctx) error {
	if enc := strings.TrimSpace(c.Get(fiber.HeaderContentEncoding)); enc != "" && !strings.EqualFold(enc, "identity") {
		return fiber.NewError(fiber.StatusUnsupportedMediaType, "Compressed request bodies are not accepted (Content-Encoding: "+truncate(enc, 40)+")")
	}
	if isMultipart(c) || len(c.Request().Body()) <= MaxJSONBody {
		return c.Next()
	}
	return fiber.NewError(fiber.StatusRequestEntityTooLarge,
		fmt.Sprintf("The request body is larger than %d bytes (1 MiB); files go in a multipart upload", MaxJSONBody))
}

func isMultipart(c *fiber.Ctx) bool {
	return strings.HasPrefix(strings.ToLower(c.Get(fiber.HeaderContentType)), fiber.MIMEMultipartForm)
}

// BodyLimit is the whole-request cap Fiber enforces for an upload of up to
// files files of maxFileSize bytes each, with room for the form's other
// fields.
func BodyLimit(files int, maxFileSize int64) int {
	const formOverhead = MaxJSONBody
	limit := int64(files)*maxFileSize + formOverhead
	if limit <= 0 || limit > int64(^uint(0)>>2) { // overflow: a configured size too large to multiply
		return int(^uint(0) >> 2)
	}
	return int(limit)
}

// refuseNUL answers 400 when a request's query string or non-multipart body
// carries a NUL character (a raw 0x00 byte, %00, or the JSON escape \u0000):
// PostgreSQL stores no NUL in text or JSON, so such input would fail there
// (500) while SQLite stored it; refusing it keeps the engines alike.
// Multipart bodies carry binary files and are not searched: their text
// fields meet apperr's mapping of PostgreSQL's encoding errors (422).
func refuseNUL(c *fiber.Ctx) error {
	query := c.Request().URI().QueryString()
	if bytes.IndexByte(query, 0) >= 0 || bytes.Contains(query, []byte("%00")) ||
		(!isMultipart(c) && hasNUL(c.Request().Body())) {
		return fiber.NewError(fiber.StatusBadRequest, "Text may not contain NUL characters (\\u0000)")
	}
	return c.Next()
}

// hasNUL reports a 0x00 byte, or a JSON \u0000 escape that is not itself
// an escaped backslash followed by "u0000".
func hasNUL(body []byte) bool {
	if bytes.IndexByte(body, 0) >= 0 {
		return true
	}
	for i := 0; ; {
		j := bytes.Index(body[i:], []byte(`\u0000`))
		if j < 0 {
			return false
		}
		at := i + j
		backslashes := 0
		for k := at - 1; k >= 0 && body[k] == '\\'; k-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return true
		}
		i = at + 1
	}
}
