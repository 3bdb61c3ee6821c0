package graph_test

// How the scenarios read a mutation's payload: its user errors stand where a
// query's BAD_USER_INPUT error would (gqlResp.code and attrs read either).

import (
	"fmt"
	"strings"
	"testing"
)

// userErrors are the user errors of every mutation payload in the answer.
func (r *gqlResp) userErrors() []map[string]any {
	var out []map[string]any
	for _, payload := range r.payloads() {
		list, _ := payload["userErrors"].([]any)
		for _, ue := range list {
			if m, ok := ue.(map[string]any); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

// payloads are the answer's root fields that are mutation payloads.
func (r *gqlResp) payloads() []map[string]any {
	data, _ := r.Data.(map[string]any)
	var out []map[string]any
	for _, v := range data {
		if m, ok := v.(map[string]any); ok {
			if _, isPayload := m["userErrors"]; isPayload {
				out = append(out, m)
			}
		}
	}
	return out
}

// refusedEmpty checks that a payload refusing its input carries no object.
func (r *gqlResp) refusedEmpty(t *testing.T) {
	t.Helper()
	for _, payload := range r.payloads() {
		for k, v := range payload {
			if k != "userErrors" && v != nil {
				t.Errorf("a refused mutation answers %s %v, want null: %s", k, v, r)
			}
		}
	}
}

// isUserErrorCode: the code is one of a payload's user errors.
func isUserErrorCode(code string) bool { return code == "INVALID" || code == "CONFLICT" }

// gqlMessage is the sentence of a refusal: errors[0].message, or a
// mutation's user errors' messages joined as REST joins them.
func gqlMessage(r *gqlResp) string {
	if len(r.Errors) > 0 {
		return r.Errors[0].Message
	}
	var msgs []string
	for _, ue := range r.userErrors() {
		msgs = append(msgs, fmt.Sprint(ue["message"]))
	}
	return strings.Join(msgs, ", ")
}
