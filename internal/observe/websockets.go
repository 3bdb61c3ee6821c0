package observe

import (
	"bufio"
	"encoding/binary"
	"net"
	"net/http"
	"sync/atomic"
)

// CloseGoingAway is the websocket close code that tells a client the
// server is going away, so it reconnects (to another instance).
const CloseGoingAway = 1001

// Websockets counts the connections its handlers hijack (websockets) and,
// once GoingAway is called, turns the close frame each one sends into
// 1001 "going away". gqlgen's websocket transport closes a subscription
// with 1000 when its context ends and has no hook for the code; rewriting
// the close frame on the wire is the one place both it and the console's
// board stream pass through.
type Websockets struct {
	open      atomic.Int64
	goingAway atomic.Bool
}

// Open is how many hijacked connections are open.
func (w *Websockets) Open() int64 { return w.open.Load() }

// GoingAway marks the server as shutting down: close frames from now on
// carry 1001.
func (w *Websockets) GoingAway() { w.goingAway.Store(true) }

// Wrap passes h a ResponseWriter whose hijacked connection w tracks.
func (w *Websockets) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if hj, ok := rw.(http.Hijacker); ok {
			rw = &hijackWriter{ResponseWriter: rw, hj: hj, ws: w}
		}
		h.ServeHTTP(rw, r)
	})
}

type hijackWriter struct {
	http.ResponseWriter
	hj http.Hijacker
	ws *Websockets
}

func (h *hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := h.hj.Hijack()
	if err != nil {
		return nil, nil, err
	}
	h.ws.open.Add(1)
	c := &trackedConn{Conn: conn, ws: h.ws}
	// The buffered writer must write through the tracked connection too
	// (when it holds nothing: Reset would drop what it holds).
	if brw.Writer.Buffered() == 0 {
		brw.Writer.Reset(c)
	}
	return c, brw, nil
}

type trackedConn struct {
	net.Conn
	ws     *Websockets
	closed atomic.Bool
}

func (c *trackedConn) Write(p []byte) (int, error) {
	if c.ws.goingAway.Load() && isServerCloseFrame(p) {
		if _, err := c.Conn.Write(goingAwayFrame); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

func (c *trackedConn) Close() error {
	if c.closed.CompareAndSwap(false, true) {
		c.ws.open.Add(-1)
	}
	return c.Conn.Close()
}

// isServerCloseFrame: a final close frame (FIN + opcode 8), unmasked as a
// server's frames are, whole in one write (gorilla writes a control frame
// in one call; control frames carry at most 125 bytes).
func isServerCloseFrame(p []byte) bool {
	return len(p) >= 2 && p[0] == 0x88 && p[1]&0x80 == 0 && int(p[1]) == len(p)-2
}

var goingAwayFrame = func() []byte {
	reason := "server shutting down"
	f := []byte{0x88, byte(2 + len(reason)), 0, 0}
	binary.BigEndian.PutUint16(f[2:], CloseGoingAway)
	return append(f, reason...)
}()
