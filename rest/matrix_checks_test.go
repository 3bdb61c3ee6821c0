package rest_test

// Two checks across the matrix: account B's administrator on account A's
// path, and the one sentence of the administrator rule.

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// foreignPath calls every account route as account B's administrator on
// account A's path: the token is not A's, so it is 401 before anything else
// (Chatwoot's answer), whatever the route.
func (w *mxWorld) foreignPath(t *testing.T, routes []matrixRoute, table map[string]mxEntry) int {
	n := 0
	for _, r := range routes {
		if !strings.HasPrefix(r.path, "/api/v1/accounts/:account_id/") {
			continue
		}
		n++
		en := table[r.entryKey()]
		t.Run(routeKey(r.method, r.path)+"/other-admin on A's path", func(t *testing.T) {
			c := &mxCell{w: w, t: t, role: roleOther, ids: w.defaultIDs(r.path, roleAdmin)}
			if msg := mxMeets(c.send(r.method, r.path, en), o401); msg != "" {
				t.Error(msg)
			}
		})
	}
	return n
}

// errorSentence is an error answer's "error".
func errorSentence(r *response) string {
	obj, _ := r.JSON.(map[string]any)
	msg, _ := obj["error"].(string)
	return msg
}

// twoAdminMessages: the administrator rule still answers more than one
// sentence (issue 10 wants one, on both transports). Set to false when
// fixed; the check then demands one.
const twoAdminMessages = false

// checkOneAdminMessage: every administrator-only refusal answers one
// sentence, and GraphQL answers the same one.
func checkOneAdminMessage(t *testing.T, w *mxWorld) {
	t.Run("administrator-only refusals say one thing on both transports", func(t *testing.T) {
		r := doRequest(t, w.app, request{method: "POST", path: "/graphql", token: w.roles[roleIn].token,
			body: H{"query": `mutation { createLabel(input: {title: "one-message"}) { label { id } userErrors { field message code } } }`}})
		errs, _ := lookup(r.JSON, "errors.0.message")
		gql, _ := errs.(string)
		w.adminMessages[gql] = append(w.adminMessages[gql], "GraphQL createLabel")
		if len(w.adminMessages) == 1 {
			if twoAdminMessages {
				t.Errorf("the administrator rule now says one thing: set twoAdminMessages to false")
			}
			return
		}
		var lines []string
		for msg, cells := range w.adminMessages {
			lines = append(lines, fmt.Sprintf("%q (%d cells, e.g. %s)", msg, len(cells), cells[0]))
		}
		sort.Strings(lines)
		if twoAdminMessages {
			t.Skipf("known gap (the administrator rule is written in several layers): %d messages: %s",
				len(lines), strings.Join(lines, "; "))
		}
		t.Errorf("administrator-only refusals answer %d messages, want one: %s", len(lines), strings.Join(lines, "; "))
	})
}
