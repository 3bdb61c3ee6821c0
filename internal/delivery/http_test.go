package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/outbound"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
)

func ptr[T any](v T) *T { return &v }

// received is one request a fake channel server got.
type received struct {
	method, path string
	header       http.Header
	body         []byte
}

// channelServer is an HTTP server on 127.0.0.1 that records each request
// and answers with status and body.
type channelServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []received
	status   int
	answer   string
}

func newChannelServer(t *testing.T, status int, answer string) *channelServer {
	t.Helper()
	cs := &channelServer{status: status, answer: answer}
	cs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		cs.mu.Lock()
		cs.requests = append(cs.requests, received{r.Method, r.URL.Path, r.Header.Clone(), body})
		cs.mu.Unlock()
		if cs.status/100 == 3 {
			w.Header().Set("Location", "/elsewhere") // never followed
		}
		w.WriteHeader(cs.status)
		_, _ = io.WriteString(w, cs.answer)
	}))
	t.Cleanup(cs.Close)
	return cs
}

// got returns the requests so far (the handler has run for every request
// whose response the client has read).
func (cs *channelServer) got() []received {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return append([]received(nil), cs.requests...)
}

func apiJob(url string) Job {
	return Job{
		Message: &ent.Message{ID: 42, Content: ptr("Hi")},
		Inbox:   &ent.Inbox{ChannelType: inbox.ChannelTypeAPI, Channel: schematype.Channel{WebhookURL: url}},
		Payload: map[string]any{"event": "message_created", "id": 42.0, "content": "Hi"},
	}
}

// The API channel POSTs the message event as JSON with the message's id as
// a stable header for deduplication.
func TestDeliverAPI(t *testing.T) {
	outboundtest.AllowPrivate(t, true) // the test server is on 127.0.0.1
	srv := newChannelServer(t, http.StatusNoContent, "")
	d := NewDispatcher("")
	job := apiJob(srv.URL + "/hooks/switchboard")
	id, err := d.Deliver(context.Background(), job)
	if err != nil || id != "" {
		t.Fatalf("Deliver = %q, %v; want no id and no error", id, err)
	}
	reqs := srv.got()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.method != http.MethodPost || r.path != "/hooks/switchboard" ||
		r.header.Get("Content-Type") != "application/json" || r.header.Get("X-Switchboard-Message-Id") != "42" {
		t.Errorf("request %s %s, Content-Type %q, X-Switchboard-Message-Id %q", r.method, r.path,
			r.header.Get("Content-Type"), r.header.Get("X-Switchboard-Message-Id"))
	}
	var body map[string]any
	if err := json.Unmarshal(r.body, &body); err != nil || !reflect.DeepEqual(body, job.Payload) {
		t.Errorf("body %s (%v), want %v", r.body, err, job.Payload)
	}
}

// A 2xx is delivered; 5xx, 408 and 429 and network failures are worth
// another attempt; any other answer (redirects included: they are not
// followed) fails the message for good.
func TestDeliverAPIClassifiesAnswers(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	for _, tc := range []struct {
		status    int
		ok        bool
		permanent bool
	}{
		{200, true, false},
		{202, true, false},
		{500, false, false},
		{502, false, false},
		{503, false, false},
		{408, false, false},
		{429, false, false},
		{301, false, true},
		{400, false, true},
		{401, false, true},
		{404, false, true},
		{410, false, true},
		{422, false, true},
	} {
		srv := newChannelServer(t, tc.status, "")
		_, err := NewDispatcher("").Deliver(context.Background(), apiJob(srv.URL))
		switch {
		case tc.ok && err != nil:
			t.Errorf("%d: %v, want delivered", tc.status, err)
		case !tc.ok && err == nil:
			t.Errorf("%d: delivered, want an error", tc.status)
		case !tc.ok && IsPermanent(err) != tc.permanent:
			t.Errorf("%d: permanent %v, want %v (%v)", tc.status, IsPermanent(err), tc.permanent, err)
		case !tc.ok && err.Error() != "webhook answered "+strconv.Itoa(tc.status):
			t.Errorf("%d: error %q", tc.status, err)
		}
		if n := len(srv.got()); n != 1 {
			t.Errorf("%d: %d requests reached the receiver, want 1", tc.status, n)
		}
	}
}

// A receiver that is not there is a network failure: retried.
func TestDeliverAPIUnreachableIsRetried(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens on its port any more
	_, err := NewDispatcher("").Deliver(context.Background(), apiJob(url))
	if err == nil || IsPermanent(err) || !strings.HasPrefix(err.Error(), "webhook: ") {
		t.Errorf("an unreachable receiver gave %v (permanent %v), want a retryable webhook error", err, IsPermanent(err))
	}
}

// With the address guard on (production), a webhook URL on loopback is
// refused before any request, for good.
func TestDeliverAPIGuardRefusesLoopback(t *testing.T) {
	outboundtest.AllowPrivate(t, false)
	srv := newChannelServer(t, http.StatusOK, "")
	_, err := NewDispatcher("").Deliver(context.Background(), apiJob(srv.URL))
	if !IsPermanent(err) || !errors.Is(err, outbound.ErrForbiddenAddress) {
		t.Errorf("got %v, want a permanent %v", err, outbound.ErrForbiddenAddress)
	}
	if n := len(srv.got()); n != 0 {
		t.Errorf("the guarded dispatcher reached loopback %d times", n)
	}
}

func whatsAppJob(tp map[string]any) Job {
	return Job{
		Message: &ent.Message{ID: 7, Content: ptr("Your order shipped"), TemplateParams: tp},
		Inbox: &ent.Inbox{ChannelType: inbox.ChannelTypeWhatsapp, Channel: schematype.Channel{
			ProviderConfig: &schematype.ProviderConfig{APIKey: "cloud-key", PhoneNumberID: "1098"}}},
		SourceID: "+14155550123",
	}
}

// WhatsApp Cloud gets a POST to {base}/{phone_number_id}/messages with the
// API key as a bearer token: a text message, or the named template with
// its parameters in number order; the answer's message id is the
// message's source id.
func TestDeliverWhatsApp(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	for _, tc := range []struct {
		name     string
		params   map[string]any
		wantBody string
	}{
		{"text", nil, `{"messaging_product":"whatsapp","recipient_type":"individual","text":{"body":"Your order shipped"},` +
			`"to":"14155550123","type":"text"}`},
		{"template", map[string]any{"name": "order_update", "language": "en_US",
			"processed_params": map[string]any{"10": "j", "2": "b", "1": "a"}},
			`{"messaging_product":"whatsapp","recipient_type":"individual","template":{"components":[{"parameters":[` +
				`{"text":"a","type":"text"},{"text":"b","type":"text"},{"text":"j","type":"text"}],"type":"body"}],` +
				`"language":{"code":"en_US"},"name":"order_update"},"to":"14155550123","type":"template"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newChannelServer(t, http.StatusOK, `{"messaging_product":"whatsapp","messages":[{"id":"wamid.ABC"}]}`)
			id, err := NewDispatcher(srv.URL+"/v20.0/").Deliver(context.Background(), whatsAppJob(tc.params))
			if err != nil || id != "wamid.ABC" {
				t.Fatalf("Deliver = %q, %v; want wamid.ABC", id, err)
			}
			reqs := srv.got()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.method != http.MethodPost || r.path != "/v20.0/1098/messages" ||
				r.header.Get("Authorization") != "Bearer cloud-key" || r.header.Get("Content-Type") != "application/json" {
				t.Errorf("request %s %s, Authorization %q, Content-Type %q", r.method, r.path, r.header.Get("Authorization"), r.header.Get("Content-Type"))
			}
			if string(r.body) != tc.wantBody {
				t.Errorf("body\n%s\nwant\n%s", r.body, tc.wantBody)
			}
		})
	}
}

// A refusal carries the Cloud API's answer; 4xx are final, 5xx retried;
// an inbox without its provider config fails without a request.
func TestDeliverWhatsAppFailures(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	const answer = `{"error":{"message":"Recipient not on WhatsApp","code":131026}}`
	for _, tc := range []struct {
		status    int
		permanent bool
	}{{400, true}, {401, true}, {500, false}, {429, false}} {
		srv := newChannelServer(t, tc.status, answer+"\n")
		id, err := NewDispatcher(srv.URL).Deliver(context.Background(), whatsAppJob(nil))
		want := "whatsapp cloud api answered " + strconv.Itoa(tc.status) + ": " + answer
		if id != "" || err == nil || err.Error() != want || IsPermanent(err) != tc.permanent {
			t.Errorf("%d: %q, %v (permanent %v); want %q, permanent %v", tc.status, id, err, IsPermanent(err), want, tc.permanent)
		}
	}
	srv := newChannelServer(t, http.StatusOK, "{}")
	for _, pc := range []*schematype.ProviderConfig{nil, {PhoneNumberID: "1098"}, {APIKey: "cloud-key"}} {
		job := whatsAppJob(nil)
		job.Inbox.Channel.ProviderConfig = pc
		if _, err := NewDispatcher(srv.URL).Deliver(context.Background(), job); !IsPermanent(err) {
			t.Errorf("provider config %+v: %v, want a permanent failure", pc, err)
		}
	}
	if n := len(srv.got()); n != 0 {
		t.Errorf("an inbox without provider config sent %d requests", n)
	}
	// An answer without a message id is still delivered, without a source id.
	empty := newChannelServer(t, http.StatusOK, "not json")
	if id, err := NewDispatcher(empty.URL).Deliver(context.Background(), whatsAppJob(nil)); err != nil || id != "" {
		t.Errorf("an answer without an id gave %q, %v; want delivered without an id", id, err)
	}
}

func TestDeliverableAndUnsendableChannels(t *testing.T) {
	for _, tc := range []struct {
		ib   *ent.Inbox
		want bool
	}{
		{&ent.Inbox{ChannelType: inbox.ChannelTypeAPI}, false},
		{&ent.Inbox{ChannelType: inbox.ChannelTypeAPI, Channel: schematype.Channel{WebhookURL: "https://hooks.acme.test"}}, true},
		{&ent.Inbox{ChannelType: inbox.ChannelTypeWhatsapp}, true},
		{&ent.Inbox{ChannelType: inbox.ChannelTypeEmail}, true},
		{&ent.Inbox{ChannelType: inbox.ChannelTypeWebWidget}, false},
		{&ent.Inbox{ChannelType: inbox.ChannelTypeSms}, false},
	} {
		if got := Deliverable(tc.ib); got != tc.want {
			t.Errorf("Deliverable(%s, webhook %q) = %v, want %v", tc.ib.ChannelType, tc.ib.Channel.WebhookURL, got, tc.want)
		}
	}
	_, err := NewDispatcher("").Deliver(context.Background(), Job{Inbox: &ent.Inbox{ChannelType: inbox.ChannelTypeWebWidget}})
	if !IsPermanent(err) || err.Error() != "channel web_widget cannot send messages" {
		t.Errorf("a web widget delivery gave %v, want a permanent refusal", err)
	}
}
