package graph_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// Account webhooks, their delivery log and the attempt logs over GraphQL
// (issue 16: a delivery stays visible with its attempts, last error and next
// attempt; its retry is in GraphQL too, so the log must be): real deliveries
// by the job runner to local receivers, and a channel that refuses a message.

// refusingChannel sends every message but those saying "refuse", which it
// refuses for good.
type refusingChannel struct{}

func (refusingChannel) Deliver(_ context.Context, j delivery.Job) (string, error) {
	if j.Message.Content != nil && strings.Contains(*j.Message.Content, "refuse") {
		return "", delivery.Permanent(errors.New("recipient unknown"))
	}
	return "", nil
}

func TestWebhooksAndAttemptLogsOverGraphQL(t *testing.T) {
	outboundtest.AllowPrivate(t, true) // the receivers listen on 127.0.0.1
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newAppWith(t, e, server.Config{Channels: refusingChannel{}})
		down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "maintenance", http.StatusServiceUnavailable)
		}))
		t.Cleanup(down.Close)
		gone := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "no such hook", http.StatusGone)
		}))
		t.Cleanup(gone.Close)
		agent := a.agent(a.Account)
		// The stub channel sends nothing to the inbox's URL.
		inboxID := a.inbox(a.Account, a.Admin, "API", H{"type": "api", "webhook_url": down.URL + "/channel"})

		var hookID, goneID int
		var secret string
		a.run(t, []gqlCase{
			{name: "an agent may not create a webhook", token: agent,
				query: `mutation { createWebhook(input: {url: "` + down.URL + `/x", subscriptions: ["contact_created"]}) { webhook { id } } }`,
				code:  "FORBIDDEN"},
			{name: "a bad URL and an unknown event are refused, field by field",
				query: `mutation { createWebhook(input: {url: "ftp://files", subscriptions: ["contact_created", "no_such_event"]}) { webhook { id } secret userErrors { field message code } } }`,
				code:  "INVALID", attrs: []string{"input.url", "input.subscriptions"},
				want: H{"createWebhook.webhook": absent, "createWebhook.secret": absent}},
			{name: "the administrator creates one and sees its secret once",
				query: `mutation($url: String!) { createWebhook(input: {name: "CRM", url: $url, subscriptions: ["contact_created", "contact_created"]}) {
					webhook { id databaseId name url subscriptions } secret userErrors { field } } }`,
				vars: H{"url": down.URL + "/hook"},
				want: H{"createWebhook.webhook.name": "CRM", "createWebhook.webhook.url": down.URL + "/hook",
					"createWebhook.webhook.subscriptions": []any{"contact_created"}, "createWebhook.secret": nonEmpty},
				check: func(t *testing.T, r *gqlResp) {
					hookID = atoi(t, mustGet(t, r.Data, "createWebhook.webhook.databaseId"))
					secret = mustGet(t, r.Data, "createWebhook.secret").(string)
					stored := a.srv.DB.Client.WebhookSubscription.GetX(sys(), hookID)
					if stored.Secret != secret {
						t.Errorf("the secret shown is not the one deliveries are signed with")
					}
				}},
			{name: "a receiver that is gone for good",
				query: `mutation($url: String!) { createWebhook(input: {url: $url, subscriptions: ["contact_created"]}) { webhook { databaseId } } }`,
				vars:  H{"url": gone.URL + "/hook"},
				check: func(t *testing.T, r *gqlResp) {
					goneID = atoi(t, mustGet(t, r.Data, "createWebhook.webhook.databaseId"))
				}},
			{name: "renaming keeps the rest",
				query: `mutation($id: ID!) { updateWebhook(id: $id, input: {name: "CRM sync"}) { webhook { name url subscriptions } userErrors { field } } }`,
				vars:  H{"id": lazy(func() any { return id(hookID) })},
				want: H{"updateWebhook.webhook.name": "CRM sync", "updateWebhook.webhook.url": down.URL + "/hook",
					"updateWebhook.webhook.subscriptions": []any{"contact_created"}}},
			{name: "the list shows both, oldest first, without their secrets",
				query: `{ webhooks { databaseId name } }`,
				check: func(t *testing.T, r *gqlResp) {
					list := mustGet(t, r.Data, "webhooks").([]any)
					if len(list) != 2 || atoi(t, mustGet(t, list[0], "databaseId")) != hookID || atoi(t, mustGet(t, list[1], "databaseId")) != goneID {
						t.Errorf("want webhooks %d and %d, got %v", hookID, goneID, list)
					}
					if strings.Contains(string(r.Body), secret) {
						t.Errorf("the list shows a secret: %s", r.Body)
					}
				}},
			{name: "an agent may not read the list", token: agent, query: `{ webhooks { id } }`, code: "FORBIDDEN"},
			{name: "an unknown webhook is not found", query: `{ webhookDeliveries(webhookID: 999999) { id } }`, code: "NOT_FOUND"},
		})

		// An event for both webhooks; the runner posts each once.
		a.contact(a.Admin, inboxID, H{"name": "Hook Trigger"})
		retrying := a.waitDelivery(t, hookID, func(d map[string]any) bool { return d["attempts"].(float64) >= 1 })
		failed := a.waitDelivery(t, goneID, func(d map[string]any) bool { return d["status"] == "failed" })
		a.run(t, []gqlCase{
			{name: "a delivery waiting for its retry says so", query: fmt.Sprintf(`{ webhookDeliveries(webhookID: %d) { status event responseStatus lastError nextAttemptAt deliveredAt payload } }`, hookID),
				want: H{"webhookDeliveries.0.status": "pending", "webhookDeliveries.0.event": "contact_created",
					"webhookDeliveries.0.responseStatus": 503.0, "webhookDeliveries.0.lastError": nonEmpty,
					"webhookDeliveries.0.nextAttemptAt": nonEmpty, "webhookDeliveries.0.deliveredAt": absent},
				check: func(t *testing.T, r *gqlResp) {
					if p := mustGet(t, r.Data, "webhookDeliveries.0.payload").(string); !strings.Contains(p, "Hook Trigger") {
						t.Errorf("the payload is not the event's: %s", p)
					}
				}},
			{name: "its attempt log", query: fmt.Sprintf(`{ webhookDeliveryAttempts(webhookID: %d, deliveryID: %d) { attempt outcome responseStatus error durationMs startedAt } }`, hookID, retrying),
				want: H{"webhookDeliveryAttempts.0.attempt": 1.0, "webhookDeliveryAttempts.0.outcome": "retrying",
					"webhookDeliveryAttempts.0.responseStatus": 503.0, "webhookDeliveryAttempts.0.error": nonEmpty,
					"webhookDeliveryAttempts.0.startedAt": nonEmpty}},
			{name: "a refusal fails at once", query: fmt.Sprintf(`{ webhookDeliveryAttempts(webhookID: %d, deliveryID: %d) { attempt outcome responseStatus } }`, goneID, failed),
				want: H{"webhookDeliveryAttempts.0.attempt": 1.0, "webhookDeliveryAttempts.0.outcome": "failed",
					"webhookDeliveryAttempts.0.responseStatus": 410.0}},
			{name: "a delivery of another webhook is not found", query: fmt.Sprintf(`{ webhookDeliveryAttempts(webhookID: %d, deliveryID: %d) { attempt } }`, hookID, failed),
				code: "NOT_FOUND"},
			{name: "deleting a webhook takes its log with it",
				query: `mutation($id: ID!) { deleteWebhook(id: $id) { deletedId userErrors { field } } }`,
				vars:  H{"id": lazy(func() any { return id(goneID) })},
				want:  H{"deleteWebhook.deletedId": lazy(func() any { return gid("Webhook", goneID) })}},
			{name: "a deleted webhook is gone", query: fmt.Sprintf(`{ webhook(id: %d) { id } }`, goneID), code: "NOT_FOUND"},
		})

		// A message the channel refuses, and one it sends.
		conv := a.conversationWith(t, inboxID, a.contact(a.Admin, inboxID, H{"name": "Refused"}))
		refused := a.postMessage(t, conv, "please refuse this")
		sent := a.postMessage(t, conv, "hello")
		a.waitAttempt(t, conv, refused, "failed")
		a.waitAttempt(t, conv, sent, "delivered")
		outsider := a.agent(a.Account)
		a.run(t, []gqlCase{
			{name: "a refused message's attempt log", query: fmt.Sprintf(`{ messageDeliveryAttempts(conversationDisplayID: %d, messageID: %d) { attempt outcome error } }`, conv, refused),
				want: H{"messageDeliveryAttempts": []any{H{"attempt": 1.0, "outcome": "failed", "error": "recipient unknown"}}}},
			{name: "a sent message's", query: fmt.Sprintf(`{ messageDeliveryAttempts(conversationDisplayID: %d, messageID: %d) { attempt outcome error } }`, conv, sent),
				want: H{"messageDeliveryAttempts": []any{H{"attempt": 1.0, "outcome": "delivered", "error": nil}}}},
			{name: "an agent outside the inbox does not see it", token: outsider,
				query: fmt.Sprintf(`{ messageDeliveryAttempts(conversationDisplayID: %d, messageID: %d) { attempt } }`, conv, sent), code: "NOT_FOUND"},
			{name: "a message of another conversation is not found",
				query: fmt.Sprintf(`{ messageDeliveryAttempts(conversationDisplayID: %d, messageID: %d) { attempt } }`, conv, 999999), code: "NOT_FOUND"},
		})
	})
}

// waitDelivery polls webhook hookID's delivery log until its newest entry
// passes done (the runner posts in the background), and returns its id.
func (a *app) waitDelivery(t *testing.T, hookID int, done func(map[string]any) bool) int {
	t.Helper()
	var newest map[string]any
	apitest.Eventually(t, 20*time.Second, fmt.Sprintf("webhook %d's delivery", hookID), func() bool {
		r := a.gqlOK(t, fmt.Sprintf(`{ webhookDeliveries(webhookID: %d) { databaseId status attempts } }`, hookID), nil)
		newest, _ = lookupMap(r.Data, "webhookDeliveries.0")
		return newest != nil && done(newest)
	})
	return atoi(t, newest["databaseId"])
}

// waitAttempt polls a message's attempt log until its latest attempt had
// outcome.
func (a *app) waitAttempt(t *testing.T, conv, messageID int, outcome string) {
	t.Helper()
	apitest.Eventually(t, 20*time.Second, fmt.Sprintf("a %s attempt at message %d", outcome, messageID), func() bool {
		r := a.gqlOK(t, fmt.Sprintf(`{ messageDeliveryAttempts(conversationDisplayID: %d, messageID: %d) { outcome } }`, conv, messageID), nil)
		got, _ := lookup(r.Data, "messageDeliveryAttempts.0.outcome")
		return got == outcome
	})
}

func lookupMap(v any, path string) (map[string]any, bool) {
	got, ok := lookup(v, path)
	m, _ := got.(map[string]any)
	return m, ok && m != nil
}

// conversationWith opens a conversation with contactID in inboxID and
// returns its display id.
func (a *app) conversationWith(t *testing.T, inboxID, contactID int) int {
	t.Helper()
	r := a.gqlOK(t, fmt.Sprintf(`mutation { createConversation(input: {inboxID: %d, contactID: %d}) { conversation { displayID } userErrors { field message } } }`, inboxID, contactID), nil)
	return atoi(t, mustGet(t, r.Data, "createConversation.conversation.displayID"))
}

// postMessage sends an outgoing message and returns its database id.
func (a *app) postMessage(t *testing.T, conv int, content string) int {
	t.Helper()
	r := a.gqlOK(t, fmt.Sprintf(`mutation { createMessage(conversationDisplayID: %d, input: {content: %q}) { message { databaseId } userErrors { field message } } }`, conv, content), nil)
	return atoi(t, mustGet(t, r.Data, "createMessage.message.databaseId"))
}
