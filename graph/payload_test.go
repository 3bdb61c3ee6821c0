package graph_test

// Mutation payloads: one mutation per domain, each refused, accepted and
// unauthorised. A refused input answers 200 with the payload's userErrors
// ({field, message, code}), a null object and the database as it was; an
// accepted one answers the object and no user errors; an unauthorised call
// stays a GraphQL error with extensions.code.

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// payloadCase is one domain's mutation called three ways.
type payloadCase struct {
	domain string
	// object is the payload field that carries what the mutation changed.
	object string
	// call is the mutation's root field with its arguments, for an input
	// that is refused (bad) or accepted (good).
	bad, good func(w *gmWorld) string
	// refused are the user errors bad answers: each its input path (nil for
	// none) and code.
	refused []wantUserError
	// denied calls good as role, answered with the GraphQL error code.
	denied gmRole
	code   string
}

type wantUserError struct {
	field []any
	code  string
}

func payloadCases() []payloadCase {
	invalid := func(path ...any) []wantUserError {
		if len(path) == 0 {
			return []wantUserError{{nil, "INVALID"}}
		}
		return []wantUserError{{path, "INVALID"}}
	}
	later := func(d time.Duration) string { return time.Now().Add(d).UTC().Format(time.RFC3339) }
	return []payloadCase{
		{domain: "contact", object: "contact",
			bad:     gmCall(`updateContact(id: %d, input: {name: "Never", email: "not-an-email"})`, wContact),
			good:    gmCall(`updateContact(id: %d, input: {name: "Renamed contact"})`, wContact),
			refused: invalid("input", "email"), denied: gmAnon, code: "UNAUTHENTICATED"},
		{domain: "conversation", object: "conversation",
			bad:     gmCall(`toggleConversationStatus(displayID: %d, status: "sleeping")`, wConv),
			good:    gmCall(`toggleConversationStatus(displayID: %d, status: "pending")`, wConv),
			refused: invalid("status"), denied: gmAnon, code: "UNAUTHENTICATED"},
		{domain: "message", object: "message",
			bad:     gmCall(`createMessage(conversationDisplayID: %d, input: {content: ""})`, wConv),
			good:    gmCall(`createMessage(conversationDisplayID: %d, input: {content: "Payload hello"})`, wConv),
			refused: invalid("input", "content"), denied: gmAnon, code: "UNAUTHENTICATED"},
		{domain: "label", object: "label",
			bad:     func(*gmWorld) string { return `createLabel(input: {title: "two words", color: "red"})` },
			good:    func(*gmWorld) string { return `createLabel(input: {title: "payload-label", color: "#1f93ff"})` },
			refused: []wantUserError{{[]any{"input", "title"}, "INVALID"}, {[]any{"input", "color"}, "INVALID"}},
			denied:  gmIn, code: "FORBIDDEN"},
		{domain: "inbox", object: "inbox",
			bad:     gmCall(`updateInbox(id: %d, input: {name: "  ", channel: {type: "api", webhookURL: "not a url"}})`, wInbox1),
			good:    gmCall(`updateInbox(id: %d, input: {greetingMessage: "Welcome"})`, wInbox1),
			refused: []wantUserError{{[]any{"input", "name"}, "INVALID"}, {[]any{"input", "channel", "webhookURL"}, "INVALID"}},
			denied:  gmIn, code: "FORBIDDEN"},
		{domain: "team", object: "team",
			bad:     func(*gmWorld) string { return `createTeam(input: {name: "GM Team"})` },
			good:    func(*gmWorld) string { return `createTeam(input: {name: "Payload team"})` },
			refused: invalid("input", "name"), denied: gmIn, code: "FORBIDDEN"},
		{domain: "funnel", object: "funnel",
			bad:     gmCall(`updateFunnel(id: %d, input: {name: "", description: "Never"})`, wFunnel),
			good:    gmCall(`updateFunnel(id: %d, input: {description: "Payload funnel"})`, wFunnel),
			refused: invalid("input", "name"), denied: gmIn, code: "FORBIDDEN"},
		{domain: "kanban item", object: "kanbanItem",
			bad:     gmCall(`updateKanbanItem(id: %d, input: {title: "Never", priority: "extreme"})`, wCard),
			good:    gmCall(`updateKanbanItem(id: %d, input: {priority: "high"})`, wCard),
			refused: invalid("input", "priority"), denied: gmAnon, code: "UNAUTHENTICATED"},
		{domain: "scheduled message", object: "scheduledMessage",
			bad: func(w *gmWorld) string {
				return fmt.Sprintf(`createScheduledMessage(input: {conversationDisplayID: %d, content: "Never", scheduledAt: "%s"})`, w.Conv, later(-time.Hour))
			},
			good: func(w *gmWorld) string {
				return fmt.Sprintf(`createScheduledMessage(input: {conversationDisplayID: %d, content: "Payload later", scheduledAt: "%s"})`, w.Conv, later(time.Hour))
			},
			refused: invalid("input", "scheduledAt"), denied: gmAnon, code: "UNAUTHENTICATED"},
		{domain: "webhook", object: "deliveryId",
			bad: func(w *gmWorld) string {
				return fmt.Sprintf(`retryWebhookDelivery(webhookID: %d, deliveryID: %d)`, w.Webhook, seedDelivery(w, webhookdelivery.StatusDelivered))
			},
			good: func(w *gmWorld) string {
				return fmt.Sprintf(`retryWebhookDelivery(webhookID: %d, deliveryID: %d)`, w.Webhook, seedDelivery(w, webhookdelivery.StatusFailed))
			},
			refused: []wantUserError{{nil, "CONFLICT"}}, denied: gmIn, code: "FORBIDDEN"},
		{domain: "webhook subscription", object: "webhook",
			bad: func(*gmWorld) string {
				return `createWebhook(input: {url: "not a url", subscriptions: ["no_such_event"]})`
			},
			good: func(w *gmWorld) string {
				return fmt.Sprintf(`createWebhook(input: {url: "%s/payload", subscriptions: ["message_created"]})`, w.hook.URL)
			},
			refused: []wantUserError{{[]any{"input", "url"}, "INVALID"}, {[]any{"input", "subscriptions"}, "INVALID"}},
			denied:  gmIn, code: "FORBIDDEN"},
	}
}

// gmCall formats a call with the world's ids.
func gmCall(format string, ids ...func(*gmWorld) int) func(w *gmWorld) string {
	return func(w *gmWorld) string {
		args := make([]any, len(ids))
		for i, f := range ids {
			args[i] = f(w)
		}
		return fmt.Sprintf(format, args...)
	}
}

func seedDelivery(w *gmWorld, status webhookdelivery.Status) int {
	return w.srv.DB.Client.WebhookDelivery.Create().SetAccountID(w.Account).SetSubscriptionID(w.Webhook).
		SetDeliveryID(fmt.Sprintf("msg_payload_%d", w.next())).SetURL("http://127.0.0.1:1/hook").SetEvent("message_created").
		SetPayload("{}").SetStatus(status).SetAttempts(3).SetLastError("receiver answered 503").
		SaveX(viewer.SystemContext(context.Background())).ID
}

func TestMutationPayloads(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newGMWorld(t, e)
		for _, c := range payloadCases() {
			t.Run(c.domain, func(t *testing.T) {
				w.t = t
				t.Run("refused input: user errors, no object, nothing changed", func(t *testing.T) {
					w.t = t
					field := c.bad(w)
					before := dbState(t, w)
					r := w.gql(gqlReq{query: payloadDoc(field, c.object)})
					checkRefused(t, r, rootName(field), c)
					if after := dbState(t, w); !reflect.DeepEqual(before, after) {
						t.Errorf("a refused mutation changed the database: %s", stateDiff(before, after))
					}
				})
				t.Run("accepted input: the object, no user errors", func(t *testing.T) {
					w.t = t
					field := c.good(w)
					r := w.gql(gqlReq{query: payloadDoc(field, c.object)})
					root := rootName(field)
					if r.Status != http.StatusOK || len(r.Errors) > 0 {
						t.Fatalf("want 200 without errors: %s", r)
					}
					if got := mustGet(t, r.Data, root+".userErrors"); !reflect.DeepEqual(got, []any{}) {
						t.Errorf("want no user errors, got %v", got)
					}
					if got, _ := lookup(r.Data, root+"."+c.object); got == nil {
						t.Errorf("want %s.%s, got null: %s", root, c.object, r)
					}
				})
				t.Run("unauthorised: a GraphQL error", func(t *testing.T) {
					w.t = t
					field := c.good(w)
					before := dbState(t, w)
					r := w.gql(gqlReq{token: w.tokens[c.denied], query: payloadDoc(field, c.object)})
					if r.code() != c.code || len(r.Errors) == 0 {
						t.Fatalf("want errors[0].extensions.code %s, got %s", c.code, r)
					}
					if got, _ := lookup(r.Data, rootName(field)); got != nil {
						t.Errorf("want no payload, got %v", got)
					}
					if after := dbState(t, w); !reflect.DeepEqual(before, after) {
						t.Errorf("a refused caller changed the database: %s", stateDiff(before, after))
					}
				})
			})
		}
	})
}

// payloadDoc is the mutation document selecting the payload's object (its
// id, or the scalar itself) and user errors.
func payloadDoc(field, object string) string {
	sel := object + " { id }"
	if strings.HasSuffix(object, "Id") {
		sel = object
	}
	return "mutation { " + field + " { " + sel + " userErrors { field message code } } }"
}

func rootName(field string) string { name, _, _ := strings.Cut(field, "("); return name }

func checkRefused(t *testing.T, r *gqlResp, root string, c payloadCase) {
	t.Helper()
	if r.Status != http.StatusOK || len(r.Errors) > 0 {
		t.Fatalf("want 200 without errors: %s", r)
	}
	if got := mustGet(t, r.Data, root+"."+c.object); got != nil {
		t.Errorf("want %s.%s null, got %v", root, c.object, got)
	}
	list, _ := mustGet(t, r.Data, root+".userErrors").([]any)
	if len(list) != len(c.refused) {
		t.Fatalf("want %d user errors, got %v", len(c.refused), list)
	}
	for i, want := range c.refused {
		ue := list[i].(map[string]any)
		if got := ue["field"]; !reflect.DeepEqual(got, nilIfEmpty(want.field)) {
			t.Errorf("user error %d: want field %v, got %v", i, want.field, got)
		}
		if ue["code"] != want.code {
			t.Errorf("user error %d: want code %s, got %v", i, want.code, ue["code"])
		}
		if msg, _ := ue["message"].(string); msg == "" {
			t.Errorf("user error %d without a message: %v", i, ue)
		}
	}
}

func nilIfEmpty(path []any) any {
	if path == nil {
		return nil
	}
	return path
}

// dbState is every row of every table of the database, as text, sorted:
// what a refused mutation must leave as it was.
func dbState(t *testing.T, w *gmWorld) map[string][]string {
	t.Helper()
	ctx := context.Background()
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	if w.srv.DB.Dialect != "sqlite3" && w.srv.DB.Dialect != "sqlite" {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	rows, err := w.srv.DB.SQL.QueryContext(ctx, q)
	if err != nil {
		t.Fatalf("listing tables: %v", err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	state := make(map[string][]string, len(tables))
	for _, table := range tables {
		switch {
		case deliveryBookkeeping[table]:
		case deliveryStatus[table]:
			state[table] = tableIDs(t, w, table)
		default:
			state[table] = tableRows(t, w, table)
		}
	}
	return state
}

// The delivery workers write on in the background, after the request that
// queued the work (an earlier case's message or event) has answered: their
// attempts are no request's change, and of the rows whose status they
// settle, only the rows themselves (their ids) are.
var (
	deliveryBookkeeping = map[string]bool{"message_delivery_attempts": true, "webhook_delivery_attempts": true}
	deliveryStatus      = map[string]bool{"messages": true, "webhook_deliveries": true}
)

func tableIDs(t *testing.T, w *gmWorld, table string) []string {
	t.Helper()
	rows, err := w.srv.DB.SQL.QueryContext(context.Background(), `SELECT id FROM "`+table+`" ORDER BY id`)
	if err != nil {
		t.Fatalf("reading %s: %v", table, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			t.Fatalf("reading %s: %v", table, err)
		}
		out = append(out, fmt.Sprint(id))
	}
	return out
}

func tableRows(t *testing.T, w *gmWorld, table string) []string {
	t.Helper()
	rows, err := w.srv.DB.SQL.QueryContext(context.Background(), `SELECT * FROM "`+table+`"`)
	if err != nil {
		t.Fatalf("reading %s: %v", table, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("reading %s: %v", table, err)
		}
		out = append(out, fmt.Sprintf("%v", vals))
	}
	sort.Strings(out)
	return out
}

// stateDiff names the tables that differ.
func stateDiff(before, after map[string][]string) string {
	var changed []string
	for table, rows := range after {
		if !reflect.DeepEqual(before[table], rows) {
			changed = append(changed, fmt.Sprintf("%s (%d rows, was %d)", table, len(rows), len(before[table])))
		}
	}
	sort.Strings(changed)
	return strings.Join(changed, ", ")
}
