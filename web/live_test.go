package web_test

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/web"
)

// TestConsoleBoardSocketKeepsTime: the board's socket pings its viewer;
// one answering with pongs stays connected past many pong waits, one whose
// pongs stop is disconnected after one pong wait. The waits are shortened
// to 300 ms (pings every 100 ms).
func TestConsoleBoardSocketKeepsTime(t *testing.T) {
	t.Cleanup(web.SetLiveTimings(300*time.Millisecond, 100*time.Millisecond))
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		_, f := c.post(c.api("/funnels"), map[string]any{"name": "Sales", "stages": []map[string]any{
			{"name": "New", "slug": "new"}, {"name": "Won", "slug": "won"}}}, true)
		funnel := int(f["id"].(float64))
		st, card := c.post(c.api("/kanban_items"), map[string]any{"funnel_id": funnel, "funnel_stage": "new",
			"item_details": map[string]any{"title": "Acme"}}, true)
		if st != http.StatusOK {
			t.Fatalf("creating a card: %d %v", st, card)
		}
		cardID := int(card["id"].(float64))
		// The card's creation may still be on its way through NOTIFY: a
		// socket opened before it arrives would be sent it.
		apitest.Settle(t, c.srv.Events, c.account)
		open := func(answer bool) (*websocket.Conn, <-chan struct{}) {
			header := http.Header{"Cookie": {c.cookie}, "Origin": {c.base}}
			ws, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(c.base, "http")+c.app(fmt.Sprintf("/funnels/%d/live", funnel)), header)
			if err != nil {
				t.Fatalf("opening the live board: %v (%v)", err, res)
			}
			t.Cleanup(func() { ws.Close() })
			pings := make(chan struct{}, 100)
			ws.SetPingHandler(func(data string) error {
				pings <- struct{}{}
				if !answer {
					return nil // a viewer gone silent
				}
				return ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
			})
			return ws, pings
		}

		t.Run("a viewer answering pings stays past five pong waits", func(t *testing.T) {
			ws, pings := open(true)
			events := make(chan string, 1)
			go func() {
				_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
				for {
					_, data, err := ws.ReadMessage() // pings are answered while reading
					if err != nil {
						events <- err.Error()
						return
					}
					// On PostgreSQL the setup's card creation comes back
					// through NOTIFY and may arrive after subscribing: a
					// real event, not the end of the socket.
					if strings.Contains(string(data), `"created"`) {
						continue
					}
					events <- string(data)
					return
				}
			}()
			deadline := time.After(10 * time.Second)
			for range 16 { // 16 pings at 100 ms: 1.6 s, over five 300 ms waits
				select {
				case <-pings:
				case ev := <-events:
					t.Fatalf("the socket ended while answering pings: %s", ev)
				case <-deadline:
					t.Fatal("no pings from the board's socket")
				}
			}
			c.post(c.api(fmt.Sprintf("/kanban_items/%d/move_to_stage", cardID)), map[string]any{"funnel_stage": "won"}, true)
			if ev := <-events; !strings.Contains(ev, `"moved"`) {
				t.Errorf("after the pings, the board sent %s, want the move", ev)
			}
		})
		t.Run("a viewer that stops answering is disconnected", func(t *testing.T) {
			ws, pings := open(false)
			_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
			start := time.Now()
			_, _, err := ws.ReadMessage()
			var ne net.Error
			if err == nil || errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("the silent viewer's socket was not closed by the server: %v", err)
			}
			if len(pings) == 0 {
				t.Errorf("the socket closed (%v) without pinging first", err)
			}
			t.Logf("disconnected after %v: %v", time.Since(start).Round(time.Millisecond), err)
		})
	})
}
