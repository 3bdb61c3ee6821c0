package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/ent"
	cad "github.com/switchboard/switchboard/ent/customattributedefinition"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/kanbanautomation"
	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/testdb"
)

// cappedKind is one kind of an account's own configuration: seed stores its
// first schema.MaxAccountObjects-1 rows directly, create is the REST request
// that makes the next one, field what a refusal names.
type cappedKind struct {
	name   string
	seed   func(ctx context.Context, c *ent.Client, account, n int) error
	create func(a *app, key string) request
	field  string
}

var cappedKinds = []cappedKind{
	{"labels", func(ctx context.Context, c *ent.Client, account, n int) error {
		return c.Label.MapCreateBulk(make([]int, n), func(b *ent.LabelCreate, i int) {
			b.SetAccountID(account).SetTitle(fmt.Sprintf("seeded-%d", i))
		}).Exec(ctx)
	}, func(a *app, key string) request {
		return request{method: "POST", path: a.path("/labels"), body: H{"title": key}}
	}, "title"},
	{"inboxes", func(ctx context.Context, c *ent.Client, account, n int) error {
		return c.Inbox.MapCreateBulk(make([]int, n), func(b *ent.InboxCreate, i int) {
			b.SetAccountID(account).SetName(fmt.Sprintf("Seeded %d", i)).SetChannelType(inbox.ChannelTypeAPI)
		}).Exec(ctx)
	}, func(a *app, key string) request {
		return request{method: "POST", path: a.path("/inboxes"), body: H{"name": key, "channel": H{"type": "api"}}}
	}, "name"},
	{"teams", func(ctx context.Context, c *ent.Client, account, n int) error {
		return c.Team.MapCreateBulk(make([]int, n), func(b *ent.TeamCreate, i int) {
			b.SetAccountID(account).SetName(fmt.Sprintf("Seeded %d", i))
		}).Exec(ctx)
	}, func(a *app, key string) request {
		return request{method: "POST", path: a.path("/teams"), body: H{"name": key}}
	}, "name"},
	{"webhooks", func(ctx context.Context, c *ent.Client, account, n int) error {
		return c.WebhookSubscription.MapCreateBulk(make([]int, n), func(b *ent.WebhookSubscriptionCreate, i int) {
			b.SetAccountID(account).SetURL(fmt.Sprintf("https://hooks.example.com/%d", i)).SetSecret("seeded")
		}).Exec(ctx)
	}, func(a *app, key string) request {
		return request{method: "POST", path: a.path("/webhooks"), body: H{"url": "https://hooks.example.com/" + key, "subscriptions": []string{"conversation_created"}}}
	}, "url"},
	{"agent bots", func(ctx context.Context, c *ent.Client, account, n int) error {
		return c.AgentBot.MapCreateBulk(make([]int, n), func(b *ent.AgentBotCreate, i int) {
			b.SetAccountID(account).SetName(fmt.Sprintf("Seeded %d", i))
		}).Exec(ctx)
	}, func(a *app, key string) request {
		return request{method: "POST", path: a.path("/agent_bots"), body: H{"name": key}}
	}, "name"},
	{"kanban automations", func(ctx context.Context, c *ent.Client, account, n int) error {
		return c.KanbanAutomation.MapCreateBulk(make([]int, n), func(b *ent.KanbanAutomationCreate, i int) {
			b.SetAccountID(account).SetName(fmt.Sprintf("Seeded %d", i)).
				SetTriggerType(kanbanautomation.TriggerTypeStatusChanged).SetActionType(kanbanautomation.ActionTypeSetPriority)
		}).Exec(ctx)
	}, func(a *app, key string) request {
		return request{method: "POST", path: a.path("/kanban/automations"), body: H{"name": key,
			"trigger_type": "status_changed", "action_type": "set_priority", "action_config": H{"priority": "high"}}}
	}, "name"},
	{"funnels", func(ctx context.Context, c *ent.Client, account, n int) error {
		return c.Funnel.MapCreateBulk(make([]int, n), func(b *ent.FunnelCreate, i int) {
			b.SetAccountID(account).SetName(fmt.Sprintf("Seeded %d", i))
		}).Exec(ctx)
	}, func(a *app, key string) request {
		return request{method: "POST", path: a.path("/funnels"), body: H{"name": key, "stages": []H{{"name": "New"}}}}
	}, "name"},
	{"custom attribute definitions", func(ctx context.Context, c *ent.Client, account, n int) error {
		return c.CustomAttributeDefinition.MapCreateBulk(make([]int, n), func(b *ent.CustomAttributeDefinitionCreate, i int) {
			b.SetAccountID(account).SetAttributeDisplayName(fmt.Sprintf("Field %d", i)).
				SetAttributeKey(fmt.Sprintf("field_%d", i)).SetAttributeModel(cad.AttributeModelContactAttribute)
		}).Exec(ctx)
	}, func(a *app, key string) request {
		return request{method: "POST", path: a.path("/custom_attribute_definitions"), body: H{
			"attribute_display_name": key, "attribute_key": strings.ReplaceAll(key, "-", "_"), "attribute_model": "contact_attribute"}}
	}, "attribute_key"},
}

// An account's own configuration is capped where it is written, so the lists
// REST answers whole (as Chatwoot does) have a bound: for every kind the last
// row fits and the next is refused naming its field; GraphQL refuses it in
// its payload, another account is not counted, and deleting a row makes room.
func TestAnAccountHoldsABoundedNumberOfEachConfigurationKind(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		var cases []scenario
		for _, k := range cappedKinds {
			if err := k.seed(sys(), a.srv.DB.Client, a.Account, schema.MaxAccountObjects-1); err != nil {
				t.Fatalf("seeding %s: %v", k.name, err)
			}
			cases = append(cases,
				status("the last of the "+k.name+" fits", k.create(a, "last-fits"), http.StatusOK),
				invalid("one more of the "+k.name+" is refused", k.create(a, "one-too-many"), k.field))
		}
		cases = append(cases, scenario{name: "GraphQL refuses one more in the payload", request: request{method: "POST", path: "/graphql",
			header: map[string]string{"X-Account-Id": strconv.Itoa(a.Account)},
			body:   H{"query": `mutation { createLabel(input: {title: "over-the-cap"}) { label { id } userErrors { field code } } }`}},
			wantStatus: http.StatusOK,
			want: map[string]any{"data.createLabel.label": nil, "data.createLabel.userErrors.0.field": []any{"input", "title"},
				"data.createLabel.userErrors.0.code": "INVALID"}})
		accB, adminB := a.otherAccount("Globex")
		cases = append(cases, status("another account is not counted", request{method: "POST", path: accountPath(accB, "/labels"), token: adminB,
			body: H{"title": "theirs"}}, http.StatusOK))
		var last int
		cases = append(cases, scenario{name: "the list holds the cap", request: request{method: "GET", path: a.path("/labels")},
			wantStatus: http.StatusOK, want: map[string]any{"payload.#": schema.MaxAccountObjects},
			check: func(t *testing.T, r *response) { last = r.int(t, "payload.0.id") }})
		a.run(t, cases)
		a.mustDo(request{method: "DELETE", path: a.path("/labels/%d", last)}, http.StatusOK)
		a.run(t, []scenario{status("deleting one makes room for another", cappedKinds[0].create(a, "room-again"), http.StatusOK)})
	})
}
