package server_test

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/internal/testdb"
)

// listen serves the app on a loopback port (websockets need a real
// connection) and returns its address.
func (h *harness) listen() string {
	h.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		h.t.Fatal(err)
	}
	go func() { _ = h.srv.App.Listener(ln) }()
	return ln.Addr().String()
}

type wsMsg struct {
	ID      string         `json:"id,omitempty"`
	Type    string         `json:"type"`
	Payload map[string]any `json:"payload,omitempty"`
}

// TestShutdownSaysGoingAway: at shutdown a GraphQL subscription is closed
// with 1001, so its client reconnects (to another instance), the gauge of
// websocket clients counts it while it is open, and requests are no longer
// accepted.
func TestShutdownSaysGoingAway(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		h := newHarness(t, e.New(t))
		addr := h.listen()
		d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 5 * time.Second}
		conn, res, err := d.Dial("ws://"+addr+"/graphql", nil)
		if err != nil {
			t.Fatalf("dialing: %v (%v)", err, res)
		}
		defer conn.Close()
		if err := conn.WriteJSON(wsMsg{Type: "connection_init", Payload: map[string]any{"api_access_token": h.token}}); err != nil {
			t.Fatal(err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		var ack wsMsg
		if err := conn.ReadJSON(&ack); err != nil || ack.Type != "connection_ack" {
			t.Fatalf("connection_init answered %+v, %v", ack, err)
		}
		if err := conn.WriteJSON(wsMsg{ID: "1", Type: "subscribe", Payload: map[string]any{
			"query": "subscription { scheduledMessageUpdated { __typename } }"}}); err != nil {
			t.Fatal(err)
		}
		if n := h.srv.Websockets.Open(); n != 1 {
			t.Errorf("websocket clients = %d, want 1", n)
		}

		if err := h.srv.Shutdown(); err != nil {
			t.Fatalf("shutdown: %v", err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		err = readUntilClosed(conn)
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.CloseGoingAway {
			t.Fatalf("the subscription ended with %v, want close code 1001", err)
		}
		eventually(t, "websocket clients back to 0", func() bool { return h.srv.Websockets.Open() == 0 })
		if _, err := http.Get("http://" + addr + "/healthz"); err == nil {
			t.Error("the server still accepts requests after shutdown")
		}
	})
}

func readUntilClosed(conn *websocket.Conn) error {
	for {
		if _, _, err := conn.ReadMessage(); err != nil {
			return err
		}
	}
}

// A server that never listened shuts down at once (tests rely on it).
func TestShutdownWithoutListening(t *testing.T) {
	h := newHarness(t, testdb.Engine{Name: "sqlite"}.New(t))
	done := make(chan error, 1)
	go func() { done <- h.srv.Shutdown() }()
	select {
	case err := <-done:
		if err != nil && !strings.Contains(err.Error(), "not running") {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("shutdown hung")
	}
}

// TestShutdownFinishesRequestsInFlight: requests still being sent when
// shutdown begins are answered (REST and GraphQL: fasthttp cancels the
// adaptor's request context at shutdown), while new connections are refused.
func TestShutdownFinishesRequestsInFlight(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		h := newHarness(t, e.New(t))
		addr := h.listen()
		requests := []struct {
			name, path, body, want string
		}{
			{"graphql", "/graphql", `{"query":"{ __typename }"}`, `{"data":{"__typename":"Query"}}`},
			{"rest", "/api/v1/accounts/" + strconv.Itoa(h.account) + "/labels", `{"title":"in-flight"}`, `"title":"in-flight"`},
		}
		conns := make([]net.Conn, len(requests))
		for i, r := range requests {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			head := "POST " + r.path + " HTTP/1.1\r\nHost: " + addr + "\r\napi_access_token: " + h.token +
				"\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(r.body)) + "\r\n\r\n"
			if _, err := conn.Write([]byte(head + r.body[:5])); err != nil {
				t.Fatal(err)
			}
			conns[i] = conn
		}
		// In flight means the server has taken the connections: one still in
		// the listen backlog when the listener closes is reset, not served.
		eventually(t, "the server to hold the connections", func() bool {
			return int(h.srv.App.Server().GetOpenConnectionsCount()) >= len(requests)
		})
		done := make(chan error, 1)
		go func() { done <- h.srv.Shutdown() }()
		eventually(t, "the listener closed", func() bool {
			c, err := net.Dial("tcp", addr)
			if err == nil {
				c.Close()
			}
			return err != nil
		})
		for i, r := range requests {
			if _, err := conns[i].Write([]byte(r.body[5:])); err != nil {
				t.Fatal(err)
			}
			_ = conns[i].SetReadDeadline(time.Now().Add(5 * time.Second))
			res, err := http.ReadResponse(bufio.NewReader(conns[i]), nil)
			if err != nil {
				t.Fatalf("%s: the request in flight got no answer: %v", r.name, err)
			}
			got, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK || !strings.Contains(string(got), r.want) {
				t.Errorf("%s: the request in flight answered %d %s, want 200 with %s", r.name, res.StatusCode, got, r.want)
			}
		}
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("shutdown: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("shutdown did not return")
		}
	})
}
