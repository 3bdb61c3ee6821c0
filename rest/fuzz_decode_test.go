package rest

import (
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// Fuzz targets of the REST request decoders: whatever the body and its
// content type, a decoder returns a value or an error, never panics. CI runs
// each briefly (go test -run '^$' -fuzz FuzzRequestDecoders -fuzztime 10s
// ./rest); the seed corpus is in testdata/fuzz.

var fuzzContentTypes = []string{
	"application/json", "", "application/x-www-form-urlencoded",
	"multipart/form-data; boundary=XyZ", "text/plain; charset=utf-8", "multipart/form-data",
}

// fuzzCtx is a Fiber context holding body as a POST of contentType.
func fuzzCtx(app *fiber.App, body []byte, ctIndex uint8) *fiber.Ctx {
	fctx := &fasthttp.RequestCtx{}
	fctx.Request.Header.SetMethod(fiber.MethodPost)
	fctx.Request.SetRequestURI("/fuzz")
	if ct := fuzzContentTypes[int(ctIndex)%len(fuzzContentTypes)]; ct != "" {
		fctx.Request.Header.SetContentType(ct)
	}
	fctx.Request.SetBody(body)
	return app.AcquireCtx(fctx)
}

func addDecoderSeeds(f *testing.F) {
	seeds := []string{
		`{}`, `[]`, `null`, `"x"`, `{"contact":{"name":"A","custom_attributes":{"k":1}}}`,
		`{"name":"A","email":"a@b.c","phone_number":"+15550001111","additional_attributes":"{\"city\":\"Oslo\"}"}`,
		`{"content":"hi","private":"true","message_type":"incoming","content_attributes":{"in_reply_to":1}}`,
		`{"inbox_id":"1","contact_id":2,"message":{"content":"x"},"labels":"a,b","status":"open"}`,
		`{"user_ids":[1,"2",{"id":3}],"inbox_id":1}`, `{"labels":["a",1,true]}`, `{"labels":"[\"a\"]"}`,
		`{"channel":{"type":"api","hmac_mandatory":"yes","provider_config":{"api_key":1}}}`,
		`{"scheduled_at":"2030-01-01T00:00:00Z","recurrence_type":"weekly","recurrence_days":"1,2","recurrence_end_date":"bad"}`,
		`{"kanban_item":{"funnel_id":"1","item_details":{"title":"T","value":"1e400","currency":{"code":"BRL"}},"assigned_agents":"1,x"}}`,
		`{"funnel":{"name":"F","stages":{"a":{"name":"A","position":"2"}}}}`, `{"stages":[{"id":"x"}]}`,
		`{"positions":[{"id":1,"position":0,"funnel_stage":""},{"id":"2","position":"-1"}]}`,
		`{"item_ids":"1,2,3","funnel_stage":"won","agent_id":1,"priority":"high"}`,
		`{"kanban_automation":{"trigger_config":[],"action_config":{"n":1e999}}}`,
		`{"due_date":"2030-13-45","agent_id":"x","text":"t","completed":"maybe"}`, `{"due_date":"","agent_id":null}`,
		`{"mappings":"{\"Name\":\"title\"}","funnel_id":"1"}`, `{"mappings":{"title":1}}`, `{"mappings":{"Notes":null}}`,
		`{"kanban_item":{"conversation_display_id":null,"assigned_agents":[{"id":"1"},2],"item_details":{"value":"NaN","x":1e400}}}`,
		`{"stages":{"b":{"name":"B","position":"x"},"a":{"slug":"a2"}}}`, `{"stages":["new",{"slug":"won"},{"slug":""},null]}`,
		`{"kanban_automation":{"funnel_id":null,"enabled":"","trigger_config":"{\"hours\":1}"}}`,
		`{"webhook_events":"kanban_item.created,kanban_item.moved","config":{"a":1},"regenerate_secret":1}`,
		"name=A&labels[]=a&labels[]=b&custom_attributes[k]=v",
		"--XyZ\r\nContent-Disposition: form-data; name=\"content\"\r\n\r\nhi\r\n--XyZ--\r\n",
		`{"a":` + "\xff" + `}`, `{"n":123456789012345678901234567890}`, `{"a":{"b":{"c":{"d":[[[[1]]]]}}}}`,
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i%len(fuzzContentTypes)))
		f.Add([]byte(s), uint8(0))
	}
}

// FuzzRequestDecoders feeds a body to bodyMap and decode into every request
// struct, then to each struct's conversion into its operation's input.
func FuzzRequestDecoders(f *testing.F) {
	addDecoderSeeds(f)
	app := fiber.New()
	f.Fuzz(func(t *testing.T, body []byte, ct uint8) {
		c := fuzzCtx(app, body, ct)
		defer app.ReleaseCtx(c)
		_, _ = bodyMap(c)
		for _, wrapper := range []string{"", "contact", "message"} {
			var contact contactRequest
			if decode(c, wrapper, &contact) == nil {
				_ = contact.input()
			}
			var msg messageRequest
			if decode(c, wrapper, &msg) == nil {
				_ = msg.input()
			}
		}
		var conv conversationRequest
		_ = decode(c, "", &conv)
		var sched scheduleRequest
		if decode(c, "scheduled_message", &sched) == nil {
			_, _ = sched.input()
		}
		var inbox inboxRequest
		if decode(c, "", &inbox) == nil {
			_ = inbox.input()
		}
		decodeSimple(c)
	})
}

// decodeSimple decodes into the request structs whose input() cannot fail.
func decodeSimple(c *fiber.Ctx) {
	var bot agentBotRequest
	if decode(c, "", &bot) == nil {
		_ = bot.input()
	}
	var agent agentRequest
	if decode(c, "", &agent) == nil {
		_ = agent.input()
	}
	var attr customAttributeRequest
	if decode(c, "custom_attribute_definition", &attr) == nil {
		_ = attr.input()
	}
	var label labelRequest
	if decode(c, "", &label) == nil {
		_ = label.input()
	}
	var team teamRequest
	if decode(c, "", &team) == nil {
		_ = team.input()
	}
	var hook webhookRequest
	if decode(c, "webhook", &hook) == nil {
		_, _ = hook.input()
	}
	var member accountUserRequest
	_ = decode(c, "", &member)
}

// FuzzKanbanRequests decodes a body into every kanban request struct, with
// the wrapper its route unwraps, and converts each into its operation's
// input: the field types that read objects and lists themselves (nested
// item_details, stage lists keyed or listed, positions, id lists echoed as
// {id} objects, fields null clears) must refuse with an error, never panic.
func FuzzKanbanRequests(f *testing.F) {
	addDecoderSeeds(f)
	app := fiber.New()
	f.Fuzz(func(t *testing.T, body []byte, ct uint8) {
		c := fuzzCtx(app, body, ct)
		defer app.ReleaseCtx(c)
		var card cardRequest
		if decode(c, "kanban_item", &card) == nil {
			_, _ = card.input()
		}
		var funnel funnelRequest
		if decode(c, "funnel", &funnel) == nil {
			_ = funnel.input()
		}
		var rule automationRequest
		if decode(c, "kanban_automation", &rule) == nil {
			_ = rule.input()
		}
		var cfg kanbanConfigRequest
		if decode(c, "kanban_config", &cfg) == nil {
			_ = cfg.input()
		}
		decodeCardParts(c)
		for _, dst := range []any{&moveRequest{}, &reorderRequest{}, &statusRequest{}} {
			_ = decode(c, "kanban_item", dst)
		}
		for _, dst := range []any{&stageOrderRequest{}, &bulkMoveRequest{}, &bulkAgentRequest{}, &bulkPriorityRequest{}, &cardAgentRequest{}} {
			_ = decode(c, "funnel", dst)
		}
	})
}

// decodeCardParts decodes into the unwrapped per-card and import bodies.
func decodeCardParts(c *fiber.Ctx) {
	var item checklistUpdate
	if decode(c, "", &item) == nil {
		_ = item.input()
	}
	var note noteUpdate
	if decode(c, "", &note) == nil {
		_ = note.content()
	}
	var imp importRequest
	if decode(c, "", &imp) == nil {
		_, _ = imp.input()
	}
}
