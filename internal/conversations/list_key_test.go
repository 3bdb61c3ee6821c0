package conversations

import (
	"context"
	"testing"
	"unsafe"

	"github.com/switchboard/switchboard/internal/viewer"
)

// A kept page's key must not change when the request's buffer does: Fiber's
// query values alias it, and a key that read "snoozed" after the next
// request served the pending page to a snoozed filter (seen once in CI).
func TestListKeysDoNotAliasTheRequest(t *testing.T) {
	ctx := viewer.NewContext(context.Background(), viewer.Viewer{UserID: 7, AccountID: 1, Role: viewer.RoleAgent})
	buf := []byte("pending|me|vip")
	alias := func(from, to int) string { return unsafe.String(&buf[from], to-from) }
	k, keep := listKeyOf(ctx, ConversationListParams{Status: alias(0, 7), AssigneeType: alias(8, 10), Labels: []string{alias(11, 14)}})
	if !keep {
		t.Fatal("a user's page outside a transaction is to be kept")
	}
	copy(buf, "snoozed|al|xyz") // the next request
	if k.status != "pending" || k.assignee != "me" || k.labels != "vip" {
		t.Errorf("the key changed with the buffer: status %q, assignee %q, labels %q", k.status, k.assignee, k.labels)
	}
}
