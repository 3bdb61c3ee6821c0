package rest_test

// The matrix's table, part 2: what lives inside inbox 1 — conversations,
// messages, files and scheduled messages. The agent outside the inbox gets
// 404 for each of them (issue 10: one rule, the privacy policy).

import (
	"context"
	"fmt"
	"net/http"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/viewer"
)

// mxInboxWrite: a write naming inbox 1 (or its contact) in the body: hidden
// from the agent outside it as from the other account.
func mxInboxWrite() mxRow { return mxRow{o401, oRef, o2xx, o2xx, oRef, o401} }

// mxInboxCreate: a new row in inbox 1, named by its inbox_id. Every agent
// sees the inbox itself, so an agent outside it is refused (403, as the spec
// answers a caller without permission), not told it does not exist.
func mxInboxCreate() mxRow { return mxRow{o401, o403, o2xx, o2xx, oRef, o401} }

// mxAuthorOrAdmin: inside inbox 1, changed only by its author (A's
// administrator here) or an administrator.
func mxAuthorOrAdmin(other outcome) mxRow { return mxRow{o401, o404, o403, o2xx, other, o401} }

// mxFreshMessage posts a message in the conversation as A's administrator.
func mxFreshMessage(c *mxCell) {
	c.t.Helper()
	r := doRequest(c.t, c.w.app, request{method: "POST", path: c.w.path("/conversations/%d/messages", c.w.Conv),
		body: H{"content": fmt.Sprintf("Fresh %d", c.n())}})
	if r.Status != http.StatusOK {
		c.t.Fatalf("setup message: %s", r)
	}
	c.ids["message_id"] = r.int(c.t, "id")
}

// mxFailedMessage is a fresh message whose delivery failed (written
// straight to the database: the matrix's inbox does not deliver), for the
// retry route.
func mxFailedMessage(c *mxCell) {
	mxFreshMessage(c)
	apitest.FailMessage(c.t, viewer.SystemContext(context.Background()), c.w.srv.DB.Client, c.ids["message_id"])
}

// mxFreshSchedule schedules a message in the conversation as A's
// administrator.
func mxFreshSchedule(c *mxCell) {
	c.t.Helper()
	r := doRequest(c.t, c.w.app, request{method: "POST", path: c.w.path("/conversations/%d/scheduled_messages", c.w.Conv),
		body: H{"content": fmt.Sprintf("Fresh %d", c.n()), "scheduled_at": mxInAFewDays()}})
	if r.Status != http.StatusOK {
		c.t.Fatalf("setup schedule: %s", r)
	}
	c.ids["id"] = r.int(c.t, "id")
}

func mxScheduleBody(c *mxCell) any {
	return H{"inbox_id": c.w.Inbox1, "contact_id": c.w.Contact, "content": "Later", "scheduled_at": mxInAFewDays()}
}

func conversationEntries() map[string]mxEntry {
	const acc = "/api/v1/accounts/:account_id"
	out := map[string]mxEntry{
		"GET " + acc + "/conversations": {want: memberRow(o2xx)},
		"POST " + acc + "/conversations": {want: mxInboxCreate(),
			body: func(c *mxCell) any { return H{"inbox_id": c.w.Inbox1, "contact_id": c.w.Contact} }},
		"GET " + acc + "/conversations/:id":                       {want: inboxRow(o404)},
		"POST " + acc + "/conversations/:id/toggle_status":        {want: inboxRow(o404), body: sameBody(H{"status": "open"})},
		"POST " + acc + "/conversations/:id/assignments":          {want: inboxRow(o404), body: sameBody(H{"team_id": nil})},
		"POST " + acc + "/conversations/:id/toggle_priority":      {want: inboxRow(o404), body: sameBody(H{"priority": "high"})},
		"GET " + acc + "/conversations/:id/labels":                {want: inboxRow(o404)},
		"POST " + acc + "/conversations/:id/labels":               {want: inboxRow(o404), body: sameBody(H{"labels": []string{"mx-label"}})},
		"POST " + acc + "/conversations/:id/toggle_typing_status": {want: inboxRow(o404), body: sameBody(H{"typing_status": "on"})},
		"GET " + acc + "/conversations/:id/messages":              {want: inboxRow(o404)},
		"POST " + acc + "/conversations/:id/messages":             {want: inboxRow(o404), body: sameBody(H{"content": "Hello"})},
		// Any agent of the inbox may delete a message (Chatwoot).
		"DELETE " + acc + "/conversations/:id/messages/:message_id": {want: inboxRow(o404), setup: mxFreshMessage},
		// Any agent of the inbox may retry a failed message (Chatwoot).
		"POST " + acc + "/conversations/:id/messages/:message_id/retry": {want: inboxRow(o404), setup: mxFailedMessage},
		// Whoever sees the message sees its attempts.
		"GET " + acc + "/conversations/:id/messages/:message_id/attempts": {want: inboxRow(o404), setup: mxFreshMessage},
		// A message's file, and a scheduled message's.
		"GET " + acc + "/attachments/:id": {want: inboxRow(o404),
			variants: map[string]func(c *mxCell){"schedule file": func(c *mxCell) { c.ids["id"] = c.w.SchedFile }}},
	}
	for _, scope := range []struct {
		prefix string
		list   mxRow
		create mxRow
		body   func(c *mxCell) any
	}{
		{"/scheduled_messages", memberRow(o2xx), mxInboxCreate(), mxScheduleBody},
		{"/conversations/:conversation_id/scheduled_messages", inboxRow(o404), mxInboxWrite(),
			func(c *mxCell) any { return H{"content": "Later", "scheduled_at": mxInAFewDays()} }},
	} {
		p := acc + scope.prefix
		out["GET "+p] = mxEntry{want: scope.list}
		out["POST "+p] = mxEntry{want: scope.create, body: scope.body}
		out["GET "+p+"/count"] = mxEntry{want: scope.list}
		out["GET "+p+"/:id"] = mxEntry{want: inboxRow(o404)}
		out["PUT "+p+"/:id"] = mxEntry{want: mxAuthorOrAdmin(o404), body: sameBody(H{"content": markSchedule})}
		out["PATCH "+p+"/:id"] = mxEntry{want: mxAuthorOrAdmin(o404), body: sameBody(H{"content": markSchedule})}
		out["POST "+p+"/:id/cancel"] = mxEntry{want: mxAuthorOrAdmin(o404), setup: mxFreshSchedule}
		out["DELETE "+p+"/:id"] = mxEntry{want: mxAuthorOrAdmin(o404), setup: mxFreshSchedule}
	}
	return out
}

// failedDelivery writes a failed delivery to webhook webhookID of account
// accountID straight to the database (the matrix's receiver answers every
// delivery), for the retry route, and returns its id.
func failedDelivery(c *ent.Client, accountID, webhookID int, n int64) int {
	return c.WebhookDelivery.Create().SetAccountID(accountID).SetSubscriptionID(webhookID).
		SetDeliveryID(fmt.Sprintf("msg_failed_%d", n)).SetURL("http://127.0.0.1:1/hook").SetEvent("message_created").
		SetPayload("{}").SetStatus(webhookdelivery.StatusFailed).SetAttempts(3).SetLastError("receiver answered 503").
		SaveX(viewer.SystemContext(context.Background())).ID
}
