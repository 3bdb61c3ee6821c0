package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/graph"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// TestSubscriptionsEndWhenTheirViewerLosesAccess: a subscription reads as
// the viewer its connection started as, so the connection authenticates
// its token again (every 100 ms here) and closes with 4403 once the token
// no longer signs in that viewer: its user removed from the account, an
// administrator made an agent, the token rotated. Until then it receives
// its events, and another member's subscription goes on throughout.
func TestSubscriptionsEndWhenTheirViewerLosesAccess(t *testing.T) {
	t.Cleanup(graph.SetWSRecheck(100 * time.Millisecond))
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		addr := a.listen()
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		ct := a.contact(a.Admin, ib, H{"name": "Ann"})
		conv := int(mustGet(t, a.mustREST("POST", base+"/conversations", a.Admin,
			H{"inbox_id": ib, "contact_id": ct}, http.StatusOK), "id").(float64))
		query := fmt.Sprintf(`subscription { messageCreated(conversationDisplayID: %d) { content } }`, conv)
		admin := subscribe(t, addr, a.Admin, query)
		a.waitListening(1)
		agentPath := func(id int) string { return fmt.Sprintf("%s/agents/%d", base, id) }
		for _, tc := range []struct {
			name  string
			admin bool // the member starts as an administrator
			end   func(userID int)
		}{
			{"removed from the account", false, func(id int) {
				a.mustREST("DELETE", agentPath(id), a.Admin, nil, http.StatusOK)
			}},
			{"an administrator made an agent", true, func(id int) {
				a.mustREST("PATCH", agentPath(id), a.Admin, H{"role": "agent"}, http.StatusOK)
			}},
			{"the token rotated", false, func(id int) {
				sys := viewer.SystemContext(context.Background())
				u, err := a.srv.DB.Client.User.Get(sys, id)
				must(t, err)
				_, err = a.srv.Svc.RotateAccessToken(context.Background(), u.Email)
				must(t, err)
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				id, token := a.agentUser(a.Account)
				a.mustREST("POST", base+"/inbox_members", a.Admin, H{"inbox_id": ib, "user_ids": []int{id}}, http.StatusOK)
				if tc.admin {
					a.mustREST("PATCH", agentPath(id), a.Admin, H{"role": "administrator"}, http.StatusOK)
				}
				conn := subscribe(t, addr, token, query)
				a.waitListening(2)
				a.mustREST("POST", fmt.Sprintf("%s/conversations/%d/messages", base, conv), a.Admin, H{"content": tc.name}, http.StatusOK)
				for who, c := range map[string]*websocket.Conn{"the member": conn, "the administrator": admin} {
					if got := mustGet(t, read(t, c).Payload, "data.messageCreated.content"); got != tc.name {
						t.Fatalf("%s received %v, want %q", who, got, tc.name)
					}
				}
				tc.end(id)
				expectClose(t, conn, 4403)
				a.waitListeningAtMost(1) // the member's subscription has ended
			})
		}
	})
}
