package graph_test

// No secret in any GraphQL answer (issue 10): the matrix's answers, and a
// walk that reads every scalar field of the account's objects as the
// administrator, hold no token, password or hash, webhook or kanban webhook
// secret, or channel secret.

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// gmSecretGap lists answers ("key | role") that still show a secret, with
// the reason; they are logged, and a gap that no longer shows fails.
var gmSecretGap = map[string]string{}

type gmAnswer struct {
	key  string
	role gmRole
	body []byte
}

func TestNoSecretInAnyGraphQLAnswer(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newGMWorld(t, e)
		// Read before the run too: the matrix deletes the kanban config.
		before := w.secrets()
		var answers []gmAnswer
		w.record = func(key string, r gmRole, body []byte) { answers = append(answers, gmAnswer{key, r, body}) }
		t.Run("admin reads every scalar field", func(t *testing.T) {
			saved := w.t
			w.t = t
			defer func() { w.t = saved }()
			for _, q := range w.walkQueries() {
				r := w.gql(gqlReq{query: "{ " + q.field + " }"})
				if len(r.Errors) > 0 {
					t.Errorf("%s: %s", q.field, r)
				}
				w.record("walk."+q.name, gmAdmin, r.Body)
			}
		})
		t.Run("matrix", func(t *testing.T) { w.runMatrix(t) })
		secrets := gmUnique(append(before, w.secrets()...))
		skipped := 0
		used := map[string]bool{}
		for _, a := range answers {
			for _, s := range secrets {
				if !strings.Contains(string(a.body), s.value) {
					continue
				}
				if reason, gap := gmSecretGap[a.key+" | "+a.role.String()]; gap {
					skipped++
					used[a.key+" | "+a.role.String()] = true
					t.Logf("known gap (%s): %s shows %s", reason, a.key, s.what)
					continue
				}
				t.Errorf("%s as %s shows %s: %.300s", a.key, a.role, s.what, a.body)
			}
		}
		for k, reason := range gmSecretGap {
			if !used[k] {
				t.Errorf("known gap %q (%s) no longer shows: remove it from gmSecretGap", k, reason)
			}
		}
		t.Logf("%d answers checked against %d secrets; %d known gaps", len(answers), len(secrets), skipped)
	})
}

type gmWalk struct{ name, field string }

// walkQueries selects every scalar field of the objects of the account
// that could carry a secret.
func (w *gmWorld) walkQueries() []gmWalk {
	sel := w.scalars
	return []gmWalk{
		{"kanbanConfig", "kanbanConfig { " + sel("KanbanConfig") + " }"},
		// Members one inbox at a time: every inbox's members in one query
		// costs more than the GraphQL cost limit allows.
		{"inboxes", "inboxes(first: 100) { edges { node { " + sel("Inbox") + " agentBot { " + sel("AgentBot") + " } } } }"},
		{"inboxMembers", fmt.Sprintf("inbox(id: %d) { members { %s } }", w.Inbox1, sel("InboxMember"))},
		{"inbox", fmt.Sprintf("inbox(id: %d) { %s }", w.Inbox1, sel("Inbox"))},
		{"agentBots", "agentBots { " + sel("AgentBot") + " }"},
		{"agents", "agents(first: 100) { edges { node { " + sel("Agent") + " user { " + sel("User") + " } } } }"},
		{"kanbanAutomations", "kanbanAutomations { " + sel("KanbanAutomation") + " }"},
		{"contacts", "contacts(first: 50) { edges { node { " + sel("Contact") + " } } }"},
		{"conversation", fmt.Sprintf("conversation(displayID: %d) { %s }", w.Conv, sel("Conversation"))},
		{"scheduledMessage", fmt.Sprintf("scheduledMessage(id: %d) { %s }", w.Schedule, sel("ScheduledMessage"))},
		{"kanbanItem", fmt.Sprintf("kanbanItem(id: %d) { %s }", w.Card, sel("KanbanItem"))},
		{"webhooks", "webhooks { " + sel("Webhook") + " }"},
		{"webhookDeliveries", fmt.Sprintf("webhookDeliveries(webhookID: %d) { %s }", w.Webhook, sel("WebhookDelivery"))},
	}
}

// scalars lists the fields of a type that take no arguments and are
// scalars or enums, by introspection.
func (w *gmWorld) scalars(typeName string) string {
	w.t.Helper()
	r := w.gql(gqlReq{query: fmt.Sprintf(`{ __type(name: %q) { fields { name args { name }
		type { kind ofType { kind ofType { kind } } } } } }`, typeName)})
	fields, _ := lookup(r.Data, "__type.fields")
	list, _ := fields.([]any)
	if len(list) == 0 {
		w.t.Fatalf("no fields for %s: %s", typeName, r)
	}
	var out []string
	for _, f := range list {
		m := f.(map[string]any)
		if args, _ := m["args"].([]any); len(args) > 0 {
			continue
		}
		kind := innerKind(m["type"])
		if kind == "SCALAR" || kind == "ENUM" {
			out = append(out, m["name"].(string))
		}
	}
	return strings.Join(out, " ")
}

func innerKind(t any) string {
	for t != nil {
		m, _ := t.(map[string]any)
		kind, _ := m["kind"].(string)
		if kind != "NON_NULL" && kind != "LIST" {
			return kind
		}
		t = m["ofType"]
	}
	return ""
}

type gmSecret struct{ what, value string }

// secrets reads every secret the database holds.
func (w *gmWorld) secrets() []gmSecret {
	w.t.Helper()
	c := w.srv.DB.Client
	out := []gmSecret{{"the platform token", w.Platform}, {"a password", "s3cret-pass"}}
	for r, tok := range w.tokens {
		if tok != noToken {
			out = append(out, gmSecret{gmRole(r).String() + "'s token", tok})
		}
	}
	users, err := c.User.Query().All(sys())
	must(w.t, err)
	for _, u := range users {
		out = append(out, gmSecret{"a password hash", u.PasswordHash})
	}
	tokens, err := c.AccessToken.Query().All(sys())
	must(w.t, err)
	for _, tk := range tokens {
		out = append(out, gmSecret{"an access token hash", tk.TokenHash})
	}
	plats, err := c.PlatformToken.Query().All(sys())
	must(w.t, err)
	for _, p := range plats {
		out = append(out, gmSecret{"the platform token hash", p.TokenHash})
	}
	hooks, err := c.WebhookSubscription.Query().All(sys())
	must(w.t, err)
	for _, h := range hooks {
		out = append(out, gmSecret{"a webhook secret", h.Secret})
	}
	configs, err := c.KanbanConfig.Query().All(sys())
	must(w.t, err)
	for _, k := range configs {
		out = append(out, gmSecret{"the kanban webhook secret", k.WebhookSecret})
	}
	inboxes, err := c.Inbox.Query().All(sys())
	must(w.t, err)
	for _, ib := range inboxes {
		out = append(out, gmSecret{"an inbox HMAC token", ib.Channel.HMACToken})
		if ib.Channel.ProviderConfig != nil {
			out = append(out, gmSecret{"a WhatsApp API key", ib.Channel.ProviderConfig.APIKey})
		}
		if ib.Channel.SMTP != nil {
			out = append(out, gmSecret{"an SMTP password", ib.Channel.SMTP.Password})
		}
		if ib.Channel.IMAP != nil {
			out = append(out, gmSecret{"an IMAP password", ib.Channel.IMAP.Password})
		}
	}
	kept := out[:0]
	seen := map[string]bool{}
	for _, s := range out {
		if len(s.value) >= 8 && !seen[s.value] {
			seen[s.value] = true
			kept = append(kept, s)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].what < kept[j].what })
	return kept
}

// gmUnique drops repeated values.
func gmUnique(list []gmSecret) []gmSecret {
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
