package main

// BenchmarkScheduleFiring measures scheduled messages end to end: 10,000
// schedules due within the same second (burst), and 200 due one every
// 100 ms (idle: the lateness an idle server gives each), fired and
// delivered by real server processes (this test binary re-executed as
// `switchboard serve`) through an API channel to a local receiver:
//
//	go test ./cmd/switchboard/ -run '^$' -bench BenchmarkScheduleFiring -benchtime 1x -timeout 30m
//
// It reports how long until all are sent (all-sent-s, from the due second),
// the lateness of each schedule's sent_at after its scheduled_at (p50, p99,
// max, in ms), and the lateness of the firing itself (message created after
// scheduled_at: fire-p50-ms, fire-p99-ms). With two instances on one
// PostgreSQL database it checks there is not one duplicate message (in the
// database or at the receiver) and reports how the two split the firings.
// An account webhook subscribed to message_created gets one delivery per
// message: webhook-p50-ms and webhook-p99-ms are their lag from the event's
// occurred_at to arrival.

import (
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

const (
	burstSchedules = 10_000
	// benchConversations share the schedules, as a campaign to many contacts.
	benchConversations = 100
	// benchServeEnv makes the test binary run the server instead of tests.
	benchServeEnv = "SWITCHBOARD_BENCH_SERVE"
)

func BenchmarkScheduleFiring(b *testing.B) {
	for _, e := range testdb.Engines(b) {
		instances := []int{1}
		if e.Name == "postgres" {
			instances = append(instances, 2)
		}
		for _, n := range instances {
			b.Run(fmt.Sprintf("%s/burst/instances=%d", e.Name, n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					runScheduleBench(b, e, n, load{count: burstSchedules, spread: time.Second})
				}
			})
		}
		b.Run(e.Name+"/idle", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				runScheduleBench(b, e, 1, load{count: 200, spread: 20 * time.Second})
			}
		})
	}
}

// load is how many schedules come due, evenly over spread: a burst (10,000
// in one second) or an idle server's trickle (one every 100 ms). faults,
// when set, are what happens to the server processes while they work.
type load struct {
	count  int
	spread time.Duration
	faults []fault
}

func runScheduleBench(b *testing.B, e testdb.Engine, instances int, l load) {
	b.StopTimer()
	outboundtest.AllowPrivate(b, true)
	url := e.NewURL(b)
	database, err := db.Open(url)
	if err != nil {
		b.Fatal(err)
	}
	defer database.Close()
	boot, err := ops.New(database.Client).Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: "Bench", Email: "bench@example.com", Name: "Bench"})
	if err != nil {
		b.Fatal(err)
	}
	recv := &countingReceiver{got: map[string]int{}}
	hook := httptest.NewServer(recv)
	defer hook.Close()
	lag := &lagReceiver{}
	webhooks := httptest.NewServer(lag)
	defer webhooks.Close()

	var procs []*serverProcess
	for i := 0; i < instances; i++ {
		p := startServer(b, url)
		defer p.stop()
		procs = append(procs, p)
	}
	api := procs[0]
	inbox := api.post(b, boot, "/inboxes", map[string]any{"name": "Bench", "channel": map[string]any{"type": "api", "webhook_url": hook.URL}}, "id")
	api.post(b, boot, "/webhooks", map[string]any{"url": webhooks.URL, "subscriptions": []string{"message_created"}}, "payload", "webhook", "id")
	ctx := viewer.SystemInAccount(context.Background(), boot.AccountID, boot.UserID)
	var targets []target
	for i := 0; i < benchConversations; i++ {
		contactID := api.post(b, boot, "/contacts", map[string]any{"inbox_id": inbox, "name": fmt.Sprintf("Contact %d", i)}, "payload", "contact", "id")
		display := api.post(b, boot, "/conversations", map[string]any{"inbox_id": inbox, "contact_id": contactID}, "id")
		conv, err := database.Client.Conversation.Query().Where(conversation.DisplayID(display)).Only(ctx)
		if err != nil {
			b.Fatal(err)
		}
		targets = append(targets, target{contactID, conv.ID})
	}

	due := time.Now().Add(10 * time.Second).Truncate(time.Second)
	if err := seedSchedules(ctx, database.Client, boot, inbox, targets, due, l); err != nil {
		b.Fatal(err)
	}
	if time.Now().After(due.Add(-500 * time.Millisecond)) {
		b.Fatalf("seeding ended at %v, too close to the due second %v", time.Now(), due)
	}
	b.StartTimer()
	procs = inflict(b, url, procs, due, l.faults)
	waitAllSettled(b, database.Client, ctx)
	lag.waitFor(b, l.count)
	b.StopTimer()

	report(b, database.Client, ctx, due, l.count)
	lag.report(b)
	distinct, _, dup := recv.counts()
	for _, p := range procs {
		p.stop()
	}
	for i, p := range procs {
		logProblems(b, i+1, p.stderr.String())
	}
	if l.faults == nil {
		// On PostgreSQL the instance with the firing turn fires them all.
		total := 0
		for i, p := range procs {
			n := p.fired()
			total += n
			b.ReportMetric(float64(n), fmt.Sprintf("fired-by-%d", i+1))
		}
		if total == 0 {
			b.Logf("no instance fired a schedule; the first one's log:\n%s", tail(procs[0].stderr.String(), 2000))
		}
	}
	b.ReportMetric(float64(dup), "receiver-duplicates")
	// A process killed while a message was on the wire sends it again
	// after the restart (at least once); without faults, exactly once.
	if distinct != l.count || (dup != 0 && l.faults == nil) {
		b.Errorf("the receiver got %d distinct messages with %d duplicates, want %d and none", distinct, dup, l.count)
	}
}

// target is a contact and its conversation.
type target struct{ contactID, conversationID int }

// seedSchedules inserts the schedules, due across one second from due,
// spread over the targets.
func seedSchedules(ctx context.Context, c *ent.Client, boot *accounts.Bootstrapped, inbox int, targets []target, due time.Time, l load) error {
	const batch = 500
	for start := 0; start < l.count; start += batch {
		bulk := make([]*ent.ScheduledMessageCreate, 0, batch)
		for i := start; i < min(start+batch, l.count); i++ {
			at := due.Add(time.Duration(i) * l.spread / time.Duration(l.count)).UTC()
			tg := targets[i%len(targets)]
			bulk = append(bulk, c.ScheduledMessage.Create().SetAccountID(boot.AccountID).SetInboxID(inbox).
				SetContactID(tg.contactID).SetConversationID(tg.conversationID).SetAuthorID(boot.UserID).
				SetContent(fmt.Sprintf("bench %d", i)).SetScheduledAt(at).SetNextOccurrenceAt(at))
		}
		if err := c.ScheduledMessage.CreateBulk(bulk...).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func waitAllSettled(b *testing.B, c *ent.Client, ctx context.Context) {
	deadline := time.Now().Add(20 * time.Minute)
	pending := c.ScheduledMessage.Query().Where(scheduledmessage.StatusEQ(scheduledmessage.StatusPending))
	for {
		// Whether any is left, not how many: counting the pending rows
		// read all of them, 7 ms a poll during a burst (pg_stat_statements),
		// PostgreSQL's CPU taken from the work measured.
		left, err := pending.Clone().Exist(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if !left {
			return
		}
		if time.Now().After(deadline) {
			n, _ := pending.Clone().Count(ctx)
			b.Fatalf("%d schedules still pending after 20 minutes", n)
		}
		// Every half second: the figures come from the recorded times, not
		// from when this sees them, and counting every 50 ms took about a
		// tenth of PostgreSQL's CPU during a burst, from the work measured.
		time.Sleep(500 * time.Millisecond)
	}
}

// report computes the lateness figures from what the database recorded.
func report(b *testing.B, c *ent.Client, ctx context.Context, due time.Time, want int) {
	all, err := c.ScheduledMessage.Query().All(ctx)
	if err != nil {
		b.Fatal(err)
	}
	msgs, err := c.Message.Query().Where(message.ContentHasPrefix("bench ")).All(ctx)
	if err != nil {
		b.Fatal(err)
	}
	created := make(map[int]time.Time, len(msgs))
	for _, m := range msgs {
		created[m.ID] = m.CreatedAt
	}
	var sent, fired []time.Duration
	var last time.Time
	failed := 0
	for _, sm := range all {
		if sm.Status != scheduledmessage.StatusSent || sm.SentAt == nil || sm.MessageID == nil {
			failed++
			continue
		}
		sent = append(sent, sm.SentAt.Sub(sm.ScheduledAt))
		fired = append(fired, created[*sm.MessageID].Sub(sm.ScheduledAt))
		if sm.SentAt.After(last) {
			last = *sm.SentAt
		}
	}
	if failed > 0 || len(msgs) != want {
		b.Errorf("%d schedules not sent, %d messages posted; want all %d sent, one message each", failed, len(msgs), want)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	slices.Sort(sent)
	slices.Sort(fired)
	b.ReportMetric(last.Sub(due).Seconds(), "all-sent-s")
	b.ReportMetric(ms(pct(sent, 50)), "p50-ms")
	b.ReportMetric(ms(pct(sent, 99)), "p99-ms")
	b.ReportMetric(ms(sent[len(sent)-1]), "max-ms")
	b.ReportMetric(ms(pct(fired, 50)), "fire-p50-ms")
	b.ReportMetric(ms(pct(fired, 99)), "fire-p99-ms")
	b.ReportMetric(float64(len(msgs)-want), "db-duplicates")
}

func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[(len(sorted)-1)*p/100]
}
