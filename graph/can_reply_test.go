package graph_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/internal/testdb"
)

// A conversation's canReply is REST's can_reply (core.CanReply): an API
// conversation always; a WhatsApp one only while the customer's last
// message is under 24 hours old. It reads the same whether the query
// selects the inbox or not, for one conversation or a page of them.
func TestGraphQLConversationCanReply(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newAppWith(t, e, server.Config{Channels: acceptAll{}})
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		api := a.inbox(a.Account, a.Admin, "API", H{"type": "api"})
		wa := a.inbox(a.Account, a.Admin, "WhatsApp", H{"type": "whatsapp", "phone_number": "+15550001234",
			"provider_config": H{"api_key": "wa-key", "phone_number_id": "pnid-1", "business_account_id": "baid-1"}})
		start := func(inboxID int, phone string) int {
			ct := mustGet(t, a.mustREST("POST", base+"/contacts", a.Admin, H{"inbox_id": inboxID, "name": "Ann", "phone_number": phone}, http.StatusOK), "payload.contact.id")
			cv := a.mustREST("POST", base+"/conversations", a.Admin, H{"inbox_id": inboxID, "contact_id": ct}, http.StatusOK)
			return int(mustGet(t, cv, "id").(float64))
		}
		apiConv, waClosed, waOpen := start(api, "+4915100000001"), start(wa, "+4915100000002"), start(wa, "+4915100000003")
		setLastIncoming := func(displayID int, at time.Time) {
			a.srv.DB.Client.Conversation.Update().Where(conversation.AccountID(a.Account), conversation.DisplayID(displayID)).
				SetLastIncomingAt(at).ExecX(sys())
		}
		setLastIncoming(waClosed, time.Now().Add(-25*time.Hour))
		setLastIncoming(waOpen, time.Now().Add(-time.Hour))
		one := `query($d: Int!) { conversation(displayID: $d) { canReply } }`
		withInbox := `query($d: Int!) { conversation(displayID: $d) { canReply inbox { channelType } } }`
		cases := []gqlCase{
			{name: "a page of conversations, each with its own window",
				query: `{ conversations(first: 10) { edges { node { displayID canReply } } } }`,
				check: func(t *testing.T, r *gqlResp) {
					want := map[float64]bool{float64(apiConv): true, float64(waClosed): false, float64(waOpen): true}
					edges := mustGet(t, r.Data, "conversations.edges").([]any)
					if len(edges) != len(want) {
						t.Fatalf("%d conversations, want %d", len(edges), len(want))
					}
					for _, ed := range edges {
						d, got := mustGet(t, ed, "node.displayID").(float64), mustGet(t, ed, "node.canReply")
						if got != want[d] {
							t.Errorf("conversation %v: canReply %v, want %v", d, got, want[d])
						}
					}
				}},
		}
		for _, c := range []struct {
			name      string
			displayID int
			want      bool
		}{
			{"an API conversation can always be replied to", apiConv, true},
			{"a WhatsApp conversation whose customer wrote 25 hours ago cannot", waClosed, false},
			{"a WhatsApp conversation whose customer wrote an hour ago can", waOpen, true},
		} {
			for _, q := range []string{one, withInbox} {
				cases = append(cases, gqlCase{name: c.name, query: q, vars: H{"d": c.displayID}, want: H{"conversation.canReply": c.want},
					check: func(t *testing.T, _ *gqlResp) {
						r := a.mustREST("GET", fmt.Sprintf("%s/conversations/%d", base, c.displayID), a.Admin, nil, http.StatusOK)
						if got := mustGet(t, r, "can_reply"); got != c.want {
							t.Errorf("REST can_reply %v, GraphQL %v", got, c.want)
						}
					}})
			}
		}
		a.run(t, cases)
	})
}
