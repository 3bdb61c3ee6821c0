package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
)

var (
	fanoutViewers = flag.Int("fanout-viewers", 1000, "websocket viewers of the board in BenchmarkBoardFanOut")
	fanoutMoves   = flag.Int("fanout-moves", 50, "card moves BenchmarkBoardFanOut times")
)

// BenchmarkBoardFanOut: -fanout-viewers sockets watch one board (split
// evenly between the instances, all on one database), and a card moves
// -fanout-moves times through the REST API of the first instance, each
// after every viewer received the previous move. A move's time runs from
// sending its request to the last viewer's receipt of it.
//
//	go test ./web -run '^$' -bench BenchmarkBoardFanOut -benchtime 1x
func BenchmarkBoardFanOut(b *testing.B) {
	for _, e := range testdb.Engines(b) {
		instances := []int{1}
		if e.Name == "postgres" {
			instances = append(instances, 2) // events cross through NOTIFY
		}
		for _, n := range instances {
			b.Run(fmt.Sprintf("%s/instances=%d", e.Name, n), func(b *testing.B) {
				w := newFanoutWorld(b, e, n)
				viewers := w.watch(b, *fanoutViewers)
				b.ResetTimer()
				var times []time.Duration
				for range b.N {
					times = append(times, w.moves(b, viewers, *fanoutMoves)...)
				}
				b.StopTimer()
				slices.Sort(times)
				b.ReportMetric(ms(percentile(times, 50)), "p50-ms")
				b.ReportMetric(ms(percentile(times, 95)), "p95-ms")
				b.ReportMetric(ms(times[len(times)-1]), "max-ms")
				b.ReportMetric(float64(*fanoutViewers), "viewers")
			})
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func percentile(sorted []time.Duration, p int) time.Duration {
	return sorted[min(len(sorted)-1, (len(sorted)*p+99)/100-1)]
}

// fanoutWorld is one account with a board and a card, served by several
// instances on one database.
type fanoutWorld struct {
	bases   []string
	token   string
	cookie  string
	account int
	funnel  int
	card    int
	stage   int // moves alternate between two stages
}

func newFanoutWorld(b *testing.B, e testdb.Engine, instances int) *fanoutWorld {
	b.Helper()
	u := e.NewURL(b)
	w := &fanoutWorld{}
	var svc *ops.Service
	for range instances {
		d, err := db.Open(u)
		if err != nil {
			b.Fatal(err)
		}
		srv := server.New(server.Config{StorageDir: b.TempDir()}, d)
		b.Cleanup(func() { _ = srv.Shutdown(); d.Close() })
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		go func() { _ = srv.App.Listener(ln) }()
		w.bases = append(w.bases, "http://"+ln.Addr().String())
		if svc == nil {
			svc = srv.Svc
		}
	}
	boot, err := svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: "Acme", Email: "admin@acme.test", Name: "Ada", Password: "long-enough-pass"})
	if err != nil {
		b.Fatal(err)
	}
	w.token, w.account = boot.AccessToken, boot.AccountID
	w.cookie = signInAt(b, w.bases[0], "admin@acme.test", "long-enough-pass")
	f := w.post(b, "/funnels", map[string]any{"name": "Sales", "stages": []map[string]any{
		{"name": "New", "slug": "new"}, {"name": "Won", "slug": "won"}}})
	w.funnel = int(f["id"].(float64))
	card := w.post(b, "/kanban_items", map[string]any{"funnel_id": w.funnel, "funnel_stage": "new",
		"item_details": map[string]any{"title": "Acme"}})
	w.card = int(card["id"].(float64))
	return w
}

func signInAt(b *testing.B, base, email, password string) string {
	b.Helper()
	res, err := noRedirects.PostForm(base+"/app/login", url.Values{"email": {email}, "password": {password}})
	if err != nil {
		b.Fatal(err)
	}
	res.Body.Close()
	for _, ck := range res.Cookies() {
		if ck.Name == "sb_session" {
			return ck.Name + "=" + ck.Value
		}
	}
	b.Fatalf("sign-in answered %d without a session cookie", res.StatusCode)
	return ""
}

// post sends body to an account API path on the first instance.
func (w *fanoutWorld) post(b *testing.B, path string, body any) map[string]any {
	b.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", fmt.Sprintf("%s/api/v1/accounts/%d%s", w.bases[0], w.account, path), bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("api_access_token", w.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	if res.StatusCode != http.StatusOK {
		b.Fatalf("POST %s: %d %v", path, res.StatusCode, out)
	}
	return out
}

// viewers are the open sockets; each receipt of a move counts down the
// current move's remaining, and the last one reports its time.
type viewers struct {
	n         int
	remaining atomic.Int64
	last      chan time.Time
	lost      atomic.Int64 // sockets that ended
}

// watch opens n sockets on the board, round robin over the instances, a
// few dozen handshakes at a time.
func (w *fanoutWorld) watch(b *testing.B, n int) *viewers {
	b.Helper()
	v := &viewers{n: n, last: make(chan time.Time, 1)}
	conns := make([]*websocket.Conn, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 32)
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			base := w.bases[i%len(w.bases)]
			header := http.Header{"Cookie": {w.cookie}, "Origin": {base}}
			ws, res, err := websocket.DefaultDialer.Dial(fmt.Sprintf("ws%s/app/accounts/%d/funnels/%d/live",
				strings.TrimPrefix(base, "http"), w.account, w.funnel), header)
			if err != nil {
				errs <- fmt.Errorf("viewer %d: %v (%v)", i, err, res)
				return
			}
			conns[i] = ws
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	for _, ws := range conns {
		b.Cleanup(func() { ws.Close() })
		go v.read(ws)
	}
	return v
}

// read counts the moves a socket receives until it ends.
func (v *viewers) read(ws *websocket.Conn) {
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			v.lost.Add(1)
			return
		}
		if !bytes.Contains(data, []byte(`"moved"`)) {
			continue // the card's creation, relayed after a socket opened
		}
		if v.remaining.Add(-1) == 0 {
			v.last <- time.Now()
		}
	}
}

// moves moves the card count times, each once every viewer has the one
// before, and returns each move's time to its last viewer.
func (w *fanoutWorld) moves(b *testing.B, v *viewers, count int) []time.Duration {
	b.Helper()
	slugs := []string{"won", "new"}
	times := make([]time.Duration, 0, count)
	for range count {
		v.remaining.Store(int64(v.n))
		start := time.Now()
		w.post(b, fmt.Sprintf("/kanban_items/%d/move_to_stage", w.card), map[string]any{"funnel_stage": slugs[w.stage%2]})
		w.stage++
		select {
		case at := <-v.last:
			times = append(times, at.Sub(start))
		case <-time.After(30 * time.Second):
			b.Fatalf("after 30 s, %d of %d viewers have not received move %d (%d sockets ended)",
				v.remaining.Load(), v.n, w.stage, v.lost.Load())
		}
	}
	return times
}
