package graph_test

// The world of the GraphQL authorization matrix (issue 10): account A with
// two inboxes and one of everything, an administrator, an agent in inbox 1,
// an agent outside it and a spare agent; account B with its administrator.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// Markers stored inside inbox 1: a caller who may not see the inbox finds
// none of them in any answer.
const (
	gmMarkMessage  = "GMMARK-inbox1-message"
	gmMarkFile     = "gmmark-inbox1-file.txt"
	gmMarkSchedule = "GMMARK-inbox1-schedule"
	gmMarkSchedFil = "gmmark-inbox1-schedfile.txt"
)

type gmRole int

const (
	gmAnon gmRole = iota
	gmOut
	gmIn
	gmAdmin
	gmOther
	gmPlatform
	gmRoles
)

var gmRoleNames = [gmRoles]string{"anonymous", "agent-out", "agent-in", "admin", "other-admin", "platform"}

func (r gmRole) String() string { return gmRoleNames[r] }

type gmWorld struct {
	*app
	hook                 *httptest.Server
	tokens               [gmRoles]string
	userIn, userOut      int
	Spare                int
	B                    int
	Inbox1, Inbox2       int
	Contact, Conv        int
	Message, MsgFile     int
	Schedule, SchedFile  int
	Funnel, Card         int
	Checklist, Note      int
	Label, Team, Bot     int
	Attr, Webhook, Auto  int
	ContactOut           int // a contact of inbox 2
	InboxB, ContactB     int // account B's (it has no conversation, so no display id is shared)
	accountPath, pathOfB string
	addr                 string // the listening app, for subscriptions
	// adminMessages maps each sentence of the administrator-only refusals
	// to the cells that answered it.
	adminMessages map[string][]string
	// record, when set, sees every answer of a matrix cell.
	record func(key string, r gmRole, body []byte)
}

func newGMWorld(t *testing.T, e testdb.Engine) *gmWorld {
	t.Helper()
	outboundtest.AllowPrivate(t, true) // outbound URLs point at 127.0.0.1
	w := &gmWorld{app: newAppWith(t, e, server.Config{Channels: acceptAll{}, AuthLimits: &accounts.UnthrottledAuthLimits}), adminMessages: map[string][]string{}}
	w.hook = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) { rw.WriteHeader(http.StatusOK) }))
	t.Cleanup(w.hook.Close)
	w.accountPath = fmt.Sprintf("/api/v1/accounts/%d", w.Account)
	w.tokens[gmAnon] = noToken
	w.tokens[gmPlatform] = w.Platform
	w.tokens[gmAdmin] = w.Admin
	w.userIn, w.tokens[gmIn] = w.agentUser(w.Account)
	w.userOut, w.tokens[gmOut] = w.agentUser(w.Account)
	w.Spare, _ = w.agentUser(w.Account)
	w.B, w.tokens[gmOther] = w.otherAccount("Globex")
	w.pathOfB = fmt.Sprintf("/api/v1/accounts/%d", w.B)
	w.seed()
	return w
}

func (w *gmWorld) post(path string, body any) any {
	w.t.Helper()
	return w.mustREST("POST", w.accountPath+path, w.Admin, body, http.StatusOK)
}

func (w *gmWorld) postID(path string, body any, idPath string) int {
	w.t.Helper()
	return int(mustGet(w.t, w.post(path, body), idPath).(float64))
}

func (w *gmWorld) seed() {
	w.t.Helper()
	w.Inbox1 = w.inbox(w.Account, w.Admin, "GM API", H{"type": "api", "webhook_url": w.hook.URL + "/inbox"})
	w.Inbox2 = w.inbox(w.Account, w.Admin, "GM Other", apiChannel())
	w.post("/inbox_members", H{"inbox_id": w.Inbox1, "user_ids": []int{w.userIn}})
	w.post("/inbox_members", H{"inbox_id": w.Inbox2, "user_ids": []int{w.userOut}})
	w.Contact = w.postID("/contacts", H{"inbox_id": w.Inbox1, "name": "GM Contact"}, "payload.contact.id")
	w.Conv = w.postID("/conversations", H{"inbox_id": w.Inbox1, "contact_id": w.Contact}, "id")
	w.Message = w.postID(fmt.Sprintf("/conversations/%d/messages", w.Conv), H{"content": gmMarkMessage}, "id")
	r := w.gqlMultipart("", `mutation($files: [Upload!]) { createMessage(conversationDisplayID: `+id(w.Conv)+
		`, input: {content: "`+gmMarkMessage+` file"}, attachments: $files) { message { attachments { id } } userErrors { field message code } } }`,
		H{"files": []any{nil}}, []upload{{"variables.files.0", gmMarkFile, "text/plain", []byte("inbox 1 file")}})
	w.MsgFile = atoi(w.t, mustGet(w.t, r.Data, "createMessage.message.attachments.0.id"))
	at := time.Now().Add(72 * time.Hour).UTC().Format(time.RFC3339)
	r = w.gqlMultipart("", `mutation($files: [Upload!], $at: Time) { createScheduledMessage(input: {conversationDisplayID: `+
		id(w.Conv)+`, content: "`+gmMarkSchedule+`", scheduledAt: $at}, attachments: $files) { scheduledMessage { id attachments { id } } userErrors { field message code } } }`,
		H{"files": []any{nil}, "at": at}, []upload{{"variables.files.0", gmMarkSchedFil, "text/plain", []byte("schedule file")}})
	w.Schedule = atoi(w.t, mustGet(w.t, r.Data, "createScheduledMessage.scheduledMessage.id"))
	w.SchedFile = atoi(w.t, mustGet(w.t, r.Data, "createScheduledMessage.scheduledMessage.attachments.0.id"))
	w.Funnel = w.postID("/funnels", H{"funnel": H{"name": "GM Funnel", "stages": []H{{"name": "New", "slug": "new"}, {"name": "Won", "slug": "won"}}}}, "id")
	w.Card = w.postID("/kanban_items", H{"kanban_item": H{"funnel_id": w.Funnel, "funnel_stage": "new",
		"conversation_display_id": w.Conv, "item_details": H{"title": "GM card"}}}, "id")
	w.Checklist = w.postID(fmt.Sprintf("/kanban_items/%d/create_checklist_item", w.Card), H{"text": "GM step"}, "checklist_item.id")
	w.Note = w.postID(fmt.Sprintf("/kanban_items/%d/create_note", w.Card), H{"content": "GM note"}, "note.id")
	w.Label = w.postID("/labels", H{"title": "gm-label"}, "id")
	w.Team = w.postID("/teams", H{"name": "GM Team"}, "id")
	w.Bot = w.postID("/agent_bots", H{"name": "GM Bot", "outgoing_url": w.hook.URL + "/bot"}, "id")
	w.Attr = w.postID("/custom_attribute_definitions", H{"attribute_display_name": "Gm", "attribute_key": "gm",
		"attribute_display_type": "text", "attribute_model": "contact_attribute"}, "id")
	w.Webhook = w.postID("/webhooks", H{"url": w.hook.URL + "/hook", "subscriptions": []string{"message_created"}}, "payload.webhook.id")
	w.post("/kanban_config", H{"kanban_config": H{"webhook_url": w.hook.URL + "/kanban", "enabled": true}})
	w.Auto = w.postID("/kanban/automations", H{"name": "GM auto", "trigger_type": "status_changed",
		"action_type": "set_priority", "action_config": H{"priority": "high"}}, "id")
	w.ContactOut = w.postID("/contacts", H{"inbox_id": w.Inbox2, "name": "GM Out contact"}, "payload.contact.id")
	w.InboxB = w.inbox(w.B, w.tokens[gmOther], "B API", apiChannel())
	w.ContactB = w.contact(w.tokens[gmOther], w.InboxB, H{"name": "B contact"})
}

func gmInboxMarkers() []string {
	return []string{gmMarkMessage, gmMarkFile, gmMarkSchedule, gmMarkSchedFil}
}
