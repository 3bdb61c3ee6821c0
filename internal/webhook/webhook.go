// Package webhook signs outgoing webhook requests as Standard Webhooks
// defines: headers webhook-id, webhook-timestamp and webhook-signature, the
// signature an HMAC-SHA256 of "id.timestamp.body" under the secret.
package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const secretPrefix = "whsec_"

// NewSecret returns a fresh secret: "whsec_" and base64 of 24 random bytes.
func NewSecret() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand: " + err.Error())
	}
	return secretPrefix + base64.StdEncoding.EncodeToString(b)
}

func key(secret string) ([]byte, error) {
	k, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
	if err != nil || len(k) == 0 {
		return nil, errors.New("webhook secret is not whsec_ and base64")
	}
	return k, nil
}

// Sign returns the webhook-signature header value ("v1,<base64>").
func Sign(secret, id string, ts time.Time, body []byte) (string, error) {
	k, err := key(secret)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, k)
	mac.Write([]byte(id + "." + strconv.FormatInt(ts.Unix(), 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// SetHeaders puts the three Standard Webhooks headers on req.
func SetHeaders(req *http.Request, secret, id string, ts time.Time, body []byte) error {
	sig, err := Sign(secret, id, ts, body)
	if err != nil {
		return err
	}
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	return nil
}

// Verify checks a request's signature as a receiver would: one of the
// space-separated signatures must match, and the timestamp be within
// tolerance of now.
func Verify(secret string, h http.Header, body []byte, now time.Time, tolerance time.Duration) error {
	ts, err := strconv.ParseInt(h.Get("webhook-timestamp"), 10, 64)
	if err != nil {
		return errors.New("missing or malformed webhook-timestamp")
	}
	t := time.Unix(ts, 0)
	if now.Sub(t) > tolerance || t.Sub(now) > tolerance {
		return errors.New("webhook-timestamp outside tolerance")
	}
	want, err := Sign(secret, h.Get("webhook-id"), t, body)
	if err != nil {
		return err
	}
	for _, got := range strings.Fields(h.Get("webhook-signature")) {
		if hmac.Equal([]byte(got), []byte(want)) {
			return nil
		}
	}
	return errors.New("no matching webhook-signature")
}
