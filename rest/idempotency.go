package rest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"mime"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/ops"
)

// idempotent honours the Idempotency-Key header of a POST (Stripe's
// semantics, see ops.BeginIdempotent): the first request runs and its
// response is stored; a retry with the same key and body gets that
// response again, marked Idempotent-Replayed: true. Server errors (5xx)
// are not stored, so their retry runs again.
func idempotent(svc *ops.Service) fiber.Handler {
	return func(c *fiber.Ctx) error {
		key := strings.TrimSpace(c.Get("Idempotency-Key"))
		if key == "" {
			return c.Next()
		}
		ctx := c.UserContext()
		claim, prior, err := svc.BeginIdempotent(ctx, accounts.IdempotentRequest{
			Key: key, Request: c.Method() + " " + c.Path(), BodyHash: bodyHash(c),
		})
		if err != nil {
			return err
		}
		if prior != nil {
			c.Set("Idempotent-Replayed", "true")
			if prior.ContentType != "" {
				c.Set(fiber.HeaderContentType, prior.ContentType)
			}
			return c.Status(prior.Status).Send(prior.Body)
		}
		if err := c.Next(); err != nil {
			// Render the error now, as the app would, so that its response
			// is what gets stored.
			if herr := c.App().Config().ErrorHandler(c, err); herr != nil {
				releaseKey(c, svc, claim)
				return herr
			}
		}
		res := c.Response()
		if res.StatusCode() >= fiber.StatusInternalServerError {
			releaseKey(c, svc, claim)
			return nil
		}
		stored := accounts.IdempotentResponse{Status: res.StatusCode(),
			ContentType: string(res.Header.ContentType()), Body: bytes.Clone(res.Body())}
		if err := svc.FinishIdempotent(ctx, claim, stored); err != nil {
			// The change is made and answered; a retry gets 409 until the key's
			// lease ends, rather than this answer being lost to a 500.
			slog.Error("storing an idempotent response", "path", c.Path(), "err", err)
		}
		return nil
	}
}

func releaseKey(c *fiber.Ctx, svc *ops.Service, claim *accounts.IdempotencyClaim) {
	if err := svc.ReleaseIdempotent(c.UserContext(), claim); err != nil {
		slog.Error("releasing an idempotency key", "path", c.Path(), "err", err)
	}
}

// bodyHash identifies a request body regardless of its encoding details: a
// JSON object is hashed in canonical form (keys sorted, spacing dropped),
// a multipart body with its random boundary replaced.
func bodyHash(c *fiber.Ctx) string {
	body := c.Body()
	mediaType, params, _ := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	switch {
	case strings.HasPrefix(mediaType, "multipart/") && params["boundary"] != "":
		body = bytes.ReplaceAll(body, []byte(params["boundary"]), []byte("boundary"))
	case mediaType == fiber.MIMEApplicationJSON || mediaType == "":
		body = canonicalJSON(body)
	}
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

// canonicalJSON re-encodes JSON with sorted keys (numbers kept as written);
// anything else is returned as is.
func canonicalJSON(body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return body
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}
