package web_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/web"
)

// TestLiveSocketsEndWithTheirSession: a live page's socket (board,
// conversation, calendar) is closed as "access ended" (1008) at the first
// ping after its viewer may no longer follow it: its session ended, by
// signing out elsewhere or by a password reset, or its user was removed
// from the account, or from the inbox of the conversation it follows, or
// its role changed (the page's filter judges as the socket opened).
// Another session's socket stays open. Pings every 100 ms.
func TestLiveSocketsEndWithTheirSession(t *testing.T) {
	t.Cleanup(web.SetLiveTimings(2*time.Second, 100*time.Millisecond))
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		inbox := idOf(c.mustGet(c.api(fmt.Sprintf("/conversations/%d", p.conv))), "inbox_id")
		admin := func() string { return c.signIn("admin@acme.test", "long-enough-pass") }
		// agent signs a new agent in, added to the conversation's inbox, and
		// keeps their id for end.
		var agentID int
		agent := func(name string) func() string {
			return func() string {
				id, cookie := signedInAgent(c, name)
				agentID = id
				c.mustPost(c.api("/inbox_members"), map[string]any{"inbox_id": inbox, "user_ids": []int{id}})
				return cookie
			}
		}
		// administrator is agent made an administrator before signing in.
		administrator := func(name string) func() string {
			return func() string {
				id, _ := signedInAgent(c, name)
				agentID = id
				c.mustPatch(c.api(fmt.Sprintf("/agents/%d", id)), map[string]any{"role": "administrator"})
				return c.signIn(name+"@acme.test", name+"-long-pass")
			}
		}
		for _, tc := range []struct {
			name, path string
			signIn     func() string
			end        func(cookie string)
			othersStay bool // a password reset ends every session of the user
		}{
			{"the board, signed out in another tab", fmt.Sprintf("/funnels/%d/live", p.funnel), admin, c.signOut, true},
			{"a conversation, signed out in another tab", fmt.Sprintf("/conversations/%d/live", p.conv), admin, c.signOut, true},
			{"the calendar, its agent removed from the account", "/schedules/live", agent("grace"), func(string) {
				c.deleteAPI(c.api(fmt.Sprintf("/agents/%d", agentID)))
			}, true},
			{"the calendar, its administrator made an agent", "/schedules/live", administrator("ada"), func(string) {
				c.mustPatch(c.api(fmt.Sprintf("/agents/%d", agentID)), map[string]any{"role": "agent"})
			}, true},
			{"a conversation, its agent removed from the inbox", fmt.Sprintf("/conversations/%d/live", p.conv), agent("alan"), func(string) {
				c.mustPatch(c.api("/inbox_members"), map[string]any{"inbox_id": inbox, "user_ids": []int{}})
			}, true},
			// last: it ends the administrator's first session too
			{"the calendar, after a password reset", "/schedules/live", admin, func(string) {
				if _, err := c.srv.Svc.ResetPassword(context.Background(), "admin@acme.test", "another-long-pass"); err != nil {
					t.Fatal(err)
				}
			}, false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				cookie := tc.signIn()
				pings, closed := c.openLive(tc.path, cookie)
				deadline := time.After(5 * time.Second)
				for range 3 { // three checks of a live session
					select {
					case <-pings:
					case code := <-closed:
						t.Fatalf("the socket of a live session closed (%d)", code)
					case <-deadline:
						t.Fatal("no pings")
					}
				}
				otherPings, otherClosed := c.openLive(tc.path, c.cookie) // the administrator's first session
				tc.end(cookie)
				select {
				case code := <-closed:
					if code != websocket.ClosePolicyViolation {
						t.Errorf("after the viewer's access ended the socket closed with %d, want %d", code, websocket.ClosePolicyViolation)
					}
				case <-time.After(5 * time.Second):
					t.Error("the socket is still open 5 s after its viewer's access ended")
				}
				if !tc.othersStay {
					return
				}
				for range 3 { // pings after the other socket's close
					select {
					case <-otherPings:
					case code := <-otherClosed:
						t.Fatalf("another session's socket closed (%d)", code)
					case <-time.After(5 * time.Second):
						t.Fatal("no pings on another session's socket")
					}
				}
			})
		}
	})
}

// openLive connects to a live page and reads until the socket ends (pongs
// go back while reading): pings tells of each ping, closed of the close
// code (-1: ended some other way).
func (c *console) openLive(path, cookie string) (pings <-chan struct{}, closed <-chan int) {
	c.t.Helper()
	ws := c.dialLive(path, cookie)
	pinged, ended := make(chan struct{}, 100), make(chan int, 1)
	ws.SetPingHandler(func(data string) error {
		pinged <- struct{}{}
		return ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
	})
	go func() {
		for {
			_, _, err := ws.ReadMessage()
			if err == nil {
				continue // an event of the setup's, late through NOTIFY
			}
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				ended <- ce.Code
			} else {
				ended <- -1
			}
			return
		}
	}()
	return pinged, ended
}

// TestLivePagesStopWhenTheSessionEndsInChromium: signed out in another
// tab, the open board, conversation and calendar stop following (their
// sockets closed by the server, the reconnection refused) and say that the
// session ended, instead of reconnecting for ever.
func TestLivePagesStopWhenTheSessionEndsInChromium(t *testing.T) {
	t.Cleanup(web.SetLiveTimings(2*time.Second, 100*time.Millisecond))
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		pages := []struct{ what, path, live string }{
			{"the board", fmt.Sprintf("/funnels/%d/board", p.funnel), "document.getElementById('board').dataset.live"},
			{"the conversation", fmt.Sprintf("/conversations/%d", p.conv), "document.getElementById('thread').dataset.live"},
			{"the calendar", "/schedules", "document.getElementById('calendar-grid').dataset.live"},
		}
		tabs := make([]string, len(pages))
		for i, pg := range pages {
			tabs[i] = b.open(c.base + c.app(pg.path))
			b.waitTrue(tabs[i], pg.what+" following changes", pg.live+" === 'open'")
		}
		b.goTo(tab, c.base+c.app("/contacts"), "the contacts page", `document.querySelector('[data-testid=logout]')`)
		b.eval(tab, `window.leaving = true; document.querySelector('[data-testid=logout]').click(); true`)
		b.waitTrue(tab, "the sign-in page", `!window.leaving && document.querySelector('input[name=password]')`)
		for i, pg := range pages {
			b.waitTrue(tabs[i], pg.what+" no longer following", pg.live+" === 'ended'")
			b.waitTrue(tabs[i], "the session-ended notice on "+pg.what, `!document.querySelector('[data-testid=session-ended]').hidden`)
		}
	})
}

// TestLiveSocketIsNoUseOfTheSession: the socket's checks of its session
// do not count as use, so a page left open does not keep its session from
// ending after 12 hours unused: after them last_seen_at is still the
// sign-in's, though the clock has moved past the minute that a page view
// would record.
func TestLiveSocketIsNoUseOfTheSession(t *testing.T) {
	t.Cleanup(web.SetLiveTimings(2*time.Second, 100*time.Millisecond))
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		clock := newManualClock()
		c := newConsoleWith(t, e, server.Config{Now: clock.Now})
		signedIn := clock.Now()
		header := http.Header{"Cookie": {c.cookie}, "Origin": {c.base}}
		ws, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(c.base, "http")+c.app("/schedules/live"), header)
		if err != nil {
			t.Fatalf("opening the calendar's socket: %v (%v)", err, res)
		}
		t.Cleanup(func() { ws.Close() })
		clock.Advance(2 * time.Minute)
		pings := make(chan struct{}, 100)
		ws.SetPingHandler(func(data string) error {
			pings <- struct{}{}
			return ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
		})
		go func() {
			for {
				if _, _, err := ws.ReadMessage(); err != nil {
					return
				}
			}
		}()
		for range 3 { // each ping follows a check
			select {
			case <-pings:
			case <-time.After(5 * time.Second):
				t.Fatal("no pings")
			}
		}
		sess, err := c.srv.DB.Client.ConsoleSession.Query().Only(viewer.SystemContext(context.Background()))
		if err != nil {
			t.Fatal(err)
		}
		if !sess.LastSeenAt.Equal(signedIn) {
			t.Errorf("last_seen_at moved to %v (signed in at %v)", sess.LastSeenAt, signedIn)
		}
	})
}

// dialLive connects to the live page path with the session cookie; the
// socket closes with the test.
func (c *console) dialLive(path, cookie string) *websocket.Conn {
	c.t.Helper()
	header := http.Header{"Cookie": {cookie}, "Origin": {c.base}}
	ws, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(c.base, "http")+c.app(path), header)
	if err != nil {
		c.t.Fatalf("opening %s: %v (%v)", path, err, res)
	}
	c.t.Cleanup(func() { ws.Close() })
	return ws
}
