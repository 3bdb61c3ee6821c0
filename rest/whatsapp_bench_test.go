package rest_test

// BenchmarkWhatsAppBurst posts bursts of signed WhatsApp webhooks the way
// Meta does, through the real HTTP app (a Fiber listener on 127.0.0.1), on
// every engine testdb offers:
//
//	go test ./rest/ -run '^$' -bench BenchmarkWhatsAppBurst -benchtime 3x
//
// One iteration is 1,000 posts, each with one text message, from 100
// customers (10 messages each, interleaved, so one customer's first
// messages race each other), sent by 12 concurrent clients. It reports the
// posts' p50, p95 and p99 latency in ms and fails unless every message is
// stored exactly once and a replay of the whole burst stores nothing more;
// posts/s is the bursts' throughput.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

const (
	burstPosts     = 1000
	burstCustomers = 100
	burstClients   = 12
)

type burstFixture struct {
	srv    *server.Server
	base   string
	client *http.Client
	inbox  int
}

func BenchmarkWhatsAppBurst(b *testing.B) {
	for _, e := range testdb.Engines(b) {
		b.Run(e.Name, func(b *testing.B) {
			fx := newBurstFixture(b, e)
			var all []time.Duration
			var busy time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				bodies := burstBodies(i)
				start := time.Now()
				lat := fx.burst(b, bodies, 1, 0)
				busy += time.Since(start)
				b.StopTimer()
				all = append(all, lat...)
				fx.checkStoredOnce(b, i)
				fx.burst(b, bodies, 0, 1) // Meta posting it all again
				fx.checkStoredOnce(b, i)
				b.StartTimer()
			}
			b.StopTimer()
			slices.Sort(all)
			for _, p := range []struct {
				name string
				q    float64
			}{{"p50-ms", 0.50}, {"p95-ms", 0.95}, {"p99-ms", 0.99}} {
				b.ReportMetric(float64(all[int(p.q*float64(len(all)-1))].Microseconds())/1000, p.name)
			}
			b.ReportMetric(float64(len(all))/busy.Seconds(), "posts/s")
			b.ReportMetric(0, "ns/op")
		})
	}
}

func newBurstFixture(b *testing.B, e testdb.Engine) *burstFixture {
	b.Helper()
	srv := server.New(server.Config{StorageDir: b.TempDir(), Channels: discardChannels{}}, e.New(b))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = srv.App.Listener(ln) }()
	b.Cleanup(func() { _ = srv.Shutdown() })
	boot, err := srv.Svc.Bootstrap(context.Background(), accounts.BootstrapInput{AccountName: "Burst", Email: "burst@wa.test", Name: "Burst Admin"})
	if err != nil {
		b.Fatal(err)
	}
	admin := viewer.NewContext(context.Background(), viewer.Viewer{UserID: boot.UserID, AccountID: boot.AccountID, Role: viewer.RoleAdministrator})
	name, phone, provider := "WhatsApp", waNumber, "whatsapp_cloud"
	key, pnid, waba, secret := waAPIKey, waPhoneID, "waba-1", waSecret
	ib, err := srv.Svc.CreateInbox(admin, inboxes.InboxInput{Name: &name, Channel: &inboxes.ChannelInput{Type: "whatsapp",
		PhoneNumber: &phone, Provider: &provider, ProviderConfig: &inboxes.ProviderConfigInput{APIKey: &key,
			PhoneNumberID: &pnid, BusinessAccountID: &waba, AppSecret: &secret}}})
	if err != nil {
		b.Fatal(err)
	}
	// As the server warms its pool at start (cmd/switchboard's serve).
	if err := srv.Warm(context.Background()); err != nil {
		b.Fatal(err)
	}
	return &burstFixture{srv: srv, base: "http://" + ln.Addr().String(), inbox: ib.ID,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: burstClients}, Timeout: time.Minute}}
}

// burstBodies are iteration i's posts: message j comes from customer j mod
// burstCustomers.
func burstBodies(i int) [][]byte {
	out := make([][]byte, burstPosts)
	for j := range out {
		wa := fmt.Sprintf("49151%07d", j%burstCustomers)
		msg := H{"from": wa, "id": fmt.Sprintf("wamid.burst-%d-%d", i, j), "timestamp": "1730000000", "type": "text",
			"text": H{"body": fmt.Sprintf("Message %d of customer %s", j/burstCustomers, wa)}}
		raw, _ := json.Marshal(H{"object": "whatsapp_business_account", "entry": []H{{"id": "waba-1", "changes": []H{{"field": "messages",
			"value": H{"metadata": H{"phone_number_id": waPhoneID}, "contacts": []H{{"profile": H{"name": "Customer " + wa}, "wa_id": wa}},
				"messages": []H{msg}}}}}}})
		out[j] = raw
	}
	return out
}

// burst posts bodies from burstClients clients and answers each post's
// latency; every answer must be 200 with the stored and duplicate counts
// given.
func (fx *burstFixture) burst(b *testing.B, bodies [][]byte, stored, dup int) []time.Duration {
	b.Helper()
	work := make(chan int)
	lat := make([]time.Duration, len(bodies))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for c := 0; c < burstClients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				start := time.Now()
				msg := fx.post(bodies[j], stored, dup)
				lat[j] = time.Since(start)
				if msg != "" {
					mu.Lock()
					failures = append(failures, msg)
					mu.Unlock()
				}
			}
		}()
	}
	for j := range bodies {
		work <- j
	}
	close(work)
	wg.Wait()
	if len(failures) > 0 {
		b.Fatalf("%d of %d posts failed; first: %s", len(failures), len(bodies), failures[0])
	}
	return lat
}

// post sends one signed post and says what was wrong with the answer ("":
// nothing).
func (fx *burstFixture) post(body []byte, stored, dup int) string {
	req, err := http.NewRequest(http.MethodPost, fx.base+"/webhooks/whatsapp/"+waNumber, bytes.NewReader(body))
	if err != nil {
		return err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Hub-Signature-256", waSign(waSecret, body))
	res, err := fx.client.Do(req)
	if err != nil {
		return err.Error()
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	want := fmt.Sprintf(`{"duplicates":%d,"ignored":0,"messages":%d,"statuses":0}`, dup, stored)
	if res.StatusCode != http.StatusOK || strings.TrimSpace(string(raw)) != want {
		return fmt.Sprintf("%d %s, want 200 %s", res.StatusCode, raw, want)
	}
	return ""
}

// checkStoredOnce fails unless iteration i's burstPosts messages are each
// stored once, and the customers are burstCustomers contacts.
func (fx *burstFixture) checkStoredOnce(b *testing.B, i int) {
	b.Helper()
	c := fx.srv.DB.Client
	n, err := c.Message.Query().Where(message.InboxID(fx.inbox), message.SourceIDHasPrefix(fmt.Sprintf("wamid.burst-%d-", i))).Count(sys())
	if err != nil || n != burstPosts {
		b.Fatalf("burst %d stored %d messages (%v), want %d", i, n, err, burstPosts)
	}
	if contacts, err := c.Contact.Query().Count(sys()); err != nil || contacts != burstCustomers {
		b.Fatalf("%d contacts (%v), want %d", contacts, err, burstCustomers)
	}
}
