package web_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/throttle"
	"github.com/switchboard/switchboard/internal/viewer"
)

// manualClock is a clock tests move by hand instead of waiting.
type manualClock struct {
	mu sync.Mutex
	t  time.Time
}

func newManualClock() *manualClock { return &manualClock{t: time.Now().UTC().Truncate(time.Second)} }

func (c *manualClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// reply is a console answer.
type reply struct {
	status int
	header http.Header
	body   string
	res    *http.Response
}

// send makes a console request (no redirects followed) with the given
// headers; form, when not nil, is the url-encoded body.
func (c *console) send(method, path string, form url.Values, header map[string]string) reply {
	c.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, c.base+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := noRedirects.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return reply{res.StatusCode, res.Header, string(raw), res}
}

func (c *console) login(email, password string) reply {
	c.t.Helper()
	return c.send("POST", "/app/login", url.Values{"email": {email}, "password": {password}}, nil)
}

func sessionOf(r reply) *http.Cookie {
	for _, ck := range r.res.Cookies() {
		if ck.Name == "sb_session" {
			return ck
		}
	}
	return nil
}

// TestConsoleSignInIsThrottled: wrong passwords are limited per e-mail and
// per client address; a throttled sign-in answers 429 with Retry-After and
// says so on the form, even for the right password, until the wait is over.
func TestConsoleSignInIsThrottled(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		clock := newManualClock()
		limits := accounts.DefaultAuthLimits
		limits.PasswordPerEmail = throttle.Config{Burst: 3, Every: time.Minute}
		limits.PasswordPerAddress = throttle.Config{Burst: 5, Every: time.Minute}
		c := newConsoleWith(t, e, server.Config{Now: clock.Now, AuthLimits: &limits}) // signs in once
		steps := []struct {
			name, email, password string
			status                int
			retryAfter, message   string
		}{
			{"wrong password 1", "admin@acme.test", "nope-1", 401, "", "Invalid e-mail or password"},
			{"wrong password 2", "ADMIN@acme.test", "nope-2", 401, "", "Invalid e-mail or password"},
			{"wrong password 3", "admin@acme.test", "nope-3", 401, "", "Invalid e-mail or password"},
			{"the e-mail is throttled", "admin@acme.test", "nope-4", 429, "60", "Too many sign-in attempts: try again in 1 minute."},
			{"even with the right password", "admin@acme.test", "long-enough-pass", 429, "60", "Too many sign-in attempts"},
			{"another e-mail may still try", "who@acme.test", "x", 401, "", "Invalid e-mail or password"},
			{"and another", "what@acme.test", "x", 401, "", "Invalid e-mail or password"},
			{"until the address is throttled", "where@acme.test", "x", 429, "60", "Too many sign-in attempts"},
		}
		for _, s := range steps {
			t.Run(s.name, func(t *testing.T) {
				r := c.login(s.email, s.password)
				if r.status != s.status || r.header.Get("Retry-After") != s.retryAfter {
					t.Fatalf("%d (Retry-After %q), want %d (%q): %s", r.status, r.header.Get("Retry-After"), s.status, s.retryAfter, r.body)
				}
				if !strings.Contains(r.body, `data-testid="login-error">`+s.message) || sessionOf(r) != nil {
					t.Errorf("the form does not say %q (or a session was set): %s", s.message, r.body)
				}
			})
		}
		clock.Advance(time.Minute)
		t.Run("after the wait the right password signs in", func(t *testing.T) {
			r := c.login("admin@acme.test", "long-enough-pass")
			if r.status != http.StatusSeeOther || sessionOf(r) == nil {
				t.Fatalf("%d %s", r.status, r.body)
			}
		})
		t.Run("a success costs no attempt", func(t *testing.T) {
			if r := c.login("admin@acme.test", "nope-5"); r.status != http.StatusUnauthorized {
				t.Fatalf("%d %s", r.status, r.body)
			}
		})
	})
}

// TestSignInThrottlesPerAddress: one address's failures do not throttle
// another's (the HTTP tests all come from 127.0.0.1, so this is checked on
// the operation).
func TestSignInThrottlesPerAddress(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		limits := accounts.DefaultAuthLimits
		limits.PasswordPerAddress = throttle.Config{Burst: 2, Every: time.Hour}
		c := newConsoleWith(t, e, server.Config{AuthLimits: &limits})
		ctx := context.Background()
		for i, addr := range []string{"203.0.113.9", "203.0.113.9", "203.0.113.9", "198.51.100.4"} {
			_, err := c.srv.Svc.StartSession(ctx, addr, "nobody"+string(rune('a'+i))+"@acme.test", "x")
			want := apperr.KindUnauthenticated
			if i == 2 {
				want = apperr.KindTooManyRequests
			}
			if got := apperr.From(err).Kind; got != want {
				t.Errorf("attempt %d from %s: kind %v (%v), want %v", i+1, addr, got, err, want)
			}
		}
	})
}

// TestConsoleSessions: a session is its own token (not the API token) in an
// HttpOnly, SameSite=Lax cookie; it ends after 12 hours unused or 7 days
// in all, and at sign-out; an ended session sends the browser to sign in.
func TestConsoleSessions(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		clock := newManualClock()
		c := newConsoleWith(t, e, server.Config{Now: clock.Now})
		contacts := c.app("/contacts")
		signIn := func(t *testing.T) string {
			t.Helper()
			r := c.login("admin@acme.test", "long-enough-pass")
			ck := sessionOf(r)
			if r.status != http.StatusSeeOther || ck == nil {
				t.Fatalf("sign-in: %d %s", r.status, r.body)
			}
			return ck.Name + "=" + ck.Value
		}
		expectPage := func(t *testing.T, cookie string, want int) {
			t.Helper()
			r := c.send("GET", contacts, nil, map[string]string{"Cookie": cookie})
			if r.status != want {
				t.Fatalf("the contacts page answered %d, want %d", r.status, want)
			}
			if want == http.StatusSeeOther && r.header.Get("Location") != "/app/login" {
				t.Errorf("redirected to %q, want /app/login", r.header.Get("Location"))
			}
		}
		sessions := func(t *testing.T) int {
			t.Helper()
			n, err := c.srv.DB.Client.ConsoleSession.Query().Count(viewer.SystemContext(context.Background()))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}

		t.Run("the cookie", func(t *testing.T) {
			r := c.login("admin@acme.test", "long-enough-pass")
			ck := sessionOf(r)
			if ck == nil {
				t.Fatalf("no session cookie: %d", r.status)
			}
			if !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure || ck.Path != "/" {
				t.Errorf("cookie attributes: %+v", ck)
			}
			if want := clock.Now().Add(accounts.SessionMaxAge); !ck.Expires.Equal(want) {
				t.Errorf("cookie expires %v, want %v", ck.Expires, want)
			}
			if ck.Value == c.token {
				t.Error("the cookie holds the API token")
			}
			req, _ := http.NewRequest("GET", c.base+c.api("/contacts"), nil)
			req.Header.Set("api_access_token", ck.Value)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusUnauthorized {
				t.Errorf("the session token works as an API token: %d", res.StatusCode)
			}
		})
		t.Run("an API token is no session", func(t *testing.T) {
			expectPage(t, "sb_session="+c.token, http.StatusSeeOther)
		})
		t.Run("12 hours unused ends a session", func(t *testing.T) {
			cookie := signIn(t)
			clock.Advance(11 * time.Hour)
			expectPage(t, cookie, http.StatusOK) // seen: the idle window restarts
			clock.Advance(11 * time.Hour)
			expectPage(t, cookie, http.StatusOK)
			clock.Advance(12 * time.Hour)
			before := sessions(t)
			expectPage(t, cookie, http.StatusSeeOther)
			if after := sessions(t); after != before-1 {
				t.Errorf("the expired session was kept (%d sessions, then %d)", before, after)
			}
		})
		t.Run("7 days end a session however busy", func(t *testing.T) {
			cookie := signIn(t)
			for range 15 { // 165 hours, never 12 idle
				clock.Advance(11 * time.Hour)
				expectPage(t, cookie, http.StatusOK)
			}
			clock.Advance(3 * time.Hour)
			expectPage(t, cookie, http.StatusSeeOther)
		})
		t.Run("signing in sweeps expired sessions", func(t *testing.T) {
			signIn(t)
			clock.Advance(accounts.SessionMaxAge)
			signIn(t)
			if n := sessions(t); n != 1 {
				t.Errorf("%d sessions kept, want only the new one", n)
			}
		})
		t.Run("signing out ends the session", func(t *testing.T) {
			cookie := signIn(t)
			before := sessions(t)
			r := c.send("POST", "/app/logout", url.Values{}, map[string]string{"Cookie": cookie, "Origin": c.base})
			if r.status != http.StatusSeeOther || r.header.Get("Location") != "/app/login" {
				t.Fatalf("sign-out: %d %v", r.status, r.header)
			}
			if ck := sessionOf(r); ck == nil || ck.Value != "" {
				t.Errorf("sign-out did not clear the cookie: %+v", ck)
			}
			expectPage(t, cookie, http.StatusSeeOther)
			if n := sessions(t); n != before-1 {
				t.Errorf("%d sessions after signing out, want %d", n, before-1)
			}
		})
		t.Run("the API token survives the console's sign-out", func(t *testing.T) {
			if st, out := c.post(c.api("/contacts"), map[string]any{"name": "Still here"}, true); st == http.StatusUnauthorized {
				t.Errorf("the API token was revoked: %v", out)
			}
		})
	})
}

// TestConsoleCookieIsSecureOverHTTPS: with an https PUBLIC_URL the session
// cookie is Secure.
func TestConsoleCookieIsSecureOverHTTPS(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsoleWith(t, e, server.Config{PublicURL: "https://console.example.com"})
		if ck := sessionOf(c.login("admin@acme.test", "long-enough-pass")); ck == nil || !ck.Secure {
			t.Errorf("cookie %+v, want Secure", ck)
		}
	})
}

// TestConsoleWritesRequireSameOrigin: console writes, sign-in and sign-out
// and the live board's upgrade are refused (403) from another origin,
// judged by Origin, else Referer, else Sec-Fetch-Site.
func TestConsoleWritesRequireSameOrigin(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		c := newConsoleWith(t, e, server.Config{PublicURL: "https://console.example.com"})
		move := c.app("/kanban_items/999999/move") // no body: 400 once past the check
		creds := url.Values{"email": {"admin@acme.test"}, "password": {"long-enough-pass"}}
		cases := []struct {
			name, method, path string
			form               url.Values
			header             map[string]string
			want               int
		}{
			{"a move from our own page", "POST", move, url.Values{}, map[string]string{"Origin": c.base}, 400},
			{"a move from PUBLIC_URL's origin", "POST", move, url.Values{}, map[string]string{"Origin": "https://console.example.com"}, 400},
			{"a move from another origin", "POST", move, url.Values{}, map[string]string{"Origin": "http://evil.example"}, 403},
			{"a move from another port of our host", "POST", move, url.Values{}, map[string]string{"Origin": "http://127.0.0.1:1"}, 403},
			{"a move from an opaque origin", "POST", move, url.Values{}, map[string]string{"Origin": "null"}, 403},
			{"a move with only a foreign Referer", "POST", move, url.Values{}, map[string]string{"Referer": "http://evil.example/page"}, 403},
			{"a move with our own Referer", "POST", move, url.Values{}, map[string]string{"Referer": c.base + "/app"}, 400},
			{"a move a browser marks cross-site", "POST", move, url.Values{}, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
			{"a move from no page (a script)", "POST", move, url.Values{}, nil, 400},
			{"a page view from anywhere", "GET", c.app("/contacts"), nil, map[string]string{"Origin": "http://evil.example"}, 200},
			{"a sign-in from another origin", "POST", "/app/login", creds, map[string]string{"Origin": "http://evil.example"}, 403},
			{"a sign-in from our own page", "POST", "/app/login", creds, map[string]string{"Origin": c.base}, 303},
			{"a sign-out from another origin", "POST", "/app/logout", url.Values{}, map[string]string{"Origin": "http://evil.example"}, 403},
			{"the live board from another origin", "GET", c.app("/funnels/1/live"), nil, map[string]string{
				"Origin": "http://evil.example", "Connection": "Upgrade", "Upgrade": "websocket",
				"Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}, 403},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				h := map[string]string{"Cookie": c.cookie}
				for k, v := range tc.header {
					h[k] = v
				}
				r := c.send(tc.method, tc.path, tc.form, h)
				if r.status != tc.want {
					t.Fatalf("%d, want %d: %s", r.status, tc.want, r.body)
				}
				if r.status == 403 && !strings.Contains(r.body, "Cross-origin request refused") {
					t.Errorf("403 without its reason: %s", r.body)
				}
			})
		}
		if st, _ := c.page(c.app("/contacts"), c.cookie); st != http.StatusOK {
			t.Errorf("the refused sign-out ended the session: %d", st)
		}
	})
}
