package rest_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/testdb"
)

// manualClock is a clock tests move by hand instead of waiting.
type manualClock struct {
	mu sync.Mutex
	t  time.Time
}

func newManualClock() *manualClock {
	return &manualClock{t: time.Now().UTC().Truncate(time.Second)}
}

func (c *manualClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func withKey(key string) map[string]string { return map[string]string{"Idempotency-Key": key} }

// TestIdempotencyKey: Stripe's semantics on REST creates. The first request
// runs and its response is stored; a retry with the key replays it (same
// status and body, Idempotent-Replayed: true); the key on another body or
// route is 422; keys belong to one user; they are kept 24 hours.
func TestIdempotencyKey(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		clock := newManualClock()
		a := newAppWith(t, e, server.Config{Channels: &acceptingChannels{}, Now: clock.Now})
		api := a.apiInbox("API")
		contact, _ := a.contact(api, H{"name": "Alice"})
		conv := a.conversation(a.Account, api, contact)
		other := a.conversation(a.Account, api, contact)
		agentID, agent := a.agent(a.Account)
		a.mustDo(request{method: "POST", path: a.path("/inbox_members"), body: H{"inbox_id": api, "user_ids": []int{agentID}}}, http.StatusOK)
		messages := a.path("/conversations/%d/messages", conv)
		var first *response
		a.run(t, []scenario{
			{
				name:       "the first request with a key runs",
				request:    request{method: "POST", path: messages, header: withKey("k-1"), body: H{"content": "Hello once"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"content": "Hello once"},
				check: func(t *testing.T, r *response) {
					first = r
					if h := r.Header.Get("Idempotent-Replayed"); h != "" {
						t.Errorf("a first request is marked replayed (%q)", h)
					}
				},
			},
			{
				name: "a retry replays the first response",
				// Same JSON, other key order and spacing: the same body.
				request:    request{method: "POST", path: messages, header: withKey("k-1"), body: `{ "content" : "Hello once" }`},
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					if r.Header.Get("Idempotent-Replayed") != "true" {
						t.Errorf("Idempotent-Replayed = %q, want true", r.Header.Get("Idempotent-Replayed"))
					}
					if !bytes.Equal(r.Body, first.Body) || r.Header.Get("Content-Type") != first.Header.Get("Content-Type") {
						t.Errorf("the replay differs:\n%s\n%s", r.Body, first.Body)
					}
					if n := countMessages(t, a, "Hello once"); n != 1 {
						t.Errorf("%d messages after the retry, want 1", n)
					}
				},
			},
			{
				name:        "the key with another body is 422",
				request:     request{method: "POST", path: messages, header: withKey("k-1"), body: H{"content": "Hello twice"}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"Idempotency-Key"},
				check:       func(t *testing.T, r *response) { expectMessages(t, a, "Hello twice", 0) },
			},
			{
				name:        "the key on another route is 422",
				request:     request{method: "POST", path: a.path("/conversations/%d/messages", other), header: withKey("k-1"), body: H{"content": "Hello once"}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"Idempotency-Key"},
			},
			{
				name:       "another user's same key is independent",
				request:    request{method: "POST", path: messages, token: agent, header: withKey("k-1"), body: H{"content": "Hello once"}},
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					if r.Header.Get("Idempotent-Replayed") != "" {
						t.Error("another user's request was answered with the administrator's response")
					}
					expectMessages(t, a, "Hello once", 2)
				},
			},
			{
				name:       "without a key every request runs",
				request:    request{method: "POST", path: messages, body: H{"content": "Hello once"}},
				wantStatus: http.StatusOK,
				check:      func(t *testing.T, r *response) { expectMessages(t, a, "Hello once", 3) },
			},
			{
				name:        "an error response is stored too",
				request:     request{method: "POST", path: a.path("/contacts"), header: withKey("k-bad"), body: H{"inbox_id": api, "email": "not an e-mail"}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"email"},
			},
			{
				name:        "and replayed",
				request:     request{method: "POST", path: a.path("/contacts"), header: withKey("k-bad"), body: H{"inbox_id": api, "email": "not an e-mail"}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"email"},
				check: func(t *testing.T, r *response) {
					if r.Header.Get("Idempotent-Replayed") != "true" {
						t.Error("the stored error was not replayed")
					}
				},
			},
			{
				name:        "a key longer than 255 characters is 422",
				request:     request{method: "POST", path: messages, header: withKey(string(bytes.Repeat([]byte("k"), 256))), body: H{"content": "long key"}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"Idempotency-Key"},
				check:       func(t *testing.T, r *response) { expectMessages(t, a, "long key", 0) },
			},
			{
				name:       "the platform API honours keys",
				request:    request{method: "POST", path: "/platform/api/v1/users", token: a.Platform, header: withKey("p-1"), body: H{"name": "Pat", "email": "pat@people.test", "password": "s3cret-pass"}},
				wantStatus: http.StatusOK,
			},
			{
				name:       "and replays them",
				request:    request{method: "POST", path: "/platform/api/v1/users", token: a.Platform, header: withKey("p-1"), body: H{"name": "Pat", "email": "pat@people.test", "password": "s3cret-pass"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"email": "pat@people.test"},
				check: func(t *testing.T, r *response) {
					if r.Header.Get("Idempotent-Replayed") != "true" {
						t.Error("the platform create ran twice")
					}
				},
			},
		})

		t.Run("keys expire after 24 hours", func(t *testing.T) {
			clock.Advance(24*time.Hour + time.Second)
			r := a.do(request{method: "POST", path: messages, header: withKey("k-1"), body: H{"content": "Hello again"}})
			if r.Status != http.StatusOK || r.Header.Get("Idempotent-Replayed") != "" {
				t.Fatalf("an expired key was not free: %s", r)
			}
			n, err := a.srv.DB.Client.IdempotencyKey.Query().Count(sys())
			if err != nil {
				t.Fatal(err)
			}
			if n != 1 { // only the new use: the expired rows were purged
				t.Errorf("%d idempotency rows kept, want 1", n)
			}
		})

		t.Run("a key whose first request is in flight is 409", func(t *testing.T) {
			seedPendingKey(t, a, "k-busy", "POST "+messages, H{"content": "busy"}, clock.Now())
			r := a.do(request{method: "POST", path: messages, header: withKey("k-busy"), body: H{"content": "busy"}})
			if r.Status != http.StatusConflict {
				t.Fatalf("want 409, got %s", r)
			}
			checkErrorBody(t, r, nil)
			expectMessages(t, a, "busy", 0)
		})

		t.Run("a key abandoned by a vanished request is taken over", func(t *testing.T) {
			seedPendingKey(t, a, "k-stale", "POST "+messages, H{"content": "stale"}, clock.Now().Add(-10*time.Minute))
			r := a.do(request{method: "POST", path: messages, header: withKey("k-stale"), body: H{"content": "stale"}})
			if r.Status != http.StatusOK {
				t.Fatalf("want 200, got %s", r)
			}
			expectMessages(t, a, "stale", 1)
		})
	})
}

// seedPendingKey stores a key whose first request (with this JSON body) has
// not finished, as a request still running (or one whose process died)
// leaves it.
func seedPendingKey(t *testing.T, a *app, key, req string, body H, at time.Time) {
	t.Helper()
	raw, _ := json.Marshal(body) // canonical: sorted keys, no spaces
	sum := sha256.Sum256(raw)
	err := a.srv.DB.Client.IdempotencyKey.Create().SetAccountID(a.Account).SetUserID(a.AdminID).
		SetKey(key).SetRequest(req).SetBodyHash(hex.EncodeToString(sum[:])).SetCreatedAt(at).SetUpdatedAt(at).Exec(sys())
	if err != nil {
		t.Fatal(err)
	}
}

// TestIdempotencyKeyConcurrent: twenty clients post one message with one
// key at once; exactly one message is made. The others get 409 (still in
// flight) or the replay; a later retry gets the first response.
func TestIdempotencyKeyConcurrent(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		contact, _ := a.contact(api, H{"name": "Alice"})
		path := a.path("/conversations/%d/messages", a.conversation(a.Account, api, contact))

		type result struct {
			status   int
			replayed bool
			body     []byte
		}
		const clients = 20
		results := make([]result, clients)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				req := httptest.NewRequest("POST", path, bytes.NewReader([]byte(`{"content":"Exactly once"}`)))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("api_access_token", a.Admin)
				req.Header.Set("Idempotency-Key", "one-key")
				res, err := a.srv.App.Test(req, -1)
				if err != nil {
					results[i] = result{status: -1, body: []byte(err.Error())}
					return
				}
				defer res.Body.Close()
				body, _ := io.ReadAll(res.Body)
				if msg := openAPIMismatch(t, a, "POST", path, res.StatusCode, res.Header, body); msg != "" {
					t.Errorf("client %d: the response does not match the OpenAPI document: %s", i, msg)
				}
				results[i] = result{res.StatusCode, res.Header.Get("Idempotent-Replayed") == "true", body}
			}()
		}
		close(start)
		wg.Wait()

		var originals [][]byte
		for i, r := range results {
			switch {
			case r.status == http.StatusOK && !r.replayed:
				originals = append(originals, r.body)
			case r.status == http.StatusOK, r.status == http.StatusConflict:
			default:
				t.Errorf("client %d: %d %s", i, r.status, r.body)
			}
		}
		if len(originals) != 1 {
			t.Fatalf("%d requests ran, want exactly 1", len(originals))
		}
		expectMessages(t, a, "Exactly once", 1)
		for i, r := range results {
			if r.replayed && !bytes.Equal(r.body, originals[0]) {
				t.Errorf("client %d got a replay that differs from the original: %s", i, r.body)
			}
		}
		retry := a.do(request{method: "POST", path: path, header: withKey("one-key"), body: H{"content": "Exactly once"}})
		if retry.Status != http.StatusOK || retry.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(retry.Body, originals[0]) {
			t.Errorf("the retry after the race: %s", retry)
		}
	})
}

func countMessages(t *testing.T, a *app, content string) int {
	t.Helper()
	n, err := a.srv.DB.Client.Message.Query().Where(message.Content(content)).Count(sys())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func expectMessages(t *testing.T, a *app, content string, want int) {
	t.Helper()
	if n := countMessages(t, a, content); n != want {
		t.Errorf("%d messages %q, want %d", n, content, want)
	}
}
