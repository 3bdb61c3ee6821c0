package jobs

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/delivery"
)

// channels is a stand-in for the real channels: messages of the inboxes in
// hang block until released (or their job is cancelled); the others are
// accepted at once and recorded in the order they came.
type channels struct {
	mu      sync.Mutex
	hang    map[int]bool
	release chan struct{}
	calls   map[int]int
	sent    []sent
	started chan int // message ids as their delivery starts, when set
	// failOnce: the first attempt of a message with such content fails
	// (to be retried).
	failOnce map[string]bool
}

type sent struct {
	id, conversation int
	at               time.Time
}

func newChannels(hang ...int) *channels {
	c := &channels{hang: map[int]bool{}, release: make(chan struct{}), calls: map[int]int{}}
	for _, ib := range hang {
		c.hang[ib] = true
	}
	return c
}

func (c *channels) Deliver(ctx context.Context, j delivery.Job) (string, error) {
	c.mu.Lock()
	c.calls[j.Message.ID]++
	hang, started := c.hang[j.Inbox.ID], c.started
	fail := j.Message.Content != nil && c.failOnce[*j.Message.Content] && c.calls[j.Message.ID] == 1
	c.mu.Unlock()
	if fail {
		return "", errors.New("the channel is busy, try again")
	}
	if started != nil {
		started <- j.Message.ID
	}
	if hang {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-c.release:
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, sent{j.Message.ID, j.Conversation.ID, time.Now()})
	return "", nil
}

func (c *channels) snapshot() ([]sent, map[int]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	calls := map[int]int{}
	for k, v := range c.calls {
		calls[k] = v
	}
	return append([]sent(nil), c.sent...), calls
}

// receiver is a local webhook receiver that answers status, or hangs until
// the test ends when hang is set; it records when each delivery came.
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	got  map[string]time.Time
	hits int
}

func newReceiver(t *testing.T, status int, hang bool) *receiver {
	rc := &receiver{got: map[string]time.Time{}}
	release := make(chan struct{})
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		rc.mu.Lock()
		rc.hits++
		rc.mu.Unlock()
		if hang {
			select {
			case <-req.Context().Done():
			case <-release:
			}
			return
		}
		rc.mu.Lock()
		rc.got[req.Header.Get("webhook-id")] = time.Now()
		rc.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(rc.Close)
	t.Cleanup(func() { close(release) })
	return rc
}

func (rc *receiver) received() (map[string]time.Time, int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := map[string]time.Time{}
	for k, v := range rc.got {
		out[k] = v
	}
	return out, rc.hits
}

// seedDeliveries writes n webhook deliveries to sub, due at due; their ids
// start with prefix.
func seedDeliveries(ctx context.Context, c *ent.Client, sub *ent.WebhookSubscription, n int, due time.Time, prefix string) []*ent.WebhookDelivery {
	return c.WebhookDelivery.MapCreateBulk(make([]struct{}, n), func(b *ent.WebhookDeliveryCreate, i int) {
		b.SetAccountID(sub.AccountID).SetSubscriptionID(sub.ID).SetURL(sub.URL).SetEvent("message_created").
			SetPayload(`{"event":"message_created"}`).SetDeliveryID(fmt.Sprintf("%s-%d-%d", prefix, sub.ID, i)).SetNextAttemptAt(due)
	}).SaveX(ctx)
}
