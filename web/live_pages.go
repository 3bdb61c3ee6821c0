package web

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/viewer"
)

// The live pages (the board, the calendar, the conversations) share one
// websocket loop (the discipline is described in board.go), each with a
// filter that picks the events it follows and what it is told of each. A
// page is told only kinds and ids of what changed and refetches through the
// operations, so what it then shows is what the viewer may see.

// liveFilter turns an event into the message a page gets (false: none).
type liveFilter func(events.Event) (fiber.Map, bool)

// serveLive upgrades the request and streams the account's events through
// filter until the page or the server goes, or the viewer may no longer
// follow it. still, when not nil, is the page's own check of a fresh
// viewer (a conversation still visible), made at each ping with the
// session's.
func (c *Console) serveLive(ctx *fiber.Ctx, filter liveFilter, still func(context.Context) error) error {
	v, _ := viewer.FromContext(ctx.UserContext())
	token := strings.Clone(ctx.Cookies(sessionCookie)) // fiber reuses the request's memory
	return adaptor.HTTPHandler(c.ws.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sub := c.hub.Subscribe(v.AccountID) // before the handshake ends: nothing made after is missed
		defer sub.Cancel()
		conn, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		c.streamPage(conn, sub, filter, func() bool { return c.mayFollow(token, v, still) })
	})))(ctx)
}

// streamPage sends what filter makes of the account's events until the
// viewer or the server goes, or events may have been missed (the viewer
// fell behind, or another instance's events were lost): then the socket
// closes and the page reconnects and refetches. Going away at shutdown, the
// page reconnects, to another instance if this one is stopping. Each ping
// first asks allowed (mayFollow): a session ended since the socket opened
// (signed out elsewhere, a password reset, perhaps on another instance or
// by the operator's command), or a viewer no longer allowed the page,
// closes it, and the page, refused on reconnecting, says so.
func (c *Console) streamPage(conn *websocket.Conn, sub *events.Subscription, filter liveFilter, allowed func() bool) {
	defer conn.Close()
	t := *boardTimings.Load()
	gone := make(chan struct{})
	go readUntilClosed(conn, gone, t.pongWait)
	ping := time.NewTicker(t.pingPeriod)
	defer ping.Stop()
	closeWith := func(code int, why string) {
		_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, why), time.Now().Add(t.writeWait))
	}
	for {
		select {
		case <-c.ctx.Done():
			closeWith(websocket.CloseGoingAway, "server shutting down")
			return
		case <-gone:
			return
		case e, ok := <-sub.Events:
			if !ok || !sub.InOrder(e) {
				closeWith(websocket.CloseTryAgainLater, "events missed: refetch")
				return
			}
			msg, ok := filter(e)
			if !ok {
				continue
			}
			_ = conn.SetWriteDeadline(time.Now().Add(t.writeWait))
			if err := conn.WriteJSON(msg); err != nil {
				return
			}
		case <-ping.C:
			if !allowed() {
				closeWith(websocket.ClosePolicyViolation, "access ended")
				return
			}
			_ = conn.SetWriteDeadline(time.Now().Add(t.writeWait))
			if err := conn.WriteMessage(websocket.PingMessage, nil); err != nil {
				return
			}
		}
	}
}

// scheduleLive serves the calendar's socket: any change of a schedule in
// an inbox the viewer works in (the others' ids are not theirs to hear of).
func (c *Console) scheduleLive(ctx *fiber.Ctx) error {
	v, _ := viewer.FromContext(ctx.UserContext())
	worksIn := c.inboxesWorked(v)
	return c.serveLive(ctx, func(e events.Event) (fiber.Map, bool) {
		switch e.Kind {
		case events.ScheduledMessageCreated, events.ScheduledMessageUpdated, events.ScheduledMessageDeleted,
			events.ScheduledMessageSent, events.ScheduledMessageFailed:
			return fiber.Map{"kind": e.Kind, "schedule_id": e.ScheduleID}, worksIn(e.InboxID)
		}
		return nil, false
	}, nil)
}
