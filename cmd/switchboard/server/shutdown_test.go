package server_test

import (
	"errors"
	"net"
	"net/http"
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
