package rest_test

// BenchmarkMessages measures the messages API on a conversation holding
// 100,000 messages, on every engine testdb offers:
//
//	go test ./rest/ -run '^$' -bench BenchmarkMessages -benchtime 2000x
//
// Two operations, each through the real HTTP app (a Fiber listener on
// 127.0.0.1, one keep-alive client, one request at a time) and then as the
// bare SQL statement behind it, issued directly through database/sql on the
// same database:
//
//   - post: POST /conversations/{id}/messages (JSON, no attachment) against
//     the INSERT of one message row;
//   - before: GET /conversations/{id}/messages?before=<random id> against
//     the keyset SELECT ... WHERE conversation_id = ? AND id < ? ORDER BY id
//     DESC LIMIT 20.
//
// Each reports http-ops/s, sql-ops/s and their ratio sql/http (how many bare
// statements run in the time of one request), plus db-stmts/op: the
// statements the app sent through ent per request (for post this includes
// the background delivery of the message, through a channel that accepts
// without doing anything). ns/op is the HTTP request's.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/stmtcount"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

const (
	benchMessages = 100_000
	benchTxRows   = 5_000 // messages a seeding transaction
	// benchStmtRows is the rows of one INSERT (CreateBulk); modernc's
	// SQLite driver binds parameters in quadratic time, so statements stay
	// at a few thousand parameters.
	benchStmtRows = 250
)

// msgFixture is the app over a database holding one conversation with
// benchMessages messages.
type msgFixture struct {
	srv     *server.Server
	db      *db.DB
	stmts   *atomic.Int64 // statements sent through ent
	base    string        // http://127.0.0.1:port
	client  *http.Client
	token   string
	account int
	// conversation: display id (the API's) and row id (the SQL's).
	display, convID   int
	inboxID, senderID int
	minID, maxID      int // the seeded messages' ids
	ph                func(int) string
}

func BenchmarkMessages(b *testing.B) {
	for _, e := range testdb.Engines(b) {
		// A benchmark with sub-benchmarks runs once: the fixture is seeded
		// once per engine and lives until both sub-benchmarks are done.
		b.Run(e.Name, func(b *testing.B) {
			fx := seedMessages(b, e)
			b.Run("post", func(b *testing.B) { benchPost(b, fx) })
			b.Run("before", func(b *testing.B) { benchBefore(b, fx) })
		})
	}
}

// benchPost times b.N POSTs of a JSON message, then b.N direct INSERTs of
// a message row.
func benchPost(b *testing.B, fx *msgFixture) {
	url := fmt.Sprintf("%s/api/v1/accounts/%d/conversations/%d/messages", fx.base, fx.account, fx.display)
	body := []byte(`{"content":"Thanks, your order ships tomorrow."}`)
	fx.waitDelivered(b)
	n0 := fx.stmts.Load()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		fx.do(b, http.MethodPost, url, body)
	}
	httpTime := time.Since(start)
	b.StopTimer()
	fx.waitDelivered(b) // the background deliveries belong to the POSTs
	stmts := fx.stmts.Load() - n0

	// The INSERT ent issues for such a message (RETURNING the id on both
	// engines, as ent does), with its columns; the row is not due for
	// delivery, so the job runner leaves it alone.
	cols := []string{"created_at", "updated_at", "inbox_id", "content", "message_type", "content_type", "private",
		"status", "content_attributes", "additional_attributes", "sender_type", "sender_id", "delivery_attempts",
		"conversation_id", "account_id"}
	marks := make([]string, len(cols))
	for i := range cols {
		marks[i] = fx.ph(i + 1)
	}
	insert := fmt.Sprintf(`INSERT INTO "messages" (%s) VALUES (%s) RETURNING "id"`, quoteAll(cols), strings.Join(marks, ", "))
	ctx := context.Background()
	start = time.Now()
	for i := 0; i < b.N; i++ {
		now := time.Now().UTC()
		var id int
		err := fx.db.SQL.QueryRowContext(ctx, insert, now, now, fx.inboxID, "Thanks, your order ships tomorrow.",
			"outgoing", "text", false, "sent", "{}", "{}", "user", fx.senderID, 0, fx.convID, fx.account).Scan(&id)
		if err != nil {
			b.Fatalf("direct INSERT: %v", err)
		}
	}
	report(b, httpTime, time.Since(start), stmts)
}

// benchBefore times b.N GETs of the page before a random message, then b.N
// direct keyset SELECTs of the same pages.
func benchBefore(b *testing.B, fx *msgFixture) {
	rng := rand.New(rand.NewPCG(7, uint64(b.N)))
	before := make([]int, b.N)
	for i := range before {
		before[i] = fx.minID + 20 + rng.IntN(fx.maxID-fx.minID-19)
	}
	url := fmt.Sprintf("%s/api/v1/accounts/%d/conversations/%d/messages?before=", fx.base, fx.account, fx.display)
	// One checked page first: 20 messages, the newest just below the id.
	var page struct {
		Payload []struct{ ID int } `json:"payload"`
	}
	if err := json.Unmarshal(fx.do(b, http.MethodGet, fmt.Sprint(url, before[0]), nil), &page); err != nil ||
		len(page.Payload) != 20 || page.Payload[19].ID != before[0]-1 {
		b.Fatalf("GET ?before=%d: %d messages (%v), want the 20 below it", before[0], len(page.Payload), err)
	}
	n0 := fx.stmts.Load()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		fx.do(b, http.MethodGet, fmt.Sprint(url, before[i]), nil)
	}
	httpTime := time.Since(start)
	b.StopTimer()
	stmts := fx.stmts.Load() - n0

	// The keyset SELECT ent issues for the page, every column read.
	query := fmt.Sprintf(`SELECT %s FROM "messages" WHERE "conversation_id" = %s AND "id" < %s ORDER BY "id" DESC LIMIT 20`,
		quoteAll(message.Columns), fx.ph(1), fx.ph(2))
	ctx := context.Background()
	vals := make([]any, len(message.Columns))
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	start = time.Now()
	for i := 0; i < b.N; i++ {
		rows, err := fx.db.SQL.QueryContext(ctx, query, fx.convID, before[i])
		if err != nil {
			b.Fatalf("direct SELECT: %v", err)
		}
		n := 0
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				b.Fatalf("direct SELECT: %v", err)
			}
			n++
		}
		if err := rows.Close(); err != nil || n != 20 {
			b.Fatalf("direct SELECT before %d: %d rows (%v), want 20", before[i], n, err)
		}
	}
	report(b, httpTime, time.Since(start), stmts)
}

func report(b *testing.B, httpTime, sqlTime time.Duration, stmts int64) {
	httpRate := float64(b.N) / httpTime.Seconds()
	sqlRate := float64(b.N) / sqlTime.Seconds()
	b.ReportMetric(float64(httpTime.Nanoseconds())/float64(b.N), "ns/op")
	b.ReportMetric(httpRate, "http-ops/s")
	b.ReportMetric(sqlRate, "sql-ops/s")
	b.ReportMetric(sqlRate/httpRate, "sql/http")
	b.ReportMetric(float64(stmts)/float64(b.N), "db-stmts/op")
}

func quoteAll(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = `"` + c + `"`
	}
	return strings.Join(q, ", ")
}

// do sends one request with the administrator's token; anything but 200
// stops the benchmark.
func (fx *msgFixture) do(b testing.TB, method, url string, body []byte) []byte {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		b.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("api_access_token", fx.token)
	res, err := fx.client.Do(req)
	if err != nil {
		b.Fatalf("%s %s: %v", method, url, err)
	}
	raw, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		b.Fatalf("%s %s: %d %s (%v)", method, url, res.StatusCode, raw, err)
	}
	return raw
}

// waitDelivered waits until no message is due for delivery any more.
func (fx *msgFixture) waitDelivered(b testing.TB) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var due int
		if err := fx.db.SQL.QueryRow(`SELECT COUNT(*) FROM "messages" WHERE "next_delivery_at" IS NOT NULL`).Scan(&due); err != nil {
			b.Fatal(err)
		}
		if due == 0 {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d messages still due for delivery after 2 minutes", due)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// ---- seeding ----

// seedMessages starts the app over a fresh database, creates an API inbox,
// a contact and a conversation through the API, and inserts benchMessages
// messages into the conversation in bulk.
func seedMessages(t testing.TB, e testdb.Engine) *msgFixture {
	t.Helper()
	started := time.Now()
	raw := e.New(t)
	stmts := &atomic.Int64{}
	counted := &db.DB{
		Client:  ent.NewClient(ent.Driver(stmtcount.Driver{Driver: entsql.OpenDB(raw.Dialect, raw.SQL), N: stmts})),
		SQL:     raw.SQL,
		Dialect: raw.Dialect,
	}
	srv := server.New(server.Config{StorageDir: t.TempDir(), Channels: discardChannels{}}, counted)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.App.Listener(ln) }()
	t.Cleanup(func() { _ = srv.Shutdown() })

	boot, err := srv.Svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: "Messages Bench", Email: "bench@messages.test", Name: "Bench Admin",
	})
	if err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
	fx := &msgFixture{
		srv: srv, db: counted, stmts: stmts, base: "http://" + ln.Addr().String(),
		client:  &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}, Timeout: time.Minute},
		token:   boot.AccessToken,
		account: boot.AccountID, senderID: boot.UserID,
		ph: func(int) string { return "?" },
	}
	if raw.Dialect == dialect.Postgres {
		fx.ph = func(i int) string { return fmt.Sprintf("$%d", i) }
	}
	api := func(path string, body any) map[string]any {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		res := fx.do(t, http.MethodPost, fmt.Sprintf("%s/api/v1/accounts/%d%s", fx.base, fx.account, path), raw)
		if err := json.Unmarshal(res, &out); err != nil {
			t.Fatalf("POST %s: %s", path, res)
		}
		return out
	}
	ib := api("/inboxes", H{"name": "API", "channel": H{"type": "api", "webhook_url": "https://hooks.example.com/in"}})
	fx.inboxID = int(ib["id"].(float64))
	ct := api("/contacts", H{"inbox_id": fx.inboxID, "name": "Ann Customer", "email": "ann@customer.test"})
	contactID := int(ct["payload"].(map[string]any)["contact"].(map[string]any)["id"].(float64))
	cv := api("/conversations", H{"inbox_id": fx.inboxID, "contact_id": contactID})
	fx.display = int(cv["id"].(float64))

	sys := viewer.SystemContext(context.Background())
	conv, err := counted.Client.Conversation.Query().Only(sys)
	if err != nil {
		t.Fatal(err)
	}
	fx.convID = conv.ID
	rng := rand.New(rand.NewPCG(42, 4))
	first := time.Now().UTC().Add(-90 * 24 * time.Hour)
	step := 90 * 24 * time.Hour / benchMessages
	for from := 0; from < benchMessages; from += benchTxRows {
		tx, err := raw.Client.Tx(sys)
		if err != nil {
			t.Fatal(err)
		}
		for start := from; start < min(from+benchTxRows, benchMessages); start += benchStmtRows {
			end := min(start+benchStmtRows, benchMessages)
			builders := make([]*ent.MessageCreate, 0, end-start)
			for i := start; i < end; i++ {
				at := first.Add(time.Duration(i) * step)
				c := tx.Message.Create().SetAccountID(fx.account).SetConversationID(fx.convID).SetInboxID(fx.inboxID).
					SetCreatedAt(at).SetUpdatedAt(at).SetContent(benchContent(rng, i))
				if rng.IntN(2) == 0 {
					c.SetMessageType(message.MessageTypeIncoming).SetSenderType(message.SenderTypeContact).SetSenderID(contactID)
				} else {
					c.SetMessageType(message.MessageTypeOutgoing).SetStatus(message.StatusDelivered).
						SetSenderType(message.SenderTypeUser).SetSenderID(fx.senderID)
				}
				builders = append(builders, c)
			}
			if err := tx.Message.CreateBulk(builders...).Exec(sys); err != nil {
				_ = tx.Rollback()
				t.Fatalf("seeding messages %d-%d: %v", start, end, err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if err := raw.SQL.QueryRow(`SELECT MIN("id"), MAX("id"), COUNT(*) FROM "messages" WHERE "conversation_id" = `+fx.ph(1), fx.convID).
		Scan(&fx.minID, &fx.maxID, new(int)); err != nil {
		t.Fatal(err)
	}
	if fx.maxID-fx.minID+1 != benchMessages {
		t.Fatalf("seeded ids %d..%d, want %d messages", fx.minID, fx.maxID, benchMessages)
	}
	analyze := "ANALYZE"
	if raw.Dialect == dialect.Postgres {
		analyze = `ANALYZE "messages"`
	}
	if _, err := raw.SQL.Exec(analyze); err != nil {
		t.Fatalf("%s: %v", analyze, err)
	}
	t.Logf("%s: seeded %d messages in %s", e.Name, benchMessages, time.Since(started).Round(time.Millisecond))
	return fx
}

var benchPhrases = []string{
	"Hi, I have a question about my order.", "Thanks for reaching out!", "Could you share the order number?",
	"It's #%d.", "Let me check that for you.", "The parcel left our warehouse this morning.",
	"Great, thank you so much!", "Is there anything else I can help with?", "Can I change the delivery address?",
	"Sure, what is the new address?",
}

func benchContent(rng *rand.Rand, i int) string {
	p := benchPhrases[rng.IntN(len(benchPhrases))]
	if strings.Contains(p, "%d") {
		return fmt.Sprintf(p, 100000+i)
	}
	return p
}

// discardChannels accepts every message without sending it anywhere.
type discardChannels struct{}

func (discardChannels) Deliver(context.Context, delivery.Job) (string, error) { return "", nil }
