package rest_test

// The matrix's table, part 6: the public client API. No token counts there:
// the inbox's public identifier and the visitor's contact identifier in the
// path are the credentials, so every caller gets the visitor's answer (and
// the matrix's leak check holds it to showing none of account A's markers).

import (
	"fmt"
	"net/http"
)

// seedVisitor makes a visitor of an API inbox of its own, with a
// conversation holding an agent's form message.
func (w *mxWorld) seedVisitor() {
	w.t.Helper()
	p := w.newPublicInbox("MX Public", H{"type": "api"})
	sid, _ := w.visitor(p, H{"name": "MX visitor"})
	w.pathStrings = map[string]string{"inbox_identifier": p.identifier, "contact_identifier": sid}
	w.VisitorConv = w.visitorConversation(p, sid)
	w.VisitorForm = w.mustDo(request{method: "POST", path: w.path("/conversations/%d/messages", w.VisitorConv), token: w.roles[roleAdmin].token,
		body: H{"content": "Pick", "content_type": "input_select"}}, http.StatusOK).int(w.t, "id")
}

// mxVisitorConv points the path at the visitor's conversation and form.
func mxVisitorConv(c *mxCell) {
	c.ids["conversation_id"] = c.w.VisitorConv
	c.ids["message_id"] = c.w.VisitorForm
}

var mxAnyone = mxRow{o2xx, o2xx, o2xx, o2xx, o2xx, o2xx}

func publicEntries() map[string]mxEntry {
	const pre = "/public/api/v1/inboxes/:inbox_identifier"
	const me = pre + "/contacts/:contact_identifier"
	const cv = me + "/conversations/:conversation_id"
	return map[string]mxEntry{
		"POST " + pre + "/contacts":        {want: mxAnyone, body: func(c *mxCell) any { return H{"name": fmt.Sprintf("Visitor %d", c.n())} }},
		"GET " + me:                        {want: mxAnyone},
		"PATCH " + me:                      {want: mxAnyone, body: sameBody(H{"name": "MX visitor"})},
		"GET " + me + "/conversations":     {want: mxAnyone},
		"POST " + me + "/conversations":    {want: mxAnyone},
		"GET " + cv:                        {want: mxAnyone, setup: mxVisitorConv},
		"POST " + cv + "/toggle_status":    {want: mxAnyone, setup: mxVisitorConv},
		"POST " + cv + "/toggle_typing":    {want: mxAnyone, setup: mxVisitorConv, body: sameBody(H{"typing_status": "on"})},
		"POST " + cv + "/update_last_seen": {want: mxAnyone, setup: mxVisitorConv},
		"GET " + cv + "/messages":          {want: mxAnyone, setup: mxVisitorConv},
		"POST " + cv + "/messages":         {want: mxAnyone, setup: mxVisitorConv, body: sameBody(H{"content": "hi"})},
		"PATCH " + cv + "/messages/:message_id": {want: mxAnyone, setup: mxVisitorConv,
			body: sameBody(H{"submitted_values": []H{{"value": "a"}}})},
		// A plain GET is no websocket handshake.
		"GET " + pre + "/live": {want: mxRow{oUpgrade, oUpgrade, oUpgrade, oUpgrade, oUpgrade, oUpgrade}},
	}
}
