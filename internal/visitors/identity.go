package visitors

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
)

// Identity is who a visitor says they are in the site's own user base,
// and the site's proof of it: identifier_hash is the hex HMAC-SHA256 of
// identifier under the inbox's HMAC token, computed by the site's server.
type Identity struct {
	Identifier     *string
	IdentifierHash *string
}

// verify checks id against the inbox, as Chatwoot does: nothing to check
// when no hash is sent and the inbox does not require one; otherwise the
// hash must match (401). It reports whether the identity is proven.
func verify(ib *ent.Inbox, id Identity) (bool, error) {
	hash := strings.TrimSpace(deref(id.IdentifierHash))
	if hash == "" && !ib.Channel.HMACMandatory {
		return false, nil
	}
	identifier := strings.TrimSpace(deref(id.Identifier))
	if hash == "" || identifier == "" {
		return false, unverified()
	}
	mac := hmac.New(sha256.New, []byte(ib.Channel.HMACToken))
	mac.Write([]byte(identifier))
	want := hex.EncodeToString(mac.Sum(nil))
	if ib.Channel.HMACToken == "" || !hmac.Equal([]byte(want), []byte(strings.ToLower(hash))) {
		return false, apperr.Unauthenticated("HMAC failed: the identifier_hash does not match the identifier " +
			"(send the hex HMAC-SHA256 of identifier, keyed with the inbox's HMAC token)")
	}
	return true, nil
}

func unverified() error {
	return apperr.Unauthenticated("This inbox requires identity verification: send identifier and identifier_hash " +
		"(the hex HMAC-SHA256 of identifier, keyed with the inbox's HMAC token)")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func itoa(n int) string { return strconv.Itoa(n) }
