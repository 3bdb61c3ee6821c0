package web_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/internal/testdb"
)

// At shutdown a live board is closed with 1001 ("going away"), so the page
// reconnects, to another instance if there is one.
func TestShutdownClosesLiveBoardsGoingAway(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		_, f := c.post(c.api("/funnels"), map[string]any{"name": "Sales", "stages": []map[string]any{
			{"name": "New", "slug": "new"}}}, true)
		funnel := int(f["id"].(float64))
		header := http.Header{"Cookie": {c.cookie}, "Origin": {c.base}}
		ws, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(c.base, "http")+c.app(fmt.Sprintf("/funnels/%d/live", funnel)), header)
		if err != nil {
			t.Fatalf("opening the live board: %v (%v)", err, res)
		}
		defer ws.Close()
		if err := c.srv.Shutdown(); err != nil {
			t.Fatalf("shutdown: %v", err)
		}
		_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		var ce *websocket.CloseError
		for {
			if _, _, err = ws.ReadMessage(); err != nil {
				break
			}
		}
		if !errors.As(err, &ce) || ce.Code != websocket.CloseGoingAway {
			t.Fatalf("the live board ended with %v, want close code 1001", err)
		}
	})
}
