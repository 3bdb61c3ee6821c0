package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// console is the app served on a loopback port, with an administrator
// signed in to the console (its session cookie) and its API token.
type console struct {
	t       *testing.T
	base    string
	account int
	user    int // the administrator's user id
	token   string
	cookie  string
	srv     *server.Server
}

func newConsole(t *testing.T, e testdb.Engine) *console {
	t.Helper()
	return newConsoleWith(t, e, server.Config{})
}

// newConsoleWith is newConsole with the server configured by cfg.
func newConsoleWith(t *testing.T, e testdb.Engine, cfg server.Config) *console {
	t.Helper()
	cfg.StorageDir = t.TempDir()
	srv := server.New(cfg, e.New(t))
	t.Cleanup(func() { _ = srv.Shutdown() })
	b, err := srv.Svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: "Acme", Email: "admin@acme.test", Name: "Ada", Password: "long-enough-pass",
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.App.Listener(ln) }()
	c := &console{t: t, base: "http://" + ln.Addr().String(), account: b.AccountID, user: b.UserID, token: b.AccessToken, srv: srv}
	c.cookie = c.signIn("admin@acme.test", "long-enough-pass")
	return c
}

var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func (c *console) signIn(email, password string) string {
	c.t.Helper()
	res, err := noRedirects.PostForm(c.base+"/app/login", url.Values{"email": {email}, "password": {password}})
	if err != nil {
		c.t.Fatal(err)
	}
	res.Body.Close()
	for _, ck := range res.Cookies() {
		if ck.Name == "sb_session" {
			return ck.Name + "=" + ck.Value
		}
	}
	c.t.Fatalf("sign-in answered %d without a session cookie", res.StatusCode)
	return ""
}

// page GETs a console path with the session and returns status and body.
func (c *console) page(path, cookie string) (int, string) {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.base+path, nil)
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	res, err := noRedirects.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// post sends JSON to a path, with the API token (api) or the session.
func (c *console) post(path string, body any, api bool) (int, map[string]any) {
	c.t.Helper()
	return c.sendJSON("POST", path, body, api)
}

// sendJSON sends JSON to a path by method, with the API token (api) or the
// session.
func (c *console) sendJSON(method, path string, body any, api bool) (int, map[string]any) {
	c.t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, c.base+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if api {
		req.Header.Set("api_access_token", c.token)
	} else {
		req.Header.Set("Cookie", c.cookie)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

func (c *console) api(path string) string {
	return fmt.Sprintf("/api/v1/accounts/%d%s", c.account, path)
}
func (c *console) app(path string) string { return fmt.Sprintf("/app/accounts/%d%s", c.account, path) }

// column returns the HTML of one stage's column of a board page.
func column(body, slug string) string {
	i := strings.Index(body, `data-testid="stage-`+slug+`"`)
	if i < 0 {
		return ""
	}
	rest := body[i:]
	if j := strings.Index(rest[1:], `data-testid="stage-`); j >= 0 {
		return rest[:j+1]
	}
	return rest
}

func TestConsoleBoardMovesCardsLive(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		_, f := c.post(c.api("/funnels"), map[string]any{"name": "Sales", "stages": []map[string]any{
			{"name": "New", "slug": "new"}, {"name": "Won", "slug": "won"}}}, true)
		funnel := int(f["id"].(float64))
		var cards []int
		for _, title := range []string{"Acme", "Globex"} {
			st, card := c.post(c.api("/kanban_items"), map[string]any{"funnel_id": funnel, "funnel_stage": "new",
				"item_details": map[string]any{"title": title}}, true)
			if st != http.StatusOK {
				t.Fatalf("creating a card: %d %v", st, card)
			}
			cards = append(cards, int(card["id"].(float64)))
		}

		st, body := c.page(c.app("/funnels"), c.cookie)
		if st != http.StatusOK || !strings.Contains(body, "Sales") {
			t.Fatalf("the boards list: %d %s", st, body)
		}
		st, body = c.page(c.app(fmt.Sprintf("/funnels/%d/board", funnel)), c.cookie)
		if st != http.StatusOK {
			t.Fatalf("the board: %d %s", st, body)
		}
		for _, id := range cards {
			if !strings.Contains(column(body, "new"), fmt.Sprintf(`data-testid="card-%d"`, id)) {
				t.Errorf("card %d is not in the New column of the board", id)
			}
		}
		if st, _ := c.page(c.app(fmt.Sprintf("/funnels/%d/board", funnel)), ""); st != http.StatusSeeOther {
			t.Errorf("the board without a session answered %d, want a redirect to sign in", st)
		}

		// A second viewer follows the board over its websocket.
		header := http.Header{"Cookie": {c.cookie}, "Origin": {c.base}}
		ws, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(c.base, "http")+c.app(fmt.Sprintf("/funnels/%d/live", funnel)), header)
		if err != nil {
			t.Fatalf("opening the live board: %v (%v)", err, res)
		}
		defer ws.Close()

		// A drop on the board: the second card to the top of Won.
		if st, out := c.post(c.app(fmt.Sprintf("/kanban_items/%d/move", cards[1])), map[string]any{"funnel_stage": "won", "position": 0}, false); st != http.StatusOK {
			t.Fatalf("moving from the console: %d %v", st, out)
		}
		expectBoardEvent(t, ws, "moved", cards[1])
		_, frag := c.page(c.app(fmt.Sprintf("/funnels/%d/board?fragment=1", funnel)), c.cookie)
		if !strings.Contains(column(frag, "won"), fmt.Sprintf(`data-testid="card-%d"`, cards[1])) || strings.Contains(frag, "<html") {
			t.Errorf("the board fragment does not show card %d in Won: %s", cards[1], frag)
		}

		// A move made through the REST API reaches the board too.
		c.post(c.api(fmt.Sprintf("/kanban_items/%d/move_to_stage", cards[0])), map[string]any{"funnel_stage": "won"}, true)
		expectBoardEvent(t, ws, "moved", cards[0])

		if st, out := c.post(c.app(fmt.Sprintf("/kanban_items/%d/move", cards[0])), map[string]any{"funnel_stage": "nowhere"}, false); st != http.StatusUnprocessableEntity {
			t.Errorf("a move to an unknown stage answered %d %v, want 422", st, out)
		}

		evil := http.Header{"Cookie": {c.cookie}, "Origin": {"http://evil.example"}}
		if _, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(c.base, "http")+c.app(fmt.Sprintf("/funnels/%d/live", funnel)), evil); err == nil || res == nil || res.StatusCode != http.StatusForbidden {
			t.Errorf("a page of another origin opened the live board (err %v)", err)
		}
	})
}

func expectBoardEvent(t *testing.T, ws *websocket.Conn, kind string, card int) {
	t.Helper()
	_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		var ev struct {
			Kind   string `json:"kind"`
			ItemID int    `json:"item_id"`
		}
		if err := ws.ReadJSON(&ev); err != nil {
			t.Fatalf("reading the live board: %v", err)
		}
		// On PostgreSQL events come back through NOTIFY, so the creation
		// of the setup's cards, made just before the viewer connected,
		// may reach it after it subscribed: real events, not the one
		// awaited.
		if ev.Kind == "created" && kind != "created" {
			continue
		}
		if ev.Kind != kind || ev.ItemID != card {
			t.Errorf("the live board sent %+v, want %s of card %d", ev, kind, card)
		}
		return
	}
}
