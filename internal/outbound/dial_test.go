package outbound

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// stubNet answers lookups from a table and records the addresses the
// dialer would connect to, handing back one end of a pipe: nothing leaves
// the process.
type stubNet struct {
	mu      sync.Mutex
	hosts   map[string][]string
	lookErr error
	dialErr error
	lookups []string
	dialled []string
}

func (s *stubNet) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lookups = append(s.lookups, host)
	if s.lookErr != nil {
		return nil, s.lookErr
	}
	var out []netip.Addr
	for _, a := range s.hosts[host] {
		out = append(out, netip.MustParseAddr(a))
	}
	return out, nil
}

func (s *stubNet) dial(_ context.Context, _, address string) (net.Conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dialled = append(s.dialled, address)
	if s.dialErr != nil {
		return nil, s.dialErr
	}
	c1, c2 := net.Pipe()
	_ = c2.Close()
	return c1, nil
}

func (s *stubNet) dialer(allowPrivate bool) *dialer {
	return &dialer{resolver: s, dial: s.dial, allowPrivate: allowPrivate}
}

func TestDialChecksEveryResolvedAddress(t *testing.T) {
	hosts := map[string][]string{
		"hooks.example.com": {"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"},
		"metadata.evil":     {"169.254.169.254"},
		"cgnat.evil":        {"100.100.100.200"},
		"mixed.evil":        {"93.184.216.34", "10.0.0.7"},
		"mapped.evil":       {"::ffff:127.0.0.1"},
		"nat64.evil":        {"64:ff9b::a9fe:a9fe"},
		"teredo.evil":       {"2001:0:4136:e378:8000:63bf:3fff:fdd2"},
		"sixto4.evil":       {"2002:c0a8:0101::1"},
		"zero.evil":         {"0.0.0.0"},
		"nat64.example":     {"64:ff9b::5db8:d822"},
	}
	cases := []struct {
		address      string
		allowPrivate bool
		refused      bool
		dialled      []string
	}{
		{address: "hooks.example.com:443", dialled: []string{"93.184.216.34:443"}},
		{address: "nat64.example:443", dialled: []string{"[64:ff9b::5db8:d822]:443"}},
		{address: "93.184.216.34:80", dialled: []string{"93.184.216.34:80"}},
		{address: "metadata.evil:80", refused: true},
		{address: "cgnat.evil:80", refused: true},
		{address: "mixed.evil:80", refused: true},
		{address: "mapped.evil:80", refused: true},
		{address: "nat64.evil:80", refused: true},
		{address: "teredo.evil:80", refused: true},
		{address: "sixto4.evil:80", refused: true},
		{address: "zero.evil:80", refused: true},
		{address: "127.0.0.1:25", refused: true},
		{address: "[::1]:25", refused: true},
		{address: "[fe80::1%eth0]:25", refused: true},
		{address: "metadata.evil:80", allowPrivate: true, dialled: []string{"169.254.169.254:80"}},
	}
	for _, c := range cases {
		s := &stubNet{hosts: hosts}
		conn, err := s.dialer(c.allowPrivate).DialContext(context.Background(), "tcp", c.address)
		if conn != nil {
			_ = conn.Close()
		}
		if c.refused {
			if !errors.Is(err, ErrForbiddenAddress) {
				t.Errorf("%s: err %v, want the address refused", c.address, err)
			}
			if len(s.dialled) != 0 {
				t.Errorf("%s: dialled %v after the refusal", c.address, s.dialled)
			}
			for _, leak := range []string{"169.254", "100.100", "10.0.0.7", "127.0.0.1", "::1", "0.0.0.0", "64:ff9b", "2001:0", "2002:"} {
				if !strings.Contains(c.address, leak) && strings.Contains(err.Error(), leak) {
					t.Errorf("%s: the error %q reveals the resolved address", c.address, err)
				}
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.address, err)
		}
		if strings.Join(s.dialled, " ") != strings.Join(c.dialled, " ") {
			t.Errorf("%s: dialled %v, want %v", c.address, s.dialled, c.dialled)
		}
	}
}

// Errors name the host as configured, never the resolver or the addresses.
func TestDialErrorsRevealNothing(t *testing.T) {
	cases := []struct {
		name    string
		net     *stubNet
		want    string
		timeout bool
	}{
		{name: "unknown host", want: "host nowhere.example not found",
			net: &stubNet{lookErr: &net.DNSError{Err: "no such host", Name: "nowhere.example", Server: "10.96.0.10:53", IsNotFound: true}}},
		{name: "resolver timeout", want: "looking up nowhere.example timed out", timeout: true,
			net: &stubNet{lookErr: &net.DNSError{Err: "i/o timeout", Name: "nowhere.example", Server: "10.96.0.10:53", IsTimeout: true}}},
		{name: "resolver failure", want: "looking up nowhere.example failed",
			net: &stubNet{lookErr: &net.DNSError{Err: "server misbehaving", Name: "nowhere.example", Server: "10.96.0.10:53"}}},
		{name: "no addresses", want: "host nowhere.example not found", net: &stubNet{}},
		{name: "connection refused", want: "connect to nowhere.example: connection refused",
			net: &stubNet{hosts: map[string][]string{"nowhere.example": {"93.184.216.34"}},
				dialErr: &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.ParseIP("93.184.216.34"), Port: 80}, Err: syscall.ECONNREFUSED}}},
		{name: "connect timeout", want: "connect to nowhere.example: i/o timeout", timeout: true,
			net: &stubNet{hosts: map[string][]string{"nowhere.example": {"93.184.216.34"}},
				dialErr: &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.ParseIP("93.184.216.34"), Port: 80}, Err: timeoutErr{}}}},
	}
	for _, c := range cases {
		_, err := c.net.dialer(false).DialContext(context.Background(), "tcp", "nowhere.example:80")
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
			continue
		}
		for _, leak := range []string{"10.96.0.10", "93.184.216.34", ":53"} {
			if strings.Contains(err.Error(), leak) {
				t.Errorf("%s: %q reveals %s", c.name, err, leak)
			}
		}
		var ne net.Error
		if c.timeout && (!errors.As(err, &ne) || !ne.Timeout()) {
			t.Errorf("%s: %v is not a timeout any more", c.name, err)
		}
	}
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

// The HTTP client resolves through the guarded dialer: a URL whose name
// resolves to a private address fails before any connection, with an error
// delivery does not retry.
func TestClientRefusesNamesResolvingToPrivateAddresses(t *testing.T) {
	s := &stubNet{hosts: map[string][]string{"rebind.example": {"127.0.0.1"}}}
	client := newClient(time.Second, s.dialer(false))
	_, err := client.Get("http://rebind.example/hook")
	if !errors.Is(err, ErrForbiddenAddress) || Retryable(0, err) {
		t.Fatalf("err %v, want a final refusal", err)
	}
	if strings.Contains(err.Error(), "127.0.0.1") || len(s.dialled) != 0 {
		t.Errorf("the refusal %q names the address or dialled %v", err, s.dialled)
	}
}

// A redirect is handed back, not followed: a receiver cannot bounce a
// request to an address the guard would refuse.
func TestClientDoesNotFollowRedirects(t *testing.T) {
	var hits int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	}))
	defer srv.Close()
	client := newClient(2*time.Second, newDialer(true, &net.Dialer{Timeout: time.Second}))
	resp, err := client.Post(srv.URL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	mu.Lock()
	defer mu.Unlock()
	if resp.StatusCode != http.StatusFound || hits != 1 {
		t.Errorf("status %d after %d requests, want the 302 itself after 1", resp.StatusCode, hits)
	}
}

// The socket-level guard stops a connection to a loopback listener even when
// the address reaches it without the resolver step.
func TestSocketGuardRefusesLoopback(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- struct{}{}
			_ = c.Close()
		}
	}()
	d := &net.Dialer{Timeout: time.Second, Control: controlGuard(false)}
	if _, err := d.Dial("tcp", ln.Addr().String()); !errors.Is(err, ErrForbiddenAddress) {
		t.Fatalf("err %v, want the guard's refusal", err)
	}
	_ = ln.Close()
	select {
	case <-accepted:
		t.Error("the loopback listener accepted a connection")
	default:
	}
}
