package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/events"
)

// Live updates of a board, per gorilla/websocket's chat example: the
// handler's goroutine writes (pings included), a second one reads (to see
// the close and the pongs), a viewer too slow to keep up is dropped and
// refetches on reconnect. A viewer whose pongs stop for pongWait is gone
// (a closed laptop, a dropped network): its socket is closed.
type liveTimings struct {
	writeWait  time.Duration // to write one message
	pongWait   time.Duration // for the next pong (or message) from the viewer
	pingPeriod time.Duration // between pings; under pongWait
}

// boardTimings holds the timings; tests shorten them (export_test.go) while
// servers run, hence the atomic.
var boardTimings atomic.Pointer[liveTimings]

func init() {
	boardTimings.Store(&liveTimings{writeWait: 10 * time.Second, pongWait: 60 * time.Second, pingPeriod: 54 * time.Second})
}

// maxViewerMessage bounds what a viewer may send: the board needs nothing
// from it, so anything larger ends the socket.
const maxViewerMessage = 512

var upgrader = websocket.Upgrader{
	// The session cookie is SameSite=Lax, but a websocket handshake is a
	// GET any page may start: only the console's own pages may connect.
	CheckOrigin: sameOrigin,
}

func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	return origin == "" || strings.TrimPrefix(strings.TrimPrefix(origin, "https://"), "http://") == r.Host
}

// live streams the board's changes as small JSON events ({kind, item_id,
// seq}; kind "stages" when its stages changed); the page refetches its
// columns on each.
func (c *Console) live(ctx *fiber.Ctx) error {
	id, err := strconv.Atoi(ctx.Params("funnel_id"))
	if err != nil {
		return apperr.NotFound("Funnel")
	}
	f, err := c.svc.Funnel(ctx.UserContext(), id) // 404 unless the viewer may see it
	if err != nil {
		return err
	}
	return c.serveLive(ctx, func(e events.Event) (fiber.Map, bool) {
		if !e.ChangesBoard(f.ID) {
			return nil, false
		}
		kind := e.Kind.CardAction()
		if e.Kind == events.FunnelStagesChanged {
			kind = "stages"
		}
		return fiber.Map{"kind": kind, "item_id": e.KanbanItemID, "seq": e.Seq}, true
	}, func(ctx context.Context) error {
		_, err := c.svc.Funnel(ctx, f.ID)
		return err
	})
}

// readUntilClosed reads (and drops) what the browser sends, answering
// pings, until the connection ends; a pong renews the read deadline, so a
// viewer that stops answering the writer's pings ends it.
func readUntilClosed(conn *websocket.Conn, gone chan<- struct{}, pongWait time.Duration) {
	defer close(gone)
	conn.SetReadLimit(maxViewerMessage)
	_ = conn.SetReadDeadline(time.Now().Add(pongWait))
	conn.SetPongHandler(func(string) error { return conn.SetReadDeadline(time.Now().Add(pongWait)) })
	for {
		if _, _, err := conn.NextReader(); err != nil {
			return
		}
	}
}
