package rest_test

// The scenario harness: every REST test drives the real HTTP app (built as
// main builds it) over a fresh, migrated database, on every engine testdb
// offers. A scenario is one request and what its response must hold; a table
// of them runs in order, each as a named subtest, so a failure names the
// broken behaviour.

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// H is a JSON object in a request body or an expectation.
type H = map[string]any

// ---- the app under test ----

// app is the server over a fresh database holding one bootstrapped account
// with its administrator, and the installation's platform token.
type app struct {
	t        *testing.T
	srv      *server.Server
	channels *acceptingChannels
	Account  int    // the bootstrapped account
	AdminID  int    // its administrator
	Admin    string // the administrator's access token
	Platform string // the platform token
	seq      atomic.Int64
}

// newApp builds the server on a fresh database of engine e and bootstraps
// the first account.
func newApp(t *testing.T, e testdb.Engine) *app {
	t.Helper()
	channels := &acceptingChannels{}
	a := newAppWith(t, e, server.Config{Channels: channels})
	a.channels = channels
	return a
}

// newAppWith is newApp with the server configured by cfg (its storage is a
// temporary directory).
func newAppWith(t *testing.T, e testdb.Engine, cfg server.Config) *app {
	t.Helper()
	return newAppOn(t, e.New(t), cfg)
}

// newAppOn is newAppWith over an open database.
func newAppOn(t *testing.T, d *db.DB, cfg server.Config) *app {
	t.Helper()
	cfg.StorageDir = t.TempDir()
	srv := server.New(cfg, d)
	t.Cleanup(func() { _ = srv.Shutdown() })
	b, err := srv.Svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: "Acme", Email: "admin@acme.test", Name: "Ada Admin",
	})
	if err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
	if b.PlatformToken == "" {
		t.Fatal("bootstrap on a fresh database returned no platform token")
	}
	return &app{t: t, srv: srv, Account: b.AccountID, AdminID: b.UserID, Admin: b.AccessToken, Platform: b.PlatformToken}
}

// acceptingChannels stands in for the channels in scenario tests: every
// message is accepted, and recorded, without leaving the machine.
type acceptingChannels struct {
	mu   sync.Mutex
	sent []delivery.Job
}

func (c *acceptingChannels) Deliver(_ context.Context, job delivery.Job) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, job)
	return "", nil
}

// sys is a context that passes every privacy rule, for seeding and for
// looking behind the API.
func sys() context.Context { return viewer.SystemContext(context.Background()) }

// next returns a number unique within the app, for unique names and e-mails.
func (a *app) next() int64 { return a.seq.Add(1) }

// path is a route of the bootstrapped account: a.path("/contacts/%d", id).
func (a *app) path(format string, args ...any) string {
	return accountPath(a.Account, format, args...)
}

// accountPath is a route of any account.
func accountPath(accountID int, format string, args ...any) string {
	return fmt.Sprintf("/api/v1/accounts/%d", accountID) + fmt.Sprintf(format, args...)
}

// otherAccount bootstraps a second account with its own administrator and
// returns the account id and the administrator's token.
func (a *app) otherAccount(name string) (accountID int, adminToken string) {
	a.t.Helper()
	n := a.next()
	b, err := a.srv.Svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: name, Email: fmt.Sprintf("admin%d@%s.test", n, strings.ToLower(name)), Name: name + " Admin",
	})
	if err != nil {
		a.t.Fatalf("bootstrap %s: %v", name, err)
	}
	return b.AccountID, b.AccessToken
}

// user creates a platform user (with a password) and returns its id and
// access token; it belongs to no account yet.
func (a *app) user(name string) (userID int, token string) {
	a.t.Helper()
	r := a.mustDo(request{method: "POST", path: "/platform/api/v1/users", token: a.Platform, body: H{
		"name": name, "email": fmt.Sprintf("user%d@people.test", a.next()), "password": "s3cret-pass",
	}}, http.StatusOK)
	return r.int(a.t, "id"), r.str(a.t, "access_token")
}

// member adds a user to an account with role through the platform API.
func (a *app) member(accountID, userID int, role string) {
	a.t.Helper()
	a.mustDo(request{method: "POST", path: fmt.Sprintf("/platform/api/v1/accounts/%d/account_users", accountID),
		token: a.Platform, body: H{"user_id": userID, "role": role}}, http.StatusOK)
}

// agent makes a new user an agent (not an administrator) of accountID and
// returns its id and token.
func (a *app) agent(accountID int) (userID int, token string) {
	a.t.Helper()
	userID, token = a.user(fmt.Sprintf("Agent %d", a.next()))
	a.member(accountID, userID, "agent")
	return userID, token
}

// inbox creates an inbox in the bootstrapped account (as its administrator)
// from a channel object and returns its id.
func (a *app) inbox(name string, channel H) int {
	a.t.Helper()
	return a.inboxIn(a.Account, a.Admin, name, channel)
}

func (a *app) inboxIn(accountID int, adminToken, name string, channel H) int {
	a.t.Helper()
	r := a.mustDo(request{method: "POST", path: accountPath(accountID, "/inboxes"), token: adminToken,
		body: H{"name": name, "channel": channel}}, http.StatusOK)
	return r.int(a.t, "id")
}

// apiInbox creates an API-channel inbox.
func (a *app) apiInbox(name string) int {
	a.t.Helper()
	return a.inbox(name, H{"type": "api", "webhook_url": "https://hooks.example.com/in"})
}

func whatsappChannel(phone string) H {
	return H{"type": "whatsapp", "phone_number": phone, "provider": "whatsapp_cloud",
		"provider_config": H{"api_key": "key", "phone_number_id": "123", "business_account_id": "456"}}
}

func emailChannel(address string) H { return H{"type": "email", "email": address} }

// contact creates a contact in the bootstrapped account through inboxID and
// returns its id and the source id of its contact inbox.
func (a *app) contact(inboxID int, fields H) (id int, sourceID string) {
	a.t.Helper()
	return a.contactIn(a.Account, a.Admin, inboxID, fields)
}

func (a *app) contactIn(accountID int, token string, inboxID int, fields H) (id int, sourceID string) {
	a.t.Helper()
	body := H{"inbox_id": inboxID}
	for k, v := range fields {
		body[k] = v
	}
	r := a.mustDo(request{method: "POST", path: accountPath(accountID, "/contacts"), token: token, body: body}, http.StatusOK)
	return r.int(a.t, "payload.contact.id"), r.str(a.t, "payload.contact_inbox.source_id")
}

// conversation seeds a conversation of a contact directly in the database
// (the conversations API is not part of this surface) and returns its
// display id.
func (a *app) conversation(accountID, inboxID, contactID int) int {
	a.t.Helper()
	display := int(a.next())
	_, err := a.srv.DB.Client.Conversation.Create().
		SetAccountID(accountID).SetDisplayID(display).SetUUID(uuid.NewString()).
		SetInboxID(inboxID).SetContactID(contactID).Save(sys())
	if err != nil {
		a.t.Fatalf("seeding conversation: %v", err)
	}
	return display
}

// customAttribute defines a custom attribute of model (contact_attribute or
// conversation_attribute) in the bootstrapped account.
func (a *app) customAttribute(key, displayType, model string) int {
	a.t.Helper()
	r := a.mustDo(request{method: "POST", path: a.path("/custom_attribute_definitions"), token: a.Admin, body: H{
		"attribute_display_name": strings.ToUpper(key[:1]) + key[1:], "attribute_key": key,
		"attribute_display_type": displayType, "attribute_model": model,
	}}, http.StatusOK)
	return r.int(a.t, "id")
}
