package rest_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"sort"
	"strings"
)

// The body generator of the HTTP fuzz pass (fuzz_routes_test.go).

// templates are valid bodies by the route's last static segment: mutated,
// they reach the operations rather than stopping at the first check.
func (w *fuzzWorld) templates() map[string]map[string]any {
	stage := map[string]any{"name": "Stage", "slug": "stage"}
	card := map[string]any{"funnel_id": w.funnel, "funnel_stage": "new", "assigned_agents": []any{w.agentID},
		"item_details": map[string]any{"title": "T", "value": 10, "priority": "high", "currency": map[string]any{"code": "BRL"}}}
	bulk := map[string]any{"item_ids": []any{w.card}, "funnel_stage": "won", "agent_id": w.agentID, "priority": "low"}
	return map[string]map[string]any{
		"contacts": {"inbox_id": w.inbox, "name": "N", "email": "n@x.test", "custom_attributes": map[string]any{"plan": "gold"},
			"additional_attributes": map[string]any{"city": "Oslo"}, "phone_number": "+15550009999"},
		"filter":          {"payload": []any{map[string]any{"attribute_key": "name", "filter_operator": "contains", "values": []any{"a"}, "query_operator": "OR"}}},
		"labels":          {"labels": []any{"fuzz", "other"}, "title": "t", "color": "#ff0000"},
		"messages":        {"content": "hi", "private": false, "message_type": "outgoing", "content_attributes": map[string]any{}},
		"conversations":   {"inbox_id": w.inbox, "contact_id": w.contact, "status": "open", "message": map[string]any{"content": "x"}},
		"toggle_status":   {"status": "resolved"},
		"inbox_members":   {"inbox_id": w.inbox, "user_ids": []any{w.agentID}},
		"team_members":    {"user_ids": []any{w.agentID}},
		"teams":           {"name": "T", "description": "d"},
		"agents":          {"name": "A", "email": "a@x.test", "role": "agent"},
		"agent_bots":      {"name": "B", "outgoing_url": "http://127.0.0.1:9/bot"},
		"set_agent_bot":   {"agent_bot": w.bot},
		"inboxes":         {"name": "I", "channel": map[string]any{"type": "api", "webhook_url": "http://127.0.0.1:9/in"}},
		"contact_inboxes": {"inbox_id": w.inbox, "source_id": "s"},
		"contact_merge":   {"base_contact_id": w.contact, "mergee_contact_id": w.contact},
		"custom_attribute_definitions": {"attribute_display_name": "Score", "attribute_key": "score",
			"attribute_display_type": "number", "attribute_model": "contact_attribute"},
		"webhooks": {"url": "http://127.0.0.1:9/hook", "subscriptions": []any{"message_created"}},
		"scheduled_messages": {"inbox_id": w.inbox, "contact_id": w.contact, "content": "c", "scheduled_at": "2030-01-01T00:00:00Z",
			"recurrence_type": "weekly", "recurrence_days": []any{1, 3}, "recurrence_interval": 1},
		"cancel":                {},
		"funnels":               {"funnel": map[string]any{"name": "F", "stages": []any{stage}}},
		"reorder":               {"positions": []any{map[string]any{"id": w.card, "position": 0, "funnel_stage": "won"}}, "stage_order": []any{"new", "won"}},
		"kanban_items":          {"kanban_item": card},
		"move_to_stage":         {"funnel_stage": "won", "position": 0},
		"move":                  {"funnel_id": w.funnel, "funnel_stage": "won", "position": 1},
		"change_status":         {"status": "won"},
		"assign_agent":          {"agent_id": w.agentID},
		"remove_agent":          {"agent_id": w.agentID},
		"bulk_move_items":       bulk,
		"bulk_assign_agent":     bulk,
		"bulk_set_priority":     bulk,
		"create_checklist_item": {"text": "t", "due_date": "2030-01-01", "agent_id": w.agentID},
		"update_checklist_item": {"checklist_item_id": w.checklistItem, "text": "u", "completed": true},
		"toggle_checklist_item": {"checklist_item_id": w.checklistItem},
		"create_note":           {"content": "n"},
		"update_note":           {"note_id": w.note, "content": "m"},
		"kanban_config":         {"webhook_url": "http://127.0.0.1:9/k", "enabled": true, "settings": map[string]any{}},
		"automations": {"name": "R", "trigger_type": "stage_entered", "trigger_config": map[string]any{"stage": "won"},
			"action_type": "set_priority", "action_config": map[string]any{"priority": "low"}},
		"users":         {"name": "U", "email": "u@x.test", "password": "s3cret-pass"},
		"account_users": {"user_id": w.platformUser, "role": "agent"},
	}
}

// bodyGen makes random request bodies and query strings.
type bodyGen struct {
	rng       *rand.Rand
	ids       []any
	templates map[string]map[string]any
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
	tmpl, hasTemplate := g.templates[lastStatic(rt.path)]
	switch k := g.pick(12); {
	case hasTemplate && (round == 0 || k < 5):
		rq.body = g.mutate(tmpl)
	case hasTemplate && k == 5:
		rq.body = g.multipartOf(g.mutate(tmpl))
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
	obj := map[string]any{}
	for n := g.pick(5); n > 0; n-- {
		obj[fuzzKeys[g.pick(len(fuzzKeys))]] = g.value(1)
	}
	return g.multipartOf(obj)
}

// multipartOf sends obj as form fields (objects and lists as JSON, as
// clients do) with a few files.
func (g *bodyGen) multipartOf(obj map[string]any) *form {
	f := &form{}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		raw, _ := json.Marshal(obj[k])
		f.fields = append(f.fields, [2]string{k, strings.Trim(string(raw), `"`)})
	}
	names := []string{"a.txt", "..", ".", "../x.html", `..\..\y.svg`, "", "page.html", strings.Repeat("n", 400) + ".pdf"}
	types := []string{"text/plain", "image/svg+xml", "text/html", "image/png", "", "bogus", "text/csv"}
	field := []string{"attachments[]", "attachments", "file", "csv"}[g.pick(4)]
	for n := 1 + g.pick(3); n > 0; n-- {
		f.file(field, names[g.pick(len(names))], types[g.pick(len(types))], []byte("title,funnel_stage\nA,new\n"))
	}
	return f
}

// mutate copies a template with some values replaced by random ones, some
// keys dropped and some random keys added; nested objects likewise.
func (g *bodyGen) mutate(tmpl map[string]any) map[string]any {
	out := map[string]any{}
	keys := make([]string, 0, len(tmpl))
	for k := range tmpl {
		keys = append(keys, k)
	}
	sort.Strings(keys) // map order would make a failure unrepeatable
	for _, k := range keys {
		v := tmpl[k]
		switch g.pick(8) {
		case 0:
			continue
		case 1, 2:
			out[k] = g.value(2)
		default:
			if sub, ok := v.(map[string]any); ok {
				out[k] = g.mutate(sub)
			} else {
				out[k] = v
			}
		}
	}
	for n := g.pick(3); n > 0; n-- {
		out[fuzzKeys[g.pick(len(fuzzKeys))]] = g.value(2)
	}
	return out
}

// lastStatic is the route's last segment that is not a parameter.
func lastStatic(path string) string {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		if !strings.HasPrefix(segs[i], ":") {
			return segs[i]
		}
	}
	return ""
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
