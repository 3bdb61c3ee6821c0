package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

func TestAgentBots(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		ib := a.apiInbox("API")
		other := a.apiInbox("Other")
		accB, adminB := a.otherAccount("Globex")
		botB := a.mustDo(request{method: "POST", path: accountPath(accB, "/agent_bots"), token: adminB, body: H{"name": "B bot"}}, http.StatusOK).int(t, "id")
		inboxB := a.inboxIn(accB, adminB, "B inbox", H{"type": "api"})

		var bot int
		bots := a.path("/agent_bots")
		botPath := func(id int) string { return a.path("/agent_bots/%d", id) }
		getBot := request{method: "GET", path: a.path("/inboxes/%d/agent_bot", ib)}
		setBot := func(body any) request {
			return request{method: "POST", path: a.path("/inboxes/%d/set_agent_bot", ib), body: body}
		}
		a.run(t, []scenario{
			{
				name:       "the list is a bare empty array at first",
				request:    request{method: "GET", path: bots},
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 0},
			},
			{
				name:       "create answers the bot",
				request:    request{method: "POST", path: bots, body: H{"name": "Triage", "description": "Sorts questions", "outgoing_url": "https://bot.example.com/hook"}},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": present, "name": "Triage", "description": "Sorts questions",
					"outgoing_url": "https://bot.example.com/hook", "bot_type": "webhook", "account_id": a.Account,
				},
				check: func(t *testing.T, r *response) { bot = r.int(t, "id") },
			},
			invalid("create without a name is 422 naming name", request{method: "POST", path: bots, body: H{"description": "nameless"}}, "name"),
			invalid("create with an outgoing_url that is not http(s) is 422 naming outgoing_url",
				request{method: "POST", path: bots, body: H{"name": "Bad", "outgoing_url": "javascript:alert(1)"}}, "outgoing_url"),
			status("an agent creating a bot is 403", as(agent, request{method: "POST", path: bots, body: H{"name": "Agent bot"}}), http.StatusForbidden),
		})
		if bot == 0 {
			t.Fatal("no bot to go on with")
		}
		a.run(t, []scenario{
			{
				name:       "the list holds the one bot",
				request:    request{method: "GET", path: bots},
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.name": []string{"Triage"}},
			},
			{
				name:       "show answers the bot",
				request:    request{method: "GET", path: botPath(bot)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": bot, "name": "Triage"},
			},
			{
				name:       "update changes the sent fields",
				request:    request{method: "PATCH", path: botPath(bot), body: H{"name": "Triage 2", "outgoing_url": "https://bot.example.com/v2"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "Triage 2", "outgoing_url": "https://bot.example.com/v2", "description": "Sorts questions"},
			},
			invalid("update with a blank name is 422 naming name", request{method: "PATCH", path: botPath(bot), body: H{"name": ""}}, "name"),
			status("an agent updating a bot is 403", as(agent, request{method: "PATCH", path: botPath(bot), body: H{"name": "Mine"}}), http.StatusForbidden),
			status("an agent deleting a bot is 403", as(agent, request{method: "DELETE", path: botPath(bot)}), http.StatusForbidden),
			status("show of another account's bot is 404", request{method: "GET", path: botPath(botB)}, http.StatusNotFound),
			status("update of another account's bot is 404", request{method: "PATCH", path: botPath(botB), body: H{"name": "Hijacked"}}, http.StatusNotFound),
			status("delete of another account's bot is 404", request{method: "DELETE", path: botPath(botB)}, http.StatusNotFound),
			{
				name:       "an inbox without a bot answers {agent_bot: null}",
				request:    getBot,
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot": nil},
			},
			{
				name:       "an agent may read an inbox's bot",
				request:    as(agent, getBot),
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot": nil},
			},
			status("set_agent_bot by an agent is 403", as(agent, setBot(H{"agent_bot": bot})), http.StatusForbidden),
			{
				name:       "the agent's refused set_agent_bot changed nothing",
				request:    getBot,
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot": nil},
			},
			invalid("set_agent_bot with another account's bot is 422 naming agent_bot", setBot(H{"agent_bot": botB}), "agent_bot"),
			invalid("set_agent_bot with an unknown bot is 422 naming agent_bot", setBot(H{"agent_bot": 999999}), "agent_bot"),
			status("set_agent_bot on another account's inbox is 404",
				request{method: "POST", path: a.path("/inboxes/%d/set_agent_bot", inboxB), body: H{"agent_bot": bot}}, http.StatusNotFound),
			status("agent_bot of another account's inbox is 404", request{method: "GET", path: a.path("/inboxes/%d/agent_bot", inboxB)}, http.StatusNotFound),
			status("an agent's agent_bot of another account's inbox is 404", as(agent, request{method: "GET", path: a.path("/inboxes/%d/agent_bot", inboxB)}), http.StatusNotFound),
			status("an agent's show of another account's bot is 404", as(agent, request{method: "GET", path: botPath(botB)}), http.StatusNotFound),
			{
				name:       "the refused set_agent_bot calls changed nothing",
				request:    getBot,
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot": nil},
			},
			{
				name:       "set_agent_bot {agent_bot: id} switches the bot on",
				request:    setBot(H{"agent_bot": bot}),
				wantStatus: http.StatusOK,
			},
			{
				name:       "the inbox's agent_bot is now the bot",
				request:    getBot,
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot.id": bot, "agent_bot.name": "Triage 2"},
			},
			{
				name:       "the inbox shows its agent_bot_id",
				request:    request{method: "GET", path: a.path("/inboxes/%d", ib)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot_id": bot},
			},
			{
				name:       "set_agent_bot {agent_bot: null} switches it off",
				request:    setBot(H{"agent_bot": nil}),
				wantStatus: http.StatusOK,
			},
			{
				name:       "the inbox has no bot again",
				request:    getBot,
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot": nil},
			},
			{
				name:       "set_agent_bot with the id as a string switches it on (form clients)",
				request:    setBot(H{"agent_bot": itoa(bot)}),
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					expect(t, a.mustDoT(t, getBot, http.StatusOK), map[string]any{"agent_bot.id": bot})
				},
			},
			{
				name:       "set_agent_bot without agent_bot switches it off",
				request:    setBot(H{}),
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					expect(t, a.mustDoT(t, getBot, http.StatusOK), map[string]any{"agent_bot": nil})
				},
			},
			{
				name:       "the bot goes on another inbox",
				request:    request{method: "POST", path: a.path("/inboxes/%d/set_agent_bot", other), body: H{"agent_bot": bot}},
				wantStatus: http.StatusOK,
			},
			{
				name:       "delete answers 200",
				request:    request{method: "DELETE", path: botPath(bot)},
				wantStatus: http.StatusOK,
			},
			status("the deleted bot is 404", request{method: "GET", path: botPath(bot)}, http.StatusNotFound),
			{
				name:       "the inbox the deleted bot answered has none",
				request:    request{method: "GET", path: a.path("/inboxes/%d/agent_bot", other)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"agent_bot": nil},
			},
			{
				name:       "the other account's bot is untouched",
				request:    request{method: "GET", path: accountPath(accB, "/agent_bots/%d", botB), token: adminB},
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "B bot"},
			},
		})
	})
}
