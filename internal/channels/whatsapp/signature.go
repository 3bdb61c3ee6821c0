package whatsapp

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
)

// parseSignature reads the X-Hub-Signature-256 header ("sha256=" and the
// hex HMAC-SHA256 of the body). It is checked before anything is looked up:
// an unsigned or malformed post costs no query.
func parseSignature(header string) ([]byte, error) {
	header = strings.TrimSpace(header)
	if header == "" {
		return nil, apperr.Unauthenticated("X-Hub-Signature-256 is missing: WhatsApp webhook posts must be signed with the app secret")
	}
	hexSig, ok := strings.CutPrefix(header, "sha256=")
	sig, err := hex.DecodeString(hexSig)
	if !ok || err != nil || len(sig) != sha256.Size {
		return nil, apperr.Unauthenticated("X-Hub-Signature-256 must be sha256= followed by the hex HMAC-SHA256 of the body")
	}
	return sig, nil
}

// signedBy is the first (oldest) of the number's inboxes whose app secret
// signed body with sig. Inboxes sharing a number often share the Meta app,
// hence its secret: the body's HMAC is computed once per distinct secret,
// not once per inbox, so a post costs at most as many passes over its body
// as there are secrets among the (bounded) candidates.
func signedBy(ibs []*ent.Inbox, sig, body []byte) (*ent.Inbox, error) {
	checked := make(map[string]bool, len(ibs))
	for _, ib := range ibs {
		secret := providerConfig(ib).AppSecret
		if secret == "" || checked[secret] {
			continue
		}
		checked[secret] = true
		if hmac.Equal(bodyMAC(secret, body), sig) {
			return ib, nil
		}
	}
	if len(checked) == 0 {
		return nil, apperr.Unauthenticated("This WhatsApp inbox has no app secret: set provider_config.app_secret to the Meta app's secret to receive its webhooks")
	}
	return nil, apperr.Unauthenticated("X-Hub-Signature-256 does not match the body signed with the inbox's app secret")
}

func bodyMAC(secret string, body []byte) []byte {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return mac.Sum(nil)
}
