package webhook

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// The Standard Webhooks reference vector: secret, id, timestamp and body
// from the specification's example, with its published signature.
func TestSignMatchesTheStandardWebhooksExample(t *testing.T) {
	secret := "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	ts := time.Unix(1614265330, 0)
	body := []byte(`{"test": 2432232314}`)
	got, err := Sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", ts, body)
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature %s, want %s", got, want)
	}
}

func TestVerifyAcceptsOwnSignatureAndRejectsTampering(t *testing.T) {
	secret := NewSecret()
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret %q lacks the whsec_ prefix", secret)
	}
	now := time.Now()
	body := []byte(`{"event":"x"}`)
	req, _ := http.NewRequest("POST", "http://x", nil)
	if err := SetHeaders(req, secret, "d1", now, body); err != nil {
		t.Fatal(err)
	}
	if err := Verify(secret, req.Header, body, now, 5*time.Minute); err != nil {
		t.Errorf("own signature does not verify: %v", err)
	}
	if err := Verify(secret, req.Header, []byte(`{"event":"y"}`), now, 5*time.Minute); err == nil {
		t.Error("a changed body verified")
	}
	if err := Verify(NewSecret(), req.Header, body, now, 5*time.Minute); err == nil {
		t.Error("another secret verified")
	}
	if err := Verify(secret, req.Header, body, now.Add(time.Hour), 5*time.Minute); err == nil {
		t.Error("a stale timestamp verified")
	}
}
