package graph_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/graph"
	"github.com/switchboard/switchboard/internal/testdb"
)

// limitedServer serves the app's GraphQL endpoint with other limits on a
// loopback port, and returns its websocket URL.
func (a *app) limitedServer(limits graph.Limits) string {
	a.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h := graph.NewHandlerWithLimits(ctx, a.srv.DB.Client, a.srv.Svc, a.srv.Events, "/graphql", limits)
	srv := httptest.NewServer(h)
	a.t.Cleanup(func() { cancel(); srv.Close() })
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/graphql"
}

func dialWS(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 5 * time.Second}
	conn, resp, err := d.Dial(url, nil)
	if err != nil {
		t.Fatalf("dialing %s: %v (%v)", url, err, resp)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// expectClose reads until the server closes the socket, which it must do
// with code.
func expectClose(t *testing.T, conn *websocket.Conn, code int) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(15 * time.Second))
	for {
		_, data, err := conn.ReadMessage()
		if err == nil {
			continue // pings and the like before the close
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != code {
			t.Fatalf("want close %d, got %v (last message %s)", code, err, data)
		}
		return
	}
}

func initWS(t *testing.T, conn *websocket.Conn, token string) {
	t.Helper()
	must(t, conn.WriteJSON(wsMsg{Type: "connection_init", Payload: map[string]any{"api_access_token": token}}))
}

func TestGraphQLWebsocket(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		limits := graph.DefaultLimits
		limits.InitTimeout = 300 * time.Millisecond
		limits.MaxSubscriptions = 2
		url := a.limitedServer(limits)
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		ct := a.contact(a.Admin, ib, H{"name": "Ann"})
		conv := int(mustGet(t, a.mustREST("POST", fmt.Sprintf("/api/v1/accounts/%d/conversations", a.Account), a.Admin,
			H{"inbox_id": ib, "contact_id": ct}, 200), "id").(float64))
		sub := fmt.Sprintf(`subscription { messageCreated(conversationDisplayID: %d) { content } }`, conv)

		t.Run("the ack never echoes the init payload (it holds the token)", func(t *testing.T) {
			conn := dialWS(t, "ws://"+a.listen()+"/graphql")
			initWS(t, conn, a.Admin)
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, data, err := conn.ReadMessage()
			must(t, err)
			if !strings.Contains(string(data), `"connection_ack"`) || strings.Contains(string(data), a.Admin) || strings.Contains(string(data), "payload") {
				t.Errorf("ack %s, want a bare connection_ack", data)
			}
		})
		t.Run("no connection_init in time closes with 4408", func(t *testing.T) {
			expectClose(t, dialWS(t, url), 4408)
		})
		t.Run("the legacy graphql-ws subprotocol closes with 4406", func(t *testing.T) {
			d := websocket.Dialer{Subprotocols: []string{"graphql-ws"}, HandshakeTimeout: 5 * time.Second}
			conn, _, err := d.Dial(url, nil)
			must(t, err)
			defer conn.Close()
			expectClose(t, conn, 4406)
		})
		t.Run("pings before connection_init do not extend its deadline", func(t *testing.T) {
			conn := dialWS(t, url)
			must(t, conn.WriteJSON(wsMsg{Type: "ping"}))
			var m wsMsg
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			if err := conn.ReadJSON(&m); err != nil || m.Type != "pong" {
				t.Fatalf("a ping got %+v (%v), want a pong", m, err)
			}
			expectClose(t, conn, 4408)
		})
		t.Run("an id in use closes with 4409; a completed id may be reused", func(t *testing.T) {
			conn := dialWS(t, url)
			initWS(t, conn, a.Admin)
			read(t, conn)
			for _, typ := range []string{"subscribe", "complete", "subscribe", "subscribe"} {
				m := wsMsg{ID: "7", Type: typ}
				if typ == "subscribe" {
					m.Payload = map[string]any{"query": sub}
				}
				must(t, conn.WriteJSON(m))
			}
			expectClose(t, conn, 4409)
		})
		t.Run("a wrong token closes with 4403", func(t *testing.T) {
			conn := dialWS(t, url)
			initWS(t, conn, "not-a-token")
			expectClose(t, conn, 4403)
		})
		t.Run("subscribe before connection_init closes with 4401", func(t *testing.T) {
			conn := dialWS(t, url)
			must(t, conn.WriteJSON(wsMsg{ID: "1", Type: "subscribe", Payload: map[string]any{"query": sub}}))
			expectClose(t, conn, 4401)
		})
		t.Run("a second connection_init closes with 4429", func(t *testing.T) {
			conn := dialWS(t, url)
			initWS(t, conn, a.Admin)
			if m := read(t, conn); m.Type != "connection_ack" {
				t.Fatalf("got %+v, want connection_ack", m)
			}
			initWS(t, conn, a.Admin)
			expectClose(t, conn, 4429)
		})
		t.Run("subscriptions per connection are capped", func(t *testing.T) {
			conn := dialWS(t, url)
			initWS(t, conn, a.Admin)
			if m := read(t, conn); m.Type != "connection_ack" {
				t.Fatalf("got %+v, want connection_ack", m)
			}
			for _, id := range []string{"1", "2", "3"} {
				must(t, conn.WriteJSON(wsMsg{ID: id, Type: "subscribe", Payload: map[string]any{"query": sub}}))
			}
			m := read(t, conn)
			if m.Type != "error" || m.ID != "3" || !strings.Contains(m.Raw, "TOO_MANY_SUBSCRIPTIONS") ||
				!strings.Contains(m.Raw, "at most 2 subscriptions") {
				t.Fatalf("the third subscription got %+v, want an error naming the cap", m)
			}
			// Completing one makes room: a query over the socket runs.
			must(t, conn.WriteJSON(wsMsg{ID: "1", Type: "complete"}))
			must(t, conn.WriteJSON(wsMsg{ID: "4", Type: "subscribe", Payload: map[string]any{"query": `{ inboxes(first: 10) { edges { node { name } } } }`}}))
			if m := read(t, conn); m.Type != "next" || m.ID != "4" || mustGet(t, m.Payload, "data.inboxes.edges.0.node.name") != "API" {
				t.Fatalf("after completing one, a query got %+v, want its result", m)
			}
		})
		t.Run("a refused query answers on its id with the limit's code", func(t *testing.T) {
			conn := dialWS(t, url)
			initWS(t, conn, a.Admin)
			read(t, conn)
			must(t, conn.WriteJSON(wsMsg{ID: "9", Type: "subscribe", Payload: map[string]any{"query": nested("a", 13)}}))
			if m := read(t, conn); m.Type != "error" || m.ID != "9" || !strings.Contains(m.Raw, "QUERY_TOO_DEEP") {
				t.Fatalf("got %+v, want an error with QUERY_TOO_DEEP", m)
			}
		})
	})
}

// TestGraphQLWebsocketsDoNotLeak opens and closes 200 subscription sockets
// on the app (each authenticated, with a live subscription), then waits
// for the goroutine count to come back to where it was: before, every
// closed socket left one goroutine waiting on the app's context.
func TestGraphQLWebsocketsDoNotLeak(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		addr := a.listen()
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		ct := a.contact(a.Admin, ib, H{"name": "Ann"})
		conv := int(mustGet(t, a.mustREST("POST", fmt.Sprintf("/api/v1/accounts/%d/conversations", a.Account), a.Admin,
			H{"inbox_id": ib, "contact_id": ct}, 200), "id").(float64))
		query := fmt.Sprintf(`subscription { messageCreated(conversationDisplayID: %d) { content } }`, conv)
		open := func() {
			conn := subscribe(t, addr, a.Admin, query)
			// The query's answer shows the socket is up and serving; the
			// subscription may still be starting. Either way, all its
			// goroutines must end when the socket closes.
			must(t, conn.WriteJSON(wsMsg{ID: "2", Type: "subscribe", Payload: map[string]any{"query": `{ inboxes(first: 10) { edges { node { id } } } }`}}))
			if m := read(t, conn); m.Type != "next" {
				t.Fatalf("got %+v, want the query's result", m)
			}
			conn.Close()
		}
		open() // the server's pools warm up
		baseline := goroutinesSettled(t, -1)
		for range 200 {
			open()
		}
		if got := goroutinesSettled(t, baseline); got > baseline {
			var stacks strings.Builder
			_ = pprof.Lookup("goroutine").WriteTo(&stacks, 1)
			t.Errorf("%d goroutines after 200 sockets closed, %d before:\n%s", got, baseline, stacks.String())
		}
	})
}

// goroutines counts the running goroutines but fasthttp's idle workers:
// its pool keeps a worker per concurrent connection for ten seconds after
// its last request, waiting for the next (they hold nothing of ours).
func goroutines() int {
	buf := make([]byte, 1<<22)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		_, frames, _ := strings.Cut(g, "\n")
		if !strings.HasPrefix(frames, "github.com/valyala/fasthttp.(*workerPool).workerFunc") {
			n++
		}
	}
	return n
}

// goroutinesSettled polls the goroutine count until it is at most want (or,
// with want < 0, unchanged over a few polls), for at most ten seconds, and
// returns the last count.
func goroutinesSettled(t *testing.T, want int) int {
	t.Helper()
	deadline := time.After(10 * time.Second)
	poll := time.NewTicker(10 * time.Millisecond)
	defer poll.Stop()
	last, same := -1, 0
	for {
		n := goroutines()
		if want >= 0 && n <= want || want < 0 && n == last && same >= 5 {
			return n
		}
		if n == last {
			same++
		} else {
			last, same = n, 0
		}
		select {
		case <-deadline:
			return n
		case <-poll.C:
		}
	}
}
