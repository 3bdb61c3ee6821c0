package rest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/observe"
	"github.com/switchboard/switchboard/internal/visitors"
	"github.com/switchboard/switchboard/internal/wire"
)

// Live is what the visitors' sockets need of the server: a context that
// ends at shutdown (they outlive any request) and the tracker that counts
// hijacked connections and turns their close into 1001 at shutdown.
type Live struct {
	Ctx        context.Context
	Websockets *observe.Websockets
}

// A visitor's socket, per gorilla/websocket's chat example: the handler's
// goroutine writes (pings included), a second one reads. The visitor
// authenticates with its first message, {"pubsub_token": "..."}, within
// visitorAuthWait (a token in the URL would reach access logs); the
// server answers {"event": "subscribed"}, then each of the visitor's
// events as {"event", "seq", "data"} in Chatwoot's names (message.created,
// message.updated, conversation.status_changed). A visitor too slow to keep
// up, or one that missed events, is closed with 1013 and refetches.
const (
	visitorWriteWait  = 10 * time.Second
	visitorPongWait   = 60 * time.Second
	visitorPingPeriod = visitorPongWait * 9 / 10
	visitorAuthWait   = 10 * time.Second
	visitorMaxMessage = 1024
)

var visitorEventNames = map[events.Kind]string{
	events.MessageCreated:            "message.created",
	events.MessageUpdated:            "message.updated",
	events.ConversationStatusChanged: "conversation.status_changed",
}

// visitorLive upgrades a visitor's socket. A web widget's socket must come
// from its website (the Origin header); an API inbox's clients are apps
// and servers of any origin, authenticated by the token alone (it is no
// cookie, so another page cannot borrow it).
func (a *API) visitorLive(c *fiber.Ctx) error {
	ib, err := a.svc.Visitors.PublicInbox(c.UserContext(), c.Params("inbox_identifier"))
	if err != nil {
		return err
	}
	if !strings.EqualFold(c.Get(fiber.HeaderUpgrade), "websocket") {
		return apperr.BadRequest("This is the visitor's websocket: open it with a websocket handshake")
	}
	up := websocket.Upgrader{
		CheckOrigin: func(r *http.Request) bool { return widgetOrigin(ib.ChannelType, ib.Channel.WebsiteURL, r) },
		Error:       upgradeError,
	}
	identifier, base := strings.Clone(c.Params("inbox_identifier")), c.BaseURL()
	return adaptor.HTTPHandler(a.live.Websockets.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return // the upgrader has answered
		}
		defer conn.Close()
		a.serveVisitor(conn, identifier, base)
	})))(c)
}

// upgradeError answers a refused handshake with the API's one error shape.
func upgradeError(w http.ResponseWriter, _ *http.Request, status int, reason error) {
	if status == http.StatusForbidden {
		reason = errors.New("Cross-origin socket refused: a web widget's socket must come from its website")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(errorBody{Error: reason.Error()})
}

// widgetOrigin: no Origin (not a browser) passes; a web widget's browser
// must come from the widget's website.
func widgetOrigin(t inbox.ChannelType, website string, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || t != inbox.ChannelTypeWebWidget {
		return true
	}
	o, err1 := url.Parse(origin)
	w, err2 := url.Parse(website)
	return err1 == nil && err2 == nil && strings.EqualFold(o.Host, w.Host)
}

// serveVisitor authenticates the socket, subscribes and streams.
func (a *API) serveVisitor(conn *websocket.Conn, identifier, base string) {
	conn.SetReadLimit(visitorMaxMessage)
	_ = conn.SetReadDeadline(time.Now().Add(visitorAuthWait))
	var hello struct {
		PubsubToken string `json:"pubsub_token"`
	}
	if _, data, err := conn.ReadMessage(); err != nil || json.Unmarshal(data, &hello) != nil {
		closeVisitor(conn, 4400, "Send {\"pubsub_token\": \"...\"} first")
		return
	}
	st, err := a.svc.Visitors.Follow(a.live.Ctx, identifier, hello.PubsubToken)
	if err != nil {
		code := 4401
		if errors.Is(err, visitors.ErrSocketsFull) {
			code = websocket.CloseTryAgainLater
		}
		closeVisitor(conn, code, apperr.From(err).Message)
		return
	}
	defer st.Close()
	// Subscribed before the welcome: a reply sent as soon as the visitor
	// hears it is not missed.
	sub := a.svc.Hub.Subscribe(st.Visitor.Inbox.AccountID)
	defer sub.Cancel()
	_ = conn.SetWriteDeadline(time.Now().Add(visitorWriteWait))
	if conn.WriteJSON(H{"event": "subscribed"}) != nil {
		return
	}
	a.streamVisitor(conn, st, sub, base)
}

func (a *API) streamVisitor(conn *websocket.Conn, st *visitors.Stream, sub *events.Subscription, base string) {
	gone := make(chan struct{})
	go readVisitor(conn, gone)
	ping := time.NewTicker(visitorPingPeriod)
	defer ping.Stop()
	for {
		select {
		case <-a.live.Ctx.Done():
			closeVisitor(conn, websocket.CloseGoingAway, "server shutting down")
			return
		case <-gone:
			return
		case e, ok := <-sub.Events:
			if !ok || !sub.InOrder(e) {
				closeVisitor(conn, websocket.CloseTryAgainLater, "events missed: refetch")
				return
			}
			u, mine := st.Pick(e)
			if !mine {
				continue
			}
			_ = conn.SetWriteDeadline(time.Now().Add(visitorWriteWait))
			if conn.WriteJSON(a.visitorUpdate(u, st, base)) != nil {
				return
			}
		case <-ping.C:
			_ = conn.SetWriteDeadline(time.Now().Add(visitorWriteWait))
			if conn.WriteMessage(websocket.PingMessage, nil) != nil {
				return
			}
		}
	}
}

// visitorUpdate is one event as the visitor's socket sends it.
func (a *API) visitorUpdate(u *visitors.Update, st *visitors.Stream, base string) H {
	var data H
	if u.Page != nil {
		data = a.publicMessages(base, u.Page, st.Visitor.Contact())[0]
	} else {
		data = wire.PublicConversation(u.Conversation, nil)
		delete(data, "messages")
	}
	return H{"event": visitorEventNames[u.Kind], "seq": u.Seq, "data": data}
}

// readVisitor drops what the visitor sends after its token, answering
// pings, until the connection ends or its pongs stop.
func readVisitor(conn *websocket.Conn, gone chan<- struct{}) {
	defer close(gone)
	_ = conn.SetReadDeadline(time.Now().Add(visitorPongWait))
	conn.SetPongHandler(func(string) error { return conn.SetReadDeadline(time.Now().Add(visitorPongWait)) })
	for {
		if _, _, err := conn.NextReader(); err != nil {
			return
		}
	}
}

func closeVisitor(conn *websocket.Conn, code int, reason string) {
	if len(reason) > 120 {
		reason = reason[:120]
	}
	_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(visitorWriteWait))
}
