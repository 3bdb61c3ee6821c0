package rest_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
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
	// The world's URLs point at 127.0.0.1 (never elsewhere): let them be
	// saved. AllowPrivate keeps this test out of the parallel ones.
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newUnthrottledApp(t, e)
		w := seedFuzzWorld(t, a)
		routes := fuzzRoutes(a)
		rng := rand.New(rand.NewPCG(fuzzSeedFromEnv(), uint64(len(routes))))
		g := &bodyGen{rng: rng, ids: w.idValues(), templates: w.templates()}
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
// fuzzSeedFromEnv is fuzzSeed unless SWITCHBOARD_FUZZ_SEED picks another
// (to explore; CI keeps the fixed one, so a failure replays).
func fuzzSeedFromEnv() uint64 {
	if n, err := strconv.ParseUint(os.Getenv("SWITCHBOARD_FUZZ_SEED"), 10, 64); err == nil {
		return n
	}
	return fuzzSeed
}

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
