package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/gorilla/websocket"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// wsTransport serves GraphQL over websockets in the graphql-transport-ws
// protocol (https://github.com/enisdenjo/graphql-ws/blob/master/PROTOCOL.md),
// with its close codes: 4408 when connection_init is late, 4403 when it
// does not authenticate, 4400 for a malformed message, 4401 for a
// subscribe before the ack, 4409 for an id in use, 4429 for a second init.
// gqlgen's own transport closes with 1000/1002 instead and echoes the init
// payload (the access token) in its ack.
//
// Per gorilla/websocket's chat example, one goroutine reads (the handler's)
// and one writes (pings included); every subscription runs in its own
// goroutine under the connection's context, and all of them have ended
// when the handler returns.
type wsTransport struct {
	upgrader websocket.Upgrader
	limits   Limits
	// authenticate turns the init payload into the connection's context.
	// addr is the client's address, for throttling wrong tokens.
	authenticate func(ctx context.Context, addr string, payload map[string]any) (context.Context, error)
	// reauthenticate checks the init payload again (ws_recheck.go).
	reauthenticate func(ctx context.Context, payload map[string]any) (context.Context, error)
}

const (
	wsProtocol     = "graphql-transport-ws"
	wsWriteWait    = 10 * time.Second
	wsPongWait     = 60 * time.Second
	wsPingPeriod   = wsPongWait * 9 / 10
	wsMaxMessage   = 1 << 20
	wsSendBuffered = 16
)

type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

func (t *wsTransport) Supports(r *http.Request) bool { return websocket.IsWebSocketUpgrade(r) }

func (t *wsTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	conn, err := t.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	ctx, cancel := context.WithCancel(r.Context())
	c := &wsConn{t: t, conn: conn, exec: exec, headers: r.Header, addr: r.RemoteAddr, ctx: ctx, cancel: cancel,
		send: make(chan wsOut, wsSendBuffered), active: map[string]*wsSub{}}
	c.wg.Add(1)
	go c.write()
	c.read()
	cancel()
	c.wg.Wait()
}

// wsOut is a message to send, or (with code set) the close to end on.
type wsOut struct {
	msg    wsMessage
	code   int
	reason string
}

type wsConn struct {
	t       *wsTransport
	conn    *websocket.Conn
	exec    graphql.GraphExecutor
	headers http.Header
	addr    string
	ctx     context.Context // the connection's: ends with it, or at shutdown
	cancel  context.CancelFunc
	viewer  context.Context // ctx with the authenticated viewer, for operations
	payload map[string]any  // connection_init's, authenticated again every wsRecheckEvery
	send    chan wsOut
	wg      sync.WaitGroup

	mu     sync.Mutex
	active map[string]*wsSub
}

// wsSub is one running operation; its entry is removed by whoever ends it
// first (the client's complete, or its own end), and only its own: an id
// may be reused once completed.
type wsSub struct{ cancel context.CancelFunc }

// read runs the connection: the init within InitTimeout, then messages
// until the peer goes, a close is sent, or the app shuts down.
func (c *wsConn) read() {
	c.conn.SetReadLimit(wsMaxMessage)
	if c.conn.Subprotocol() != wsProtocol {
		c.closeWith(4406, "Subprotocol not acceptable: use "+wsProtocol)
		return
	}
	_ = c.conn.SetReadDeadline(time.Now().Add(c.t.limits.InitTimeout))
	if !c.init() {
		return
	}
	c.conn.SetPongHandler(func(string) error { return c.conn.SetReadDeadline(time.Now().Add(wsPongWait)) })
	for {
		_ = c.conn.SetReadDeadline(time.Now().Add(wsPongWait))
		m, ok := c.next()
		if !ok {
			return
		}
		switch m.Type {
		case "subscribe":
			c.subscribe(m)
		case "complete":
			c.stop(m.ID)
		case "ping":
			c.out(wsMessage{Type: "pong"})
		case "pong":
		case "connection_init":
			c.closeWith(4429, "Too many initialisation requests")
			return
		default:
			c.closeWith(4400, fmt.Sprintf("Invalid message type %q", m.Type))
			return
		}
	}
}

// next reads one message; false when the connection is over (a malformed
// message closes it with 4400).
func (c *wsConn) next() (wsMessage, bool) {
	var m wsMessage
	_, data, err := c.conn.ReadMessage()
	if err != nil {
		return m, false
	}
	if err := json.Unmarshal(data, &m); err != nil || m.Type == "" {
		c.closeWith(4400, "Invalid message: not a graphql-transport-ws message")
		return m, false
	}
	return m, true
}

func (c *wsConn) init() bool {
	var m wsMessage
	for {
		_, data, err := c.conn.ReadMessage()
		if err != nil {
			if ne, ok := err.(interface{ Timeout() bool }); ok && ne.Timeout() {
				c.closeWith(4408, "Connection initialisation timeout")
			}
			return false
		}
		m = wsMessage{}
		if json.Unmarshal(data, &m) != nil {
			c.closeWith(4400, "Invalid message: not a graphql-transport-ws message")
			return false
		}
		// Pings may come at any time; they do not extend the deadline.
		if m.Type == "ping" {
			c.out(wsMessage{Type: "pong"})
			continue
		}
		if m.Type != "pong" {
			break
		}
	}
	if m.Type != "connection_init" {
		c.closeWith(4401, "Unauthorized: connection_init must come first")
		return false
	}
	payload := map[string]any{}
	if len(m.Payload) > 0 && !bytes.Equal(m.Payload, []byte("null")) && json.Unmarshal(m.Payload, &payload) != nil {
		c.closeWith(4400, "Invalid connection_init payload: an object is expected")
		return false
	}
	ctx, err := c.t.authenticate(c.ctx, c.addr, payload)
	if err != nil {
		c.closeWith(4403, "Forbidden: "+shorten(err.Error(), 100))
		return false
	}
	c.mu.Lock() // the writer reads them to authenticate again
	c.viewer, c.payload = ctx, payload
	c.mu.Unlock()
	c.out(wsMessage{Type: "connection_ack"}) // never the payload: it holds the token
	return true
}

// shorten keeps a close reason within the 123 bytes a close frame allows.
func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// out queues a message for the writer; dropped once the connection ends.
func (c *wsConn) out(m wsMessage) {
	select {
	case c.send <- wsOut{msg: m}:
	case <-c.ctx.Done():
	}
}

// closeWith sends a close frame, after what is already queued, and ends
// the connection.
func (c *wsConn) closeWith(code int, reason string) {
	reason = shorten(reason, 120) // a close frame holds 123 bytes of reason
	select {
	case c.send <- wsOut{code: code, reason: reason}:
	case <-c.ctx.Done():
	}
}

// write sends queued messages and pings until the connection's context
// ends or a close is sent; it then closes the socket, which ends read.
func (c *wsConn) write() {
	defer c.wg.Done()
	ping := time.NewTicker(wsPingPeriod)
	defer ping.Stop()
	recheck := time.NewTicker(time.Duration(wsRecheckEvery.Load()))
	defer recheck.Stop()
	defer c.conn.Close()
	for {
		select {
		case <-recheck.C:
			if reason, ok := c.stillHolds(); !ok {
				_ = c.conn.SetWriteDeadline(time.Now().Add(wsWriteWait))
				_ = c.conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(4403, reason))
				c.cancel()
				return
			}
		case o := <-c.send:
			_ = c.conn.SetWriteDeadline(time.Now().Add(wsWriteWait))
			if o.code != 0 {
				_ = c.conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(o.code, o.reason))
				c.cancel()
				return
			}
			if err := c.conn.WriteJSON(o.msg); err != nil {
				c.cancel()
				return
			}
		case <-ping.C:
			_ = c.conn.SetWriteDeadline(time.Now().Add(wsWriteWait))
			if err := c.conn.WriteMessage(websocket.PingMessage, nil); err != nil {
				c.cancel()
				return
			}
		case <-c.ctx.Done():
			c.flush()
			return
		}
	}
}

// subscribe starts an operation under its id, unless the id is in use or
// the connection already runs MaxSubscriptions.
func (c *wsConn) subscribe(m wsMessage) {
	if m.ID == "" {
		c.closeWith(4400, "Invalid message: subscribe needs an id")
		return
	}
	c.mu.Lock()
	_, dup := c.active[m.ID]
	full := len(c.active) >= c.t.limits.MaxSubscriptions
	var ctx context.Context
	sub := &wsSub{}
	if !dup && !full {
		ctx, sub.cancel = context.WithCancel(c.viewer)
		c.active[m.ID] = sub
	}
	c.mu.Unlock()
	switch {
	case dup:
		c.closeWith(4409, "Subscriber for "+shorten(m.ID, 80)+" already exists")
		return
	case full:
		c.sendErrors(m.ID, gqlerror.List{limitError(codeTooManySubs,
			"a connection may run at most %d subscriptions at once; complete one first", c.t.limits.MaxSubscriptions)})
		return
	}
	c.wg.Add(1)
	go c.run(ctx, m, sub)
}

// stop ends the subscription id, at the client's request.
func (c *wsConn) stop(id string) {
	c.mu.Lock()
	sub := c.active[id]
	delete(c.active, id)
	c.mu.Unlock()
	if sub != nil {
		sub.cancel()
	}
}

// done removes a finished operation's entry, unless the client completed
// it already (and may have reused its id).
func (c *wsConn) done(id string, sub *wsSub) {
	c.mu.Lock()
	if c.active[id] == sub {
		delete(c.active, id)
	}
	c.mu.Unlock()
	sub.cancel()
}

// flush writes what was queued before the connection's end (a close the
// reader asked for among it) or else tells a peer still there that the
// server is going away.
func (c *wsConn) flush() {
	_ = c.conn.SetWriteDeadline(time.Now().Add(wsWriteWait))
	for {
		select {
		case o := <-c.send:
			if o.code != 0 {
				_ = c.conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(o.code, o.reason))
				return
			}
			if c.conn.WriteJSON(o.msg) != nil {
				return
			}
		default:
			_ = c.conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "server closing"))
			return
		}
	}
}

// run executes one operation and streams its results as next messages,
// then complete (unless the client completed it first). Errors before
// execution (parse, validation, limits) come as one error message.
func (c *wsConn) run(ctx context.Context, m wsMessage, sub *wsSub) {
	defer c.wg.Done()
	defer c.done(m.ID, sub)
	defer func() {
		if p := recover(); p != nil {
			err := presentError(ctx, recoverPanic(ctx, p))
			c.sendErrors(m.ID, gqlerror.List{err})
		}
	}()
	start := graphql.Now()
	params := &graphql.RawParams{}
	dec := json.NewDecoder(bytes.NewReader(m.Payload))
	dec.UseNumber() // as gqlgen's HTTP transports: integers stay exact
	if err := dec.Decode(params); err != nil {
		c.sendErrors(m.ID, gqlerror.List{{Message: "invalid subscribe payload: " + err.Error(), Extensions: map[string]any{"code": "BAD_REQUEST"}}})
		return
	}
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	params.Headers = c.headers
	ctx = graphql.StartOperationTrace(ctx)
	rc, errs := c.exec.CreateOperationContext(ctx, params)
	if errs != nil {
		resp := c.exec.DispatchError(graphql.WithOperationContext(ctx, rc), errs)
		c.sendErrors(m.ID, resp.Errors)
		return
	}
	// The answers run under the operation's context (it carries a query's
	// time limit); the subscription's own ends when the client completes it.
	responses, opCtx := c.exec.DispatchOperation(graphql.WithOperationContext(ctx, rc), rc)
	for {
		resp := responses(opCtx)
		if resp == nil || ctx.Err() != nil {
			break
		}
		b, err := json.Marshal(resp)
		if err != nil {
			break
		}
		c.out(wsMessage{ID: m.ID, Type: "next", Payload: b})
	}
	if ctx.Err() == nil {
		c.out(wsMessage{ID: m.ID, Type: "complete"})
	}
}

// sendErrors answers a subscribe with an error message, which also ends
// it.
func (c *wsConn) sendErrors(id string, errs gqlerror.List) {
	b, err := json.Marshal(errs)
	if err != nil {
		b = []byte(`[{"message":"internal error"}]`)
	}
	c.out(wsMessage{ID: id, Type: "error", Payload: b})
}
