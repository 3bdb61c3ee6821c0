package rest_test

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/visitors"
)

// listen serves the app on 127.0.0.1 and answers its ws:// base.
func (a *app) listen(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = a.srv.App.Listener(ln) }()
	return "ws://" + ln.Addr().String()
}

// visitorSocket opens a visitor's socket and sends its token; it answers
// the connection (the welcome not yet read).
func visitorSocket(t *testing.T, base string, p publicInbox, token string, header http.Header) *websocket.Conn {
	t.Helper()
	ws, res, err := websocket.DefaultDialer.Dial(base+p.path("/live"), header)
	if err != nil {
		t.Fatalf("dial: %v (%v)", err, res)
	}
	t.Cleanup(func() { ws.Close() })
	if err := ws.WriteJSON(H{"pubsub_token": token}); err != nil {
		t.Fatal(err)
	}
	return ws
}

// next reads the socket's next JSON message within 10 s.
func next(t *testing.T, ws *websocket.Conn) (H, error) {
	t.Helper()
	_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	var m H
	err := ws.ReadJSON(&m)
	return m, err
}

func closeCode(err error) int {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return 0
}

// A visitor's socket hears the agents' replies in their own conversations,
// live, and nothing else: no private note, no other visitor's message.
func TestVisitorSocketHearsTheirOwnConversationsOnly(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		base := a.listen(t)
		p := a.newPublicInbox("Site API", H{"type": "api"})
		me, token := a.visitor(p, H{"name": "Vera"})
		other, _ := a.visitor(p, H{"name": "Otto"})
		cv, theirs := a.visitorConversation(p, me), a.visitorConversation(p, other)

		ws := visitorSocket(t, base, p, token, nil)
		if m, err := next(t, ws); err != nil || m["event"] != "subscribed" {
			t.Fatalf("welcome: %v %v", m, err)
		}
		post := func(conv int, body H) int {
			return a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv), body: body}, http.StatusOK).int(t, "id")
		}
		post(cv, H{"content": "INTERNAL note", "private": true})
		post(theirs, H{"content": "For Otto"})
		reply := post(cv, H{"content": "Hello Vera"})
		m, err := next(t, ws)
		if err != nil {
			t.Fatal(err)
		}
		expect(t, &response{JSON: m, req: "socket"}, H{"event": "message.created", "seq": present,
			"data.id": float64(reply), "data.content": "Hello Vera", "data.message_type": 1.0, "data.conversation_id": float64(cv)})
		a.mustDo(request{method: "POST", path: a.path("/conversations/%d/toggle_status", cv), body: H{"status": "resolved"}}, http.StatusOK)
		m, err = next(t, ws)
		if err != nil {
			t.Fatal(err)
		}
		expect(t, &response{JSON: m, req: "socket"}, H{"event": "conversation.status_changed", "data.id": float64(cv), "data.status": "resolved"})
	})
}

func TestVisitorSocketRefusals(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		base := a.listen(t)
		p := a.newPublicInbox("Site API", H{"type": "api"})
		widget := a.newPublicInbox("Widget", H{"type": "web_widget", "website_url": "https://shop.example.com"})
		_, token := a.visitor(p, H{"name": "Vera"})
		_, widgetToken := a.visitor(widget, H{"name": "Wes"})

		t.Run("a wrong token", func(t *testing.T) {
			_, err := next(t, visitorSocket(t, base, p, "not-a-token", nil))
			if closeCode(err) != 4401 {
				t.Errorf("closed with %v, want 4401", err)
			}
		})
		t.Run("another inbox's token", func(t *testing.T) {
			_, err := next(t, visitorSocket(t, base, p, widgetToken, nil))
			if closeCode(err) != 4401 {
				t.Errorf("closed with %v, want 4401", err)
			}
		})
		t.Run("a widget's socket from another site", func(t *testing.T) {
			_, res, err := websocket.DefaultDialer.Dial(base+widget.path("/live"), http.Header{"Origin": {"https://evil.example.net"}})
			if err == nil || res == nil || res.StatusCode != http.StatusForbidden {
				t.Fatalf("a cross-origin handshake: %v %v, want 403", err, res)
			}
			if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
				t.Errorf("403 answered as %q, want JSON", res.Header.Get("Content-Type"))
			}
		})
		t.Run("a widget's socket from its site", func(t *testing.T) {
			ws := visitorSocket(t, base, widget, widgetToken, http.Header{"Origin": {"https://shop.example.com"}})
			if m, err := next(t, ws); err != nil || m["event"] != "subscribed" {
				t.Fatalf("welcome: %v %v", m, err)
			}
		})
		t.Run("one socket more than a visitor may hold", func(t *testing.T) {
			for i := 0; i < visitors.MaxSocketsPerVisitor; i++ {
				if m, err := next(t, visitorSocket(t, base, p, token, nil)); err != nil || m["event"] != "subscribed" {
					t.Fatalf("socket %d: %v %v", i+1, m, err)
				}
			}
			_, err := next(t, visitorSocket(t, base, p, token, nil))
			if closeCode(err) != websocket.CloseTryAgainLater {
				t.Errorf("closed with %v, want 1013", err)
			}
		})
	})
}
