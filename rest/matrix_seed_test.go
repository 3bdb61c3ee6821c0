package rest_test

// The world the authorization matrix runs in (issue 10): account A with
// three inboxes and one of everything, its administrator and two agents
// (one in inbox 1, one outside it), and account B with its administrator.
// Every user has a password, so every role also has a console session.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/visitors"
)

// Markers are unique strings stored inside inbox 1 (and in account A): a
// caller who may not see them finds none of them in any answer.
const (
	markMessage  = "MXMARK-inbox1-message"
	markFile     = "mxmark-inbox1-file.txt"
	markSchedule = "MXMARK-inbox1-schedule"
	markSchedFil = "mxmark-inbox1-schedfile.txt"
	markContact  = "MXMARK-A-contact"
)

// mxCaller is one of the six roles of the matrix.
type mxCaller struct {
	token   string // API token ("" for none)
	email   string // console sign-in ("" for none)
	session string // console session cookie ("" for none)
	userID  int
}

// mxWorld is the seeded data; ids are of account A unless named B.
type mxWorld struct {
	*app
	hook      *httptest.Server // the local receiver of every outbound URL
	password  string
	roles     [nRoles]mxCaller
	B         int
	Inbox1    int // API inbox: agent-in is its member
	Inbox2    int // WhatsApp inbox: agent-out is its member
	Inbox3    int // e-mail inbox with an SMTP password
	Contact   int
	Conv      int // display id, in inbox 1
	Message   int
	MsgFile   int // attachment of a message in inbox 1
	Schedule  int // in inbox 1, with a file
	SchedFile int
	Funnel    int
	Card      int // linked to Conv
	Checklist int
	Note      int
	Label     int
	Team      int
	Webhook   int
	Attr      int
	Bot       int
	Auto      int // kanban automation
	Spare     int // an agent the matrix may edit
	// The public client API's visitor (in an API inbox of its own): the
	// path's strings, their conversation and a form message in it.
	pathStrings map[string]string
	VisitorConv int
	VisitorForm int
	// adminMessages maps each sentence of the administrator-only refusals
	// to the cells that answered it.
	adminMessages map[string][]string
	// record, when set, sees every answer of a matrix cell.
	record func(route string, r mxRole, res *response)
}

const matrixPassword = "mx-s3cret-passw0rd"

func newMatrixWorld(t *testing.T, e testdb.Engine) *mxWorld {
	t.Helper()
	// Every outbound URL points at a receiver on 127.0.0.1.
	outboundtest.AllowPrivate(t, true)
	w := &mxWorld{app: newUnthrottledApp(t, e), password: matrixPassword, adminMessages: map[string][]string{}}
	w.hook = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) { rw.WriteHeader(http.StatusOK) }))
	t.Cleanup(w.hook.Close)
	w.roles[rolePlatform] = mxCaller{token: w.Platform}
	w.roles[roleAdmin] = w.signedUser(w.Account, "administrator")
	w.B, _ = w.otherAccount("Globex")
	w.roles[roleOther] = w.signedUser(w.B, "administrator")
	w.roles[roleIn] = w.signedUser(w.Account, "agent")
	w.roles[roleOut] = w.signedUser(w.Account, "agent")
	w.Spare = w.signedUser(w.Account, "agent").userID
	w.seedInboxes()
	w.seedConversation()
	w.seedAccountObjects()
	w.seedKanban()
	w.seedVisitor()
	w.pathStrings["slug"] = "new" // the stage of the world's funnel
	for r := range w.roles {
		if w.roles[r].email != "" {
			w.roles[r].session = w.signIn(w.roles[r].email)
		}
	}
	return w
}

func (w *mxWorld) url(path string) string { return w.hook.URL + path }

// signedUser creates a platform user with a password and gives it role in
// accountID.
func (w *mxWorld) signedUser(accountID int, role string) mxCaller {
	w.t.Helper()
	email := fmt.Sprintf("mx%d@people.test", w.next())
	r := w.mustDo(request{method: "POST", path: "/platform/api/v1/users", token: w.Platform, body: H{
		"name": "Matrix " + role, "email": email, "password": w.password,
	}}, http.StatusOK)
	id := r.int(w.t, "id")
	w.member(accountID, id, role)
	return mxCaller{token: r.str(w.t, "access_token"), email: email, userID: id}
}

// signIn opens a console session and returns its cookie.
func (w *mxWorld) signIn(email string) string {
	w.t.Helper()
	r := w.do(request{method: "POST", path: "/app/login", token: noToken,
		body: fields("email", email, "password", w.password)})
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "sb_session" && c.Value != "" {
			return c.Value
		}
	}
	w.t.Fatalf("console sign-in of %s gave no session: %s", email, r)
	return ""
}

func (w *mxWorld) seedInboxes() {
	w.t.Helper()
	w.Inbox1 = w.inbox("MX API", H{"type": "api", "webhook_url": w.url("/inbox"), "hmac_mandatory": true})
	wa := whatsappChannel("+15550001111")
	wa["provider_config"] = H{"api_key": "mx-whatsapp-api-key-secret", "phone_number_id": "123", "business_account_id": "456",
		"app_secret": "mx-whatsapp-app-secret", "webhook_verify_token": "mx-verify-token"}
	w.Inbox2 = w.inbox("MX WhatsApp", wa)
	w.Inbox3 = w.inbox("MX Mail", H{"type": "email", "email": "mx@acme.test", "smtp_address": "127.0.0.1",
		"smtp_port": 2525, "smtp_login": "mx", "smtp_password": "mx-smtp-password-secret",
		"imap_address": "imap.acme.test", "imap_login": "mx", "imap_password": "mx-imap-password-secret"})
	w.addInboxMembers(w.Inbox1, w.roles[roleIn].userID)
	w.addInboxMembers(w.Inbox2, w.roles[roleOut].userID)
}

func (w *mxWorld) seedConversation() {
	w.t.Helper()
	w.Contact, _ = w.contact(w.Inbox1, H{"name": markContact, "email": "mx-contact@acme.test"})
	w.Conv = w.startConversation(w.Account, w.roles[roleAdmin].token, H{"inbox_id": w.Inbox1, "contact_id": w.Contact})
	w.Message = w.mustDo(request{method: "POST", path: w.path("/conversations/%d/messages", w.Conv), token: w.roles[roleAdmin].token,
		body: H{"content": markMessage}}, http.StatusOK).int(w.t, "id")
	r := w.mustDo(request{method: "POST", path: w.path("/conversations/%d/messages", w.Conv), token: w.roles[roleAdmin].token,
		body: fields("content", markMessage+" with a file").file("attachments[]", markFile, "text/plain", []byte("inbox 1 file"))}, http.StatusOK)
	w.MsgFile = r.int(w.t, "attachments.0.id")
	r = w.mustDo(request{method: "POST", path: w.path("/conversations/%d/scheduled_messages", w.Conv), token: w.roles[roleAdmin].token,
		body: fields("content", markSchedule, "title", markSchedule+" title", "scheduled_at", mxInAFewDays()).
			file("attachments[]", markSchedFil, "text/plain", []byte("inbox 1 schedule file"))}, http.StatusOK)
	w.Schedule = r.int(w.t, "id")
	w.SchedFile = r.int(w.t, "attachments.0.id")
}

func mxInAFewDays() string { return time.Now().Add(72 * time.Hour).UTC().Format(time.RFC3339) }

func (w *mxWorld) seedAccountObjects() {
	w.t.Helper()
	w.Label = w.label("mx-label")
	w.Team = w.team("MX Team")
	w.Bot = w.mustDo(request{method: "POST", path: w.path("/agent_bots"),
		body: H{"name": "MX Bot", "outgoing_url": w.url("/bot")}}, http.StatusOK).int(w.t, "id")
	w.Webhook = w.mustDo(request{method: "POST", path: w.path("/webhooks"), body: H{"url": w.url("/hook"),
		"subscriptions": []string{"message_created"}}}, http.StatusOK).int(w.t, "payload.webhook.id")
	w.Attr = w.customAttribute("mxattr", "text", "contact_attribute")
}

func (w *mxWorld) seedKanban() {
	w.t.Helper()
	w.Funnel = w.funnel("MX Funnel", "new", "won")
	w.Card = w.mustDo(request{method: "POST", path: w.path("/kanban_items"), body: H{"kanban_item": H{
		"funnel_id": w.Funnel, "funnel_stage": "new", "conversation_display_id": w.Conv,
		"item_details": H{"title": "MX card"}}}}, http.StatusOK).int(w.t, "id")
	w.Checklist = w.mustDo(request{method: "POST", path: w.path("/kanban_items/%d/create_checklist_item", w.Card),
		body: H{"text": "MX step"}}, http.StatusOK).int(w.t, "checklist_item.id")
	w.Note = w.mustDo(request{method: "POST", path: w.path("/kanban_items/%d/create_note", w.Card),
		body: H{"content": "MX note"}}, http.StatusOK).int(w.t, "note.id")
	w.mustDo(request{method: "POST", path: w.path("/kanban_config"), body: H{"kanban_config": H{
		"webhook_url": w.url("/kanban"), "enabled": true}}}, http.StatusOK)
	w.Auto = w.mustDo(request{method: "POST", path: w.path("/kanban/automations"), body: H{
		"name": "MX auto", "trigger_type": "status_changed", "action_type": "set_priority",
		"action_config": H{"priority": "high"}}}, http.StatusOK).int(w.t, "id")
}

// inboxMarkers are the strings only callers who see inbox 1 may read.
func inboxMarkers() []string {
	return []string{markMessage, markFile, markSchedule, markSchedFil}
}

// lacksMarkers says which of the markers body shows.
func lacksMarkers(body []byte, markers []string) []string {
	var found []string
	for _, m := range markers {
		if strings.Contains(string(body), m) {
			found = append(found, m)
		}
	}
	return found
}

// newUnthrottledApp is newApp without credential throttling: the matrix (and
// the route pass) sends
// hundreds of tokens to routes that refuse them (the platform token on
// account routes, for one), which the throttle would turn into 429s. The
// throttle has its own tests.
func newUnthrottledApp(t *testing.T, e testdb.Engine) *app {
	t.Helper()
	channels := &acceptingChannels{}
	a := newAppWith(t, e, server.Config{Channels: channels, AuthLimits: &accounts.UnthrottledAuthLimits,
		VisitorLimits: &visitors.UnthrottledLimits})
	a.channels = channels
	return a
}
