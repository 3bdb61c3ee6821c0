package rest_test

// The WhatsApp webhooks' fixture: an app whose WhatsApp inbox has an app
// secret, a fake Graph API on 127.0.0.1 serving media, and signed posts.

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/testdb"
)

const (
	waNumber    = "+15550001111"
	waSecret    = "meta-app-secret"
	waAPIKey    = "wa-graph-api-key"
	waPhoneID   = "pnid-1"
	waCustomer  = "4915112345678"
	waPublicURL = "https://switchboard.example.com"
)

// graphFile is a media file the fake Graph API serves; status, when set,
// is what it answers for the media id instead.
type graphFile struct {
	mime   string
	data   []byte
	status int
}

// fakeGraph stands in for graph.facebook.com: GET /{media-id} answers the
// file's URL, GET /download/{media-id} its bytes, both only with the inbox's
// access token.
type fakeGraph struct {
	*httptest.Server
	mu    sync.Mutex
	files map[string]graphFile
	hits  int
}

func newFakeGraph(t *testing.T, files map[string]graphFile) *fakeGraph {
	g := &fakeGraph{files: files}
	g.Server = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.Close)
	return g
}

func (g *fakeGraph) serve(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	g.hits++
	g.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+waAPIKey {
		http.Error(w, `{"error":{"message":"bad token"}}`, http.StatusUnauthorized)
		return
	}
	id, download := strings.CutPrefix(r.URL.Path, "/download/")
	if !download {
		id = strings.TrimPrefix(r.URL.Path, "/")
	}
	f, ok := g.files[id]
	switch {
	case !ok:
		http.Error(w, `{"error":{"message":"unknown media"}}`, http.StatusNotFound)
	case f.status != 0:
		http.Error(w, `{"error":{"message":"as told"}}`, f.status)
	case download:
		w.Header().Set("Content-Type", f.mime)
		_, _ = w.Write(f.data)
	default:
		_ = json.NewEncoder(w).Encode(map[string]any{"url": g.URL + "/download/" + id, "mime_type": f.mime,
			"file_size": len(f.data), "id": id, "messaging_product": "whatsapp"})
	}
}

// waApp is the app with a WhatsApp inbox (app secret waSecret) whose media
// comes from graph.
type waApp struct {
	*app
	inboxID int
	// verifyToken is the one the inbox was given at creation.
	verifyToken string
	graph       *fakeGraph
}

// newWhatsAppApp needs the outbound guard lifted for 127.0.0.1 by the
// caller (outboundtest.AllowPrivate, which must not run in parallel).
func newWhatsAppApp(t *testing.T, e testdb.Engine, files map[string]graphFile) *waApp {
	t.Helper()
	g := newFakeGraph(t, files)
	a := newAppWith(t, e, server.Config{Channels: &acceptingChannels{}, WhatsAppAPIBase: g.URL, PublicURL: waPublicURL})
	r := a.mustDo(request{method: "POST", path: a.path("/inboxes"), body: H{"name": "WhatsApp", "channel": H{
		"type": "whatsapp", "phone_number": waNumber, "provider_config": H{"api_key": waAPIKey,
			"phone_number_id": waPhoneID, "business_account_id": "waba-1", "app_secret": waSecret}}}}, http.StatusOK)
	return &waApp{app: a, inboxID: r.int(t, "id"), verifyToken: r.str(t, "provider_config.webhook_verify_token"), graph: g}
}

// waSign is Meta's X-Hub-Signature-256 of body with secret.
func waSign(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// waPost is a webhook post of body to number's callback URL with the given
// X-Hub-Signature-256 ("" sends none) and no user token.
func waPost(number string, body []byte, signature string) request {
	rq := request{method: "POST", path: "/webhooks/whatsapp/" + number, token: noToken, body: body}
	if signature != "" {
		rq.header = map[string]string{"X-Hub-Signature-256": signature}
	}
	return rq
}

// signed is a post of body signed with the inbox's app secret.
func signed(body []byte) request { return waPost(waNumber, body, waSign(waSecret, body)) }

// waEnvelope is a Cloud API webhook body: one change of the inbox's number
// with messages (from waCustomer, named Ann Customer) and statuses.
func waEnvelope(messages, statuses []H) []byte {
	value := H{"messaging_product": "whatsapp", "metadata": H{"display_phone_number": strings.TrimPrefix(waNumber, "+"), "phone_number_id": waPhoneID}}
	if len(messages) > 0 {
		value["contacts"] = []H{{"profile": H{"name": "Ann Customer"}, "wa_id": waCustomer}}
		value["messages"] = messages
	}
	if len(statuses) > 0 {
		value["statuses"] = statuses
	}
	raw, err := json.Marshal(H{"object": "whatsapp_business_account",
		"entry": []H{{"id": "waba-1", "changes": []H{{"field": "messages", "value": value}}}}})
	if err != nil {
		panic(err)
	}
	return raw
}

// waMessage is a customer's message of type typ with its type's object.
func waMessage(id, typ string, body any) H {
	m := H{"from": waCustomer, "id": id, "timestamp": "1730000000", "type": typ}
	if body != nil {
		m[typ] = body
	}
	return m
}

// waText is a post with one text message.
func waText(id, text string) []byte {
	return waEnvelope([]H{waMessage(id, "text", H{"body": text})}, nil)
}

// stored is the inbox's message with the WhatsApp id (nil when none).
func (w *waApp) stored(t *testing.T, sourceID string) *ent.Message {
	t.Helper()
	m, err := w.srv.DB.Client.Message.Query().Where(message.InboxID(w.inboxID), message.SourceID(sourceID)).
		WithAttachments().Only(sys())
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// messageCount is how many messages the inbox holds.
func (w *waApp) messageCount(t *testing.T) int {
	t.Helper()
	n, err := w.srv.DB.Client.Message.Query().Where(message.InboxID(w.inboxID)).Count(sys())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// storesNothing checks that a refused post left the inbox's messages as
// they were (n before it).
func (w *waApp) storesNothing(n int) func(t *testing.T, r *response) {
	return func(t *testing.T, _ *response) {
		t.Helper()
		if got := w.messageCount(t); got != n {
			t.Errorf("the inbox holds %d messages after a refused post, want %d", got, n)
		}
	}
}

// answered checks a webhook post's counts.
func answered(stored, duplicates, statuses, ignored int) map[string]any {
	return map[string]any{"messages": stored, "duplicates": duplicates, "statuses": statuses, "ignored": ignored}
}
