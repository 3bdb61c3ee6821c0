package rest_test

import (
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// The inbox lookup cache (issue 17): a webhook post does not read its inbox
// again for a few seconds, yet a rotated app secret or a deleted inbox takes
// effect with the very next post, on this instance and, through NOTIFY, on
// the others.

const rotatedSecret = "rotated-app-secret"

// signedWith is a post of a text message with id, signed with secret.
func signedWith(secret, id string) request {
	body := waText(id, "Hello")
	return waPost(waNumber, body, waSign(secret, body))
}

// newLookupApp is the app with a WhatsApp inbox of waNumber (app secret
// waSecret); it answers the inbox's id.
func newLookupApp(t *testing.T, a *app) int {
	t.Helper()
	r := a.mustDo(request{method: "POST", path: a.path("/inboxes"), body: H{"name": "WhatsApp", "channel": H{
		"type": "whatsapp", "phone_number": waNumber, "provider_config": H{"api_key": waAPIKey,
			"phone_number_id": waPhoneID, "business_account_id": "waba-1", "app_secret": waSecret}}}}, http.StatusOK)
	return r.int(t, "id")
}

func TestInboxLookupSeesChangesAtOnce(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		inboxID := newLookupApp(t, a)
		rotate := request{method: "PATCH", path: a.path("/inboxes/%d", inboxID),
			body: H{"channel": H{"provider_config": H{"app_secret": rotatedSecret}}}}
		stored := map[string]any{"messages": 1, "duplicates": 0}
		a.run(t, []scenario{
			{name: "a post signed with the app secret is stored (and its inbox remembered)",
				request: signedWith(waSecret, "wamid.lookup-1"), wantStatus: http.StatusOK, want: stored},
			{name: "the next one too", request: signedWith(waSecret, "wamid.lookup-2"), wantStatus: http.StatusOK, want: stored},
			{name: "the administrator rotates the app secret", request: rotate, wantStatus: http.StatusOK},
			{name: "a post signed with the old secret is refused at once",
				request: signedWith(waSecret, "wamid.lookup-3"), wantStatus: http.StatusUnauthorized},
			{name: "a post signed with the new secret is stored",
				request: signedWith(rotatedSecret, "wamid.lookup-4"), wantStatus: http.StatusOK, want: stored},
			{name: "the administrator deletes the inbox",
				request: request{method: "DELETE", path: a.path("/inboxes/%d", inboxID)}, wantStatus: http.StatusOK},
			{name: "a post for the deleted inbox finds no inbox",
				request: signedWith(rotatedSecret, "wamid.lookup-5"), wantStatus: http.StatusNotFound},
		})
	})
}

// TestInboxLookupHearsOfChangesOnAnotherInstance runs two servers on one
// PostgreSQL database: a secret rotated through one reaches the other's
// cache through LISTEN/NOTIFY, well before the cached inbox would expire.
func TestInboxLookupHearsOfChangesOnAnotherInstance(t *testing.T) {
	t.Parallel()
	a, b := twoInstances(t)

	inboxID := newLookupApp(t, a)
	b.mustDo(signedWith(waSecret, "wamid.other-1"), http.StatusOK) // instance two remembers the inbox
	a.mustDo(request{method: "PATCH", path: a.path("/inboxes/%d", inboxID),
		body: H{"channel": H{"provider_config": H{"app_secret": rotatedSecret}}}}, http.StatusOK)

	deadline := time.Now().Add(5 * time.Second) // a third of the cache's lifetime
	for b.do(signedWith(rotatedSecret, "wamid.other-2")).Status != http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatal("instance two still checks posts against the old app secret")
		}
		runtime.Gosched()
	}
	b.mustDo(signedWith(waSecret, "wamid.other-3"), http.StatusUnauthorized)
}
