package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestAgentTypingAndLabelEvents: an agent's toggle_typing_status tells the
// conversation's listeners (and nothing else), refuses a status other than
// on/off and a conversation of an inbox the agent does not work in; a label
// change tells conversation_updated. The conversations have no message, so
// no delivery's event comes in between.
func TestAgentTypingAndLabelEvents(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, agent := a.agent(a.Account)
		x := a.apiInbox("X")
		y := a.apiInbox("Y")
		a.addInboxMembers(y, agentID)
		_, aliceX := a.contact(x, H{"name": "Alice"})
		_, bobY := a.contact(y, H{"name": "Bob"})
		inX := a.startConversation(a.Account, "", H{"source_id": aliceX, "inbox_id": x})
		inY := a.startConversation(a.Account, "", H{"source_id": bobY, "inbox_id": y})
		typing := func(id int, status string) request {
			return as(agent, request{method: "POST", path: a.path("/conversations/%d/toggle_typing_status", id), body: H{"typing_status": status}})
		}
		a.run(t, []scenario{
			{name: "typing on reaches the listeners", request: typing(inY, "on"),
				wantStatus: http.StatusOK, wantEvents: []events.Kind{events.ConversationTypingOn}},
			{name: "typing off", request: typing(inY, "off"),
				wantStatus: http.StatusOK, wantEvents: []events.Kind{events.ConversationTypingOff}},
			{name: "a status other than on or off is 422", request: typing(inY, "maybe"),
				wantStatus: http.StatusUnprocessableEntity, wantInvalid: []string{"typing_status"}, wantEvents: []events.Kind{}},
			{name: "a conversation of an inbox the agent does not work in is 404", request: typing(inX, "on"),
				wantStatus: http.StatusNotFound, wantEvents: []events.Kind{}},
			{name: "a label change tells conversation_updated",
				request:    as(agent, request{method: "POST", path: a.path("/conversations/%d/labels", inY), body: H{"labels": []string{"vip"}}}),
				wantStatus: http.StatusOK, wantEvents: []events.Kind{events.ConversationUpdated}},
			{name: "the same labels again change nothing and tell nobody",
				request:    as(agent, request{method: "POST", path: a.path("/conversations/%d/labels", inY), body: H{"labels": []string{"vip", " vip "}}}),
				wantStatus: http.StatusOK, want: map[string]any{"payload": []any{"vip"}}, wantEvents: []events.Kind{}},
		})
	})
}
