package rest_test

// No secret in any answer (issue 10): tokens, passwords and their hashes,
// channel secrets, webhook secrets and the platform token never appear in a
// response body of the matrix's requests or of a walk over every GET route
// as the administrator. Allowed: the answer that creates a webhook (or an
// API inbox) shows its secret once; sign-in and the platform's user
// creation issue tokens that are not in the set checked.

import (
	"sort"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// secretGap lists answers ("METHOD /path | role") that still show a secret
// the issue says must not be shown, with the reason; they are logged, and a
// gap that no longer shows fails so that it is removed here.
var secretGap = map[string]string{}

// answer is one recorded response.
type answer struct {
	route string
	role  mxRole
	res   *response
}

func TestNoSecretInAnyResponse(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newMatrixWorld(t, e)
		// Read before the run too: the matrix deletes the kanban config.
		before := w.secrets()
		var answers []answer
		w.record = func(route string, r mxRole, res *response) { answers = append(answers, answer{route, r, res}) }
		table := matrixTable()
		routes := w.routeTable()
		var first, late []matrixRoute
		for _, r := range routes {
			if en, found := table[r.entryKey()]; found && en.last {
				late = append(late, r)
			} else if found {
				first = append(first, r)
			}
		}
		t.Run("admin walks every GET route", func(t *testing.T) {
			for _, r := range first {
				en := table[r.entryKey()]
				if r.method != "GET" || en.want[roleAdmin] == oGraphQL {
					continue
				}
				c := &mxCell{w: w, t: t, role: roleAdmin, ids: w.defaultIDs(r.path, roleAdmin)}
				w.record(routeKey(r.method, r.path), roleAdmin, c.send(r.method, r.path, en))
			}
		})
		// The matrix's own verdicts are TestAuthorizationMatrix's; here only
		// the bodies count.
		t.Run("matrix", func(t *testing.T) {
			var st matrixStats
			for _, r := range append(first, late...) {
				w.runRoute(t, r, table[r.entryKey()], &st)
			}
		})
		secrets := unique(append(before, w.secrets()...))
		checked, skipped := 0, 0
		used := map[string]bool{}
		for _, a := range answers {
			for _, s := range secrets {
				if !strings.Contains(string(a.res.Body), s.value) || allowedSecret(a, s) {
					continue
				}
				if reason, gap := secretGap[a.route+" | "+a.role.String()]; gap {
					skipped++
					used[a.route+" | "+a.role.String()] = true
					t.Logf("known gap (%s): %s shows %s", reason, a.res.req, s.what)
					continue
				}
				t.Errorf("%s as %s shows %s: %.300s", a.res.req, a.role, s.what, a.res.Body)
			}
			checked++
		}
		for k, reason := range secretGap {
			if !used[k] {
				t.Errorf("known gap %q (%s) no longer shows: remove it from secretGap", k, reason)
			}
		}
		t.Logf("%d answers checked against %d secrets; %d known gaps", checked, len(secrets), skipped)
	})
}

// secret is one value no answer may show.
type secret struct{ what, value string }

// secrets reads every secret the database holds (read after the run too,
// those the matrix made are included), and the plain ones the seed knows.
func (w *mxWorld) secrets() []secret {
	w.t.Helper()
	c := w.srv.DB.Client
	out := []secret{{"the platform token", w.Platform}, {"a password", w.password},
		{"the WhatsApp API key", "mx-whatsapp-api-key-secret"}, {"the WhatsApp app secret", "mx-whatsapp-app-secret"},
		{"the SMTP password", "mx-smtp-password-secret"}, {"the IMAP password", "mx-imap-password-secret"}}
	for r, cr := range w.roles {
		for _, v := range []string{cr.token, cr.session} {
			if v != "" {
				out = append(out, secret{mxRole(r).String() + "'s token or session", v})
			}
		}
	}
	users, err := c.User.Query().All(sys())
	mxMust(w.t, err)
	for _, u := range users {
		out = append(out, secret{"a password hash", u.PasswordHash})
	}
	tokens, err := c.AccessToken.Query().All(sys())
	mxMust(w.t, err)
	for _, tk := range tokens {
		out = append(out, secret{"an access token hash", tk.TokenHash})
	}
	plats, err := c.PlatformToken.Query().All(sys())
	mxMust(w.t, err)
	for _, p := range plats {
		out = append(out, secret{"the platform token hash", p.TokenHash})
	}
	hooks, err := c.WebhookSubscription.Query().All(sys())
	mxMust(w.t, err)
	for _, h := range hooks {
		out = append(out, secret{"a webhook secret", h.Secret})
	}
	configs, err := c.KanbanConfig.Query().All(sys())
	mxMust(w.t, err)
	for _, k := range configs {
		out = append(out, secret{"the kanban webhook secret", k.WebhookSecret})
	}
	inboxes, err := c.Inbox.Query().All(sys())
	mxMust(w.t, err)
	for _, ib := range inboxes {
		ch := ib.Channel
		out = append(out, secret{"an inbox HMAC token", ch.HMACToken})
		if ch.ProviderConfig != nil {
			out = append(out, secret{"a WhatsApp API key", ch.ProviderConfig.APIKey})
		}
		if ch.SMTP != nil {
			out = append(out, secret{"an SMTP password", ch.SMTP.Password})
		}
		if ch.IMAP != nil {
			out = append(out, secret{"an IMAP password", ch.IMAP.Password})
		}
	}
	kept := out[:0]
	seen := map[string]bool{}
	for _, s := range out {
		if len(s.value) >= 8 && !seen[s.value] {
			seen[s.value] = true // empty and trivial values match anything
			kept = append(kept, s)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].what < kept[j].what })
	return kept
}

// allowedSecret: the creation of a webhook shows its secret once, and the
// creation of an API inbox the HMAC token it generated.
func allowedSecret(a answer, s secret) bool {
	created := a.res.Status < 300 && strings.HasPrefix(a.route, "POST ")
	return created && (s.what == "a webhook secret" && strings.HasSuffix(a.route, "/webhooks") ||
		s.what == "an inbox HMAC token" && strings.HasSuffix(a.route, "/inboxes"))
}

func mxMust(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// unique drops repeated values.
func unique(list []secret) []secret {
	seen := map[string]bool{}
	out := list[:0]
	for _, s := range list {
		if !seen[s.value] {
			seen[s.value] = true
			out = append(out, s)
		}
	}
	return out
}
