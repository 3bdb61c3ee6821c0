package rest_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// The HTTP-level fuzz pass (issue 10): every route of the Fiber route table,
// its path parameters filled with real ids of a seeded account, receives
// random and mutated bodies and query strings as an administrator and as an
// agent. No answer may be a 5xx, and every error of the API must be JSON.
// The generator is seeded, so a failure replays; the pass stops at a time
// budget per engine.
//
// Outbound safety: the only URLs the generator knows point at 127.0.0.1,
// and bodies holding "http" are never mutated byte by byte, so no mutation
// can turn one into another host.

const (
	fuzzSeed       = 20261123
	fuzzRounds     = 12               // bodies per route and role
	fuzzTimeBudget = 25 * time.Second // per engine
)

func TestFuzzRoutes(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		w := seedFuzzWorld(t, a)
		routes := fuzzRoutes(a)
		rng := rand.New(rand.NewPCG(fuzzSeed, uint64(len(routes))))
		g := &bodyGen{rng: rng, ids: w.idValues()}
		deadline := time.Now().Add(fuzzTimeBudget)
		var sent, fivexx int
		byClass := map[int]int{} // answers by status class, to see the pass gets past the decoders
		var failures []string
		// Deletes go last, so the seeded records live through the rest.
		for phase := 0; phase < 2; phase++ {
			for round := 0; round < fuzzRounds && time.Now().Before(deadline); round++ {
				for _, rt := range routes {
					if (rt.method == "DELETE") != (phase == 1) || time.Now().After(deadline) {
						continue
					}
					for _, token := range w.tokensFor(rt.path) {
						rq := g.request(rt, w, token, round)
						r := doRequest(t, a, rq)
						sent++
						byClass[r.Status/100]++
						if msg := fuzzProblem(r, rq); msg != "" {
							if r.Status >= 500 {
								fivexx++
							}
							if len(failures) < 25 {
								failures = append(failures, msg)
							}
						}
					}
				}
			}
		}
		t.Logf("fuzz pass on %s: %d routes, %d requests (2xx %d, 3xx %d, 4xx %d), %d answered 5xx",
			e.Name, len(routes), sent, byClass[2], byClass[3], byClass[4], fivexx)
		if sent < 1000 {
			t.Errorf("only %d requests within the time budget, want thousands", sent)
		}
		for _, f := range failures {
			t.Error(f)
		}
	})
}

// fuzzProblem says what is wrong with an answer: a 5xx, or an API error
// that is not JSON.
func fuzzProblem(r *response, rq request) string {
	api := strings.HasPrefix(rq.path, "/api/") || strings.HasPrefix(rq.path, "/platform/")
	bad := r.Status >= 500 || (api && r.Status >= 400 && r.JSON == nil)
	if !bad {
		return ""
	}
	body := fmt.Sprint(rq.body)
	if f, ok := rq.body.(*form); ok {
		body = fmt.Sprintf("form %v files %d", f.fields, len(f.files))
	}
	if len(body) > 400 {
		body = body[:400] + "…"
	}
	return fmt.Sprintf("%s (content type %q) with body %s", r, rq.contentType, body)
}

type fuzzRoute struct{ method, path string }

// fuzzRoutes is the app's route table without middleware entries and the
// HEAD twins Fiber adds for GET.
func fuzzRoutes(a *app) []fuzzRoute {
	seen := map[fuzzRoute]bool{}
	var out []fuzzRoute
	for _, r := range a.srv.App.GetRoutes(true) {
		switch r.Method {
		case "GET", "POST", "PUT", "PATCH", "DELETE":
		default:
			continue
		}
		rt := fuzzRoute{r.Method, r.Path}
		if !seen[rt] && r.Path != "/" && !strings.Contains(r.Path, "*") {
			seen[rt] = true
			out = append(out, rt)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].path != out[j].path {
			return out[i].path < out[j].path
		}
		return out[i].method < out[j].method
	})
	return out
}

// fuzzWorld is the seeded account: one record of each kind the routes name.
type fuzzWorld struct {
	a                                       *app
	agentToken                              string
	agentID, inbox, contact, conv, message  int
	label, team, bot, attr, webhook, funnel int
	card, schedule, automation, attachment  int
	platformUser                            int
	checklistItem, note                     int
}

func seedFuzzWorld(t *testing.T, a *app) *fuzzWorld {
	t.Helper()
	w := &fuzzWorld{a: a}
	w.agentID, w.agentToken = a.agent(a.Account)
	w.platformUser, _ = a.user("Platform Person")
	w.inbox = a.inbox("Fuzz API", H{"type": "api", "webhook_url": "http://127.0.0.1:9/in"})
	a.addInboxMembers(w.inbox, w.agentID)
	w.contact, _ = a.contact(w.inbox, H{"name": "Fuzz Contact", "email": "fuzz@contact.test"})
	w.conv = a.conversation(a.Account, w.inbox, w.contact)
	msg := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", w.conv),
		body: fields("content", "with a file").file("attachments[]", "a.png", "image/png", []byte("png"))}, http.StatusOK)
	w.message, w.attachment = msg.int(t, "id"), msg.int(t, "attachments.0.id")
	w.label = a.label("fuzz")
	w.team = a.team("Fuzzers")
	w.bot = a.agentBot("Fuzz Bot")
	w.attr = a.customAttribute("plan", "text", "contact_attribute")
	w.webhook = a.mustDo(request{method: "POST", path: a.path("/webhooks"), body: H{"url": "http://127.0.0.1:9/hook",
		"subscriptions": []string{"message_created"}}}, http.StatusOK).int(t, "payload.webhook.id")
	w.funnel = a.funnel("Fuzz Funnel", "new", "won")
	w.card = a.card(w.funnel, "new", H{"title": "Fuzz card"})
	w.schedule = a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), body: H{"inbox_id": w.inbox,
		"contact_id": w.contact, "content": "later", "scheduled_at": inAnHour()}}, http.StatusOK).int(t, "id")
	w.automation = a.mustDo(request{method: "POST", path: a.path("/kanban/automations"), body: H{"name": "Fuzz rule",
		"trigger_type": "status_changed", "action_type": "set_priority", "action_config": H{"priority": "high"}}}, http.StatusOK).int(t, "id")
	w.checklistItem = a.mustDo(request{method: "POST", path: a.path("/kanban_items/%d/create_checklist_item", w.card),
		body: H{"text": "step"}}, http.StatusOK).int(t, "checklist_item.id")
	w.note = a.mustDo(request{method: "POST", path: a.path("/kanban_items/%d/create_note", w.card),
		body: H{"content": "note"}}, http.StatusOK).int(t, "note.id")
	return w
}

// idFor is the id a path parameter takes: the record named by the segment
// before it.
func (w *fuzzWorld) idFor(segment, param string) int {
	switch param {
	case "account_id":
		return w.a.Account
	case "message_id":
		return w.message
	case "inbox_id":
		return w.inbox
	case "conversation_id":
		return w.conv
	case "funnel_id":
		return w.funnel
	}
	byResource := map[string]int{
		"contacts": w.contact, "inboxes": w.inbox, "custom_attribute_definitions": w.attr, "agent_bots": w.bot,
		"labels": w.label, "conversations": w.conv, "scheduled_messages": w.schedule, "webhooks": w.webhook,
		"agents": w.agentID, "teams": w.team, "funnels": w.funnel, "kanban_items": w.card, "automations": w.automation,
		"attachments": w.attachment, "accounts": w.a.Account, "users": w.platformUser, "inbox_members": w.inbox,
	}
	if id, ok := byResource[segment]; ok {
		return id
	}
	return 1
}

// idValues are the ids bodies draw from: real ones and wrong ones.
func (w *fuzzWorld) idValues() []any {
	return []any{w.a.Account, w.agentID, w.a.AdminID, w.inbox, w.contact, w.conv, w.message, w.label, w.team,
		w.bot, w.attr, w.webhook, w.funnel, w.card, w.schedule, w.automation, w.checklistItem, w.note,
		0, -1, 999999, "1", "abc", 1.5, nil}
}

// tokensFor is who sends to a route: the platform token for the platform
// API, the administrator and the agent for everything else.
func (w *fuzzWorld) tokensFor(path string) []string {
	if strings.HasPrefix(path, "/platform/") {
		return []string{w.a.Platform, w.a.Admin}
	}
	return []string{w.a.Admin, w.agentToken}
}

// bodyGen makes random request bodies and query strings.
type bodyGen struct {
	rng *rand.Rand
	ids []any
}

// fuzzKeys are the field names the API reads, so random bodies reach the
// decoders and operations rather than stopping at "unknown field".
var fuzzKeys = []string{
	"name", "email", "phone_number", "identifier", "content", "title", "description", "labels", "user_ids",
	"inbox_id", "contact_id", "assignee_id", "team_id", "status", "priority", "message_type", "private",
	"custom_attributes", "additional_attributes", "content_attributes", "template_params", "source_id",
	"message", "contact", "kanban_item", "funnel", "item_details", "stages", "positions", "payload",
	"item_ids", "funnel_id", "funnel_stage", "agent_id", "assigned_agents", "value", "currency", "position",
	"channel", "type", "webhook_url", "url", "subscriptions", "role", "availability", "scheduled_at",
	"recurrence_type", "recurrence_days", "recurrence_interval", "recurrence_end_type", "recurrence_end_date",
	"recurrence_max_occurrences", "trigger_type", "action_type", "trigger_config", "action_config", "enabled",
	"attribute_display_name", "attribute_key", "attribute_display_type", "attribute_model", "attribute_values",
	"text", "due_date", "completed", "mapping", "mappings", "base_contact_id", "mergee_contact_id", "user_id",
	"account_id", "password", "locale", "snoozed_until", "color", "show_on_sidebar", "slug", "outgoing_url",
	"greeting_message", "timezone", "hmac_mandatory", "provider", "provider_config", "message_templates",
	"attribute_key", "filter_operator", "values", "query_operator", "id", "new_stage", "conversation_display_id",
}

var fuzzStrings = []string{
	"", " ", "x", "open", "resolved", "pending", "snoozed", "high", "urgent", "none", "incoming", "outgoing",
	"api", "whatsapp", "email", "weekly", "monthly", "daily", "never", "on_date", "after_occurrences", "text",
	"number", "list", "contact_attribute", "conversation_attribute", "administrator", "agent", "new", "won",
	"lost", "equal_to", "contains", "is_present", "days_before", "AND", "OR", "name", "labels", "created_at",
	"fuzz", "2030-01-01T00:00:00Z", "2030-02-30", "yesterday", "-1", "1e999", "NaN", "true", "null", "{}", "[]",
	"{\"a\":1}", "1,2,3", "a,b", "..", "../../etc/passwd", "<script>alert(1)</script>", "' OR 1=1 --", "ação",
	"\u0000", "\ufeff", "😀", "#ff0000", "+15550001234", "fuzz@x.test", "http://127.0.0.1:9/hook",
	strings.Repeat("y", 300), strings.Repeat("é", 2000),
}

func (g *bodyGen) pick(n int) int { return g.rng.IntN(n) }

// value is a random JSON value, nested up to depth.
func (g *bodyGen) value(depth int) any {
	switch g.pick(10) {
	case 0, 1:
		return fuzzStrings[g.pick(len(fuzzStrings))]
	case 2, 3:
		return g.ids[g.pick(len(g.ids))]
	case 4:
		return []any{int64(1) << 62, -1e308, 1e-9, 0, 123456789012345678, 2.5}[g.pick(6)]
	case 5:
		return g.pick(2) == 0
	case 6:
		return nil
	case 7:
		if depth > 0 {
			n := g.pick(5)
			switch g.pick(100) {
			case 0: // a list of ids past every database's parameter limit
				list := make([]any, 40_000)
				for i := range list {
					list[i] = i + 1
				}
				return list
			case 1, 2, 3, 4:
				n = 2000 // a long list
			}
			list := make([]any, n)
			for i := range list {
				list[i] = g.value(depth - 1)
			}
			return list
		}
		return []any{}
	default:
		if depth > 0 {
			return g.object(depth - 1)
		}
		return map[string]any{}
	}
}

func (g *bodyGen) object(depth int) map[string]any {
	m := map[string]any{}
	for n := g.pick(7); n > 0; n-- {
		m[fuzzKeys[g.pick(len(fuzzKeys))]] = g.value(depth)
	}
	return m
}

// request builds one random request for a route.
func (g *bodyGen) request(rt fuzzRoute, w *fuzzWorld, token string, round int) request {
	rq := request{method: rt.method, path: g.path(rt.path, w), token: token}
	if rt.method == "GET" {
		rq.path += g.query()
		return rq
	}
	switch k := g.pick(12); {
	case round == 0 || k < 7:
		rq.body = g.object(3)
	case k == 7:
		rq.body, rq.contentType = g.formBody(), "application/x-www-form-urlencoded"
	case k == 8:
		rq.body = g.multipart()
	case k == 9:
		rq.body, rq.contentType = g.mutatedBytes(), []string{"application/json", noContentType, "text/plain"}[g.pick(3)]
	case k == 10:
		rq.body = []any{g.value(2), g.value(2)}
	default:
		rq.body = g.value(3)
	}
	return rq
}

// path fills the route's parameters: mostly the real record, sometimes a
// wrong or malformed id.
func (g *bodyGen) path(pattern string, w *fuzzWorld) string {
	segs := strings.Split(pattern, "/")
	for i, s := range segs {
		if !strings.HasPrefix(s, ":") {
			continue
		}
		param := strings.TrimSuffix(strings.TrimPrefix(s, ":"), "?")
		prev := ""
		if i > 0 {
			prev = segs[i-1]
		}
		switch g.pick(10) {
		case 0:
			segs[i] = []string{"0", "-1", "999999", "abc", "1.5", "%20"}[g.pick(6)]
		default:
			segs[i] = fmt.Sprint(w.idFor(prev, param))
		}
	}
	return strings.Join(segs, "/")
}

func (g *bodyGen) query() string {
	keys := []string{"page", "q", "sort", "before", "after", "status", "labels[]", "inbox_id", "assignee_type",
		"funnel_id", "stage", "priority", "value_min", "value_max", "from", "to", "ids", "ids[]", "per_page",
		"include_contacts", "exp", "sig", "conversation_id", "start_date", "end_date", "agent_id", "format"}
	v := url.Values{}
	for n := g.pick(4); n > 0; n-- {
		v.Add(keys[g.pick(len(keys))], fmt.Sprint(g.value(0)))
	}
	if len(v) == 0 {
		return ""
	}
	return "?" + v.Encode()
}

func (g *bodyGen) formBody() string {
	v := url.Values{}
	for n := g.pick(6); n > 0; n-- {
		key := fuzzKeys[g.pick(len(fuzzKeys))]
		switch g.pick(3) {
		case 0:
			key += "[]"
		case 1:
			key += "[" + fuzzKeys[g.pick(len(fuzzKeys))] + "]"
		}
		v.Add(key, fmt.Sprint(g.value(0)))
	}
	return v.Encode()
}

func (g *bodyGen) multipart() *form {
	f := &form{}
	for n := g.pick(5); n > 0; n-- {
		raw, _ := json.Marshal(g.value(1))
		f.fields = append(f.fields, [2]string{fuzzKeys[g.pick(len(fuzzKeys))], strings.Trim(string(raw), `"`)})
	}
	names := []string{"a.txt", "..", ".", "../x.html", `..\..\y.svg`, "", "page.html", strings.Repeat("n", 400) + ".pdf"}
	types := []string{"text/plain", "image/svg+xml", "text/html", "image/png", "", "bogus", "text/csv"}
	field := []string{"attachments[]", "attachments", "file", "csv"}[g.pick(4)]
	for n := g.pick(3); n > 0; n-- {
		f.file(field, names[g.pick(len(names))], types[g.pick(len(types))], []byte("title,funnel_stage\nA,new\n"))
	}
	return f
}

// mutatedBytes is a JSON object with a few bytes changed, cut or repeated.
// Bodies holding a URL are sent as they are (see the file comment).
func (g *bodyGen) mutatedBytes() []byte {
	raw, _ := json.Marshal(g.object(2))
	if strings.Contains(string(raw), "http") || len(raw) == 0 {
		return raw
	}
	for n := 1 + g.pick(4); n > 0; n-- {
		i := g.pick(len(raw))
		switch g.pick(4) {
		case 0:
			raw[i] = byte(g.pick(256))
		case 1:
			raw = raw[:i]
		case 2:
			raw = append(raw[:i], append([]byte("{[\"\\"), raw[i:]...)...)
		default:
			raw = append(raw, raw...)
		}
		if len(raw) == 0 {
			break
		}
	}
	return raw
}
