package graph_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/testdb"
)

// wsMsg is a graphql-transport-ws protocol message.
type wsMsg struct {
	ID      string         `json:"id,omitempty"`
	Type    string         `json:"type"`
	Payload map[string]any `json:"payload,omitempty"`
	Raw     string         `json:"-"` // the payload as sent (an error's is a list)
}

// listen serves the app on a loopback port (websockets need a real
// connection) and returns its address.
func (a *app) listen() string {
	a.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		a.t.Fatal(err)
	}
	go func() { _ = a.srv.App.Listener(ln) }()
	return ln.Addr().String()
}

// subscribe opens a GraphQL subscription over a websocket as token.
func subscribe(t *testing.T, addr, token, query string) *websocket.Conn {
	t.Helper()
	return subscribeWith(t, addr, token, query, nil)
}

// waitListening waits until n subscriptions follow the account's events on
// the app, so that writes made next are not missed.
func (a *app) waitListening(n int) {
	a.t.Helper()
	a.waitListeners(fmt.Sprintf("%d subscription(s) did not start listening", n), func(got int) bool { return got >= n })
}

// waitListeningAtMost waits until no more than n subscriptions follow the
// account's events: the others have ended.
func (a *app) waitListeningAtMost(n int) {
	a.t.Helper()
	a.waitListeners(fmt.Sprintf("more than %d subscription(s) still listen", n), func(got int) bool { return got <= n })
}

func (a *app) waitListeners(failure string, done func(listeners int) bool) {
	a.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !done(a.srv.Events.Listeners(a.Account)) {
		if time.Now().After(deadline) {
			a.t.Fatal(failure + " within 5 s")
		}
		<-time.After(5 * time.Millisecond) // poll with a deadline
	}
}

func read(t *testing.T, conn *websocket.Conn) wsMsg {
	t.Helper()
	for {
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		var raw struct {
			ID      string          `json:"id"`
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := conn.ReadJSON(&raw); err != nil {
			t.Fatalf("reading from the subscription: %v", err)
		}
		m := wsMsg{ID: raw.ID, Type: raw.Type, Raw: string(raw.Payload)}
		_ = json.Unmarshal(raw.Payload, &m.Payload) // a list stays in Raw
		if m.Type != "ping" && m.Type != "pong" && m.Type != "ka" {
			return m
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestMessageCreatedSubscriptionSeesMessagesFromREST(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		addr := a.listen()
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		ct := a.contact(a.Admin, ib, H{"name": "Ann"})
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		conv := int(mustGet(t, a.mustREST("POST", base+"/conversations", a.Admin,
			H{"inbox_id": ib, "contact_id": ct}, http.StatusOK), "id").(float64))
		other := int(mustGet(t, a.mustREST("POST", base+"/conversations", a.Admin,
			H{"inbox_id": ib, "contact_id": ct}, http.StatusOK), "id").(float64))

		conn := subscribe(t, addr, a.Admin, fmt.Sprintf(
			`subscription { messageCreated(conversationDisplayID: %d) { content messageType } }`, conv))
		a.waitListening(1)

		a.mustREST("POST", fmt.Sprintf("%s/conversations/%d/messages", base, other), a.Admin, H{"content": "elsewhere"}, http.StatusOK)
		a.mustREST("POST", fmt.Sprintf("%s/conversations/%d/messages", base, conv), a.Admin, H{"content": "over REST"}, http.StatusOK)

		m := read(t, conn)
		if m.Type != "next" {
			t.Fatalf("subscription sent %+v, want next", m)
		}
		if got := mustGet(t, m.Payload, "data.messageCreated.content"); got != "over REST" {
			t.Errorf("subscription delivered %v, want the message of its conversation only", got)
		}
	})
}

func TestMessageCreatedSubscriptionRefusesStrangers(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		addr := a.listen()
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		ct := a.contact(a.Admin, ib, H{"name": "Ann"})
		conv := int(mustGet(t, a.mustREST("POST", fmt.Sprintf("/api/v1/accounts/%d/conversations", a.Account), a.Admin,
			H{"inbox_id": ib, "contact_id": ct}, http.StatusOK), "id").(float64))
		_, tokenB := a.otherAccount("Globex")
		conn := subscribe(t, addr, tokenB, fmt.Sprintf(`subscription { messageCreated(conversationDisplayID: %d) { content } }`, conv))
		m := read(t, conn)
		if m.Type != "error" && m.Type != "next" {
			t.Fatalf("a stranger's subscription got %+v, want an error", m)
		}
		if fmt.Sprint(m.Payload) == "" || m.Type == "next" && m.Payload["errors"] == nil {
			t.Errorf("a stranger's subscription was not refused: %+v", m)
		}
	})
}

// TestSubscriptionsSeeChangesMadeOnAnotherInstance runs two servers on one
// PostgreSQL database (instances of one deployment): a viewer subscribed on
// one sees a message posted through the other (events travel by
// PostgreSQL's LISTEN/NOTIFY).
func TestSubscriptionsSeeChangesMadeOnAnotherInstance(t *testing.T) {
	open := testdb.SharedPostgres(t)
	a := newAppOn(t, open(), server.Config{Channels: acceptAll{}})
	other := server.New(server.Config{StorageDir: t.TempDir(), Channels: acceptAll{}}, open())
	t.Cleanup(func() { _ = other.Shutdown() })
	b := &app{t: t, srv: other, Account: a.Account, Admin: a.Admin}
	addr := b.listen()

	ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
	ct := a.contact(a.Admin, ib, H{"name": "Ann"})
	base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
	conv := int(mustGet(t, a.mustREST("POST", base+"/conversations", a.Admin, H{"inbox_id": ib, "contact_id": ct}, http.StatusOK), "id").(float64))
	conn := subscribe(t, addr, a.Admin, fmt.Sprintf(`subscription { messageCreated(conversationDisplayID: %d) { content } }`, conv))
	b.waitListening(1)

	a.mustREST("POST", fmt.Sprintf("%s/conversations/%d/messages", base, conv), a.Admin, H{"content": "from instance one"}, http.StatusOK)
	m := read(t, conn)
	if m.Type != "next" || mustGet(t, m.Payload, "data.messageCreated.content") != "from instance one" {
		t.Fatalf("the subscriber on instance two got %+v, want the message posted on instance one", m)
	}
}
