package rest_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of the field and list caps (issue 10, abuse limits): each
// over-cap input is a 422 naming the field and stores nothing. The measured
// attacks of the issue are among them (100,000 labels, a 100,000-stage
// funnel, a 1,500-condition filter, 100,000 member ids, 40,000 reorder
// positions); the 10 MB attribute and content are 413 by the body cap, so
// here they are just over their own caps.

func TestFieldCaps(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		inbox := a.apiInbox("Caps")
		contact, _ := a.contact(inbox, H{"name": "Cap"})
		conv := a.conversation(a.Account, inbox, contact)
		funnel := a.funnel("Pipeline", "new", "won")
		card := a.card(funnel, "new", H{"title": "Card"})
		team := a.team("Capped")
		a.customAttribute("blob", "text", "contact_attribute")

		bigObject := H{"blob": strings.Repeat("x", schema.MaxJSONBytes)}
		longName := strings.Repeat("n", schema.MaxNameRunes+1)
		labels := func(n int) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = fmt.Sprintf("l%d", i)
			}
			return out
		}
		ids := func(n int) []int {
			out := make([]int, n)
			for i := range out {
				out[i] = i + 1
			}
			return out
		}
		conditions := func(n int) []H {
			out := make([]H, n)
			for i := range out {
				out[i] = H{"attribute_key": "name", "filter_operator": "contains", "values": []string{"a"}, "query_operator": "OR"}
			}
			return out
		}
		stages := func(n int) []H {
			out := make([]H, n)
			for i := range out {
				out[i] = H{"name": fmt.Sprintf("S%d", i)}
			}
			return out
		}
		positions := func(n int) []H {
			out := make([]H, n)
			for i := range out {
				out[i] = H{"id": i + 1, "position": i}
			}
			return out
		}
		post := func(path string, body any) request {
			return request{method: "POST", path: a.path("%s", path), body: body}
		}
		put := func(path string, body any) request {
			return request{method: "PUT", path: a.path("%s", path), body: body}
		}
		contactPath := fmt.Sprintf("/contacts/%d", contact)
		messages := fmt.Sprintf("/conversations/%d/messages", conv)
		schedule := func(extra H) H {
			b := H{"inbox_id": inbox, "contact_id": contact, "content": "Hi", "scheduled_at": inAnHour()}
			for k, v := range extra {
				b[k] = v
			}
			return b
		}

		a.run(t, []scenario{
			invalid("a contact attribute object over 64 KiB", put(contactPath, H{"custom_attributes": bigObject}), "custom_attributes"),
			invalid("so is a contact's additional_attributes", put(contactPath, H{"additional_attributes": bigObject}), "additional_attributes"),
			invalid("a new contact with one is not created", post("/contacts", H{"inbox_id": inbox, "name": "New", "custom_attributes": bigObject}),
				"custom_attributes"),
			invalid("a contact name over 255 characters", put(contactPath, H{"name": longName}), "name"),
			invalid("101 labels on a contact", post(contactPath+"/labels", H{"labels": labels(schema.MaxLabels + 1)}), "labels"),
			invalid("100,000 labels on a conversation", post(fmt.Sprintf("/conversations/%d/labels", conv), H{"labels": labels(100_000)}), "labels"),
			status("100 labels on a conversation are fine", post(fmt.Sprintf("/conversations/%d/labels", conv), H{"labels": labels(schema.MaxLabels)}),
				http.StatusOK),
			invalid("a conversation label over 255 characters", post(fmt.Sprintf("/conversations/%d/labels", conv),
				H{"labels": []string{strings.Repeat("l", schema.MaxNameRunes+1)}}), "labels"),
			invalid("so on a contact", post(contactPath+"/labels", H{"labels": []string{strings.Repeat("l", schema.MaxNameRunes+1)}}), "labels"),
			{name: "a comma separates two labels, as in Chatwoot's tag lists (REST's labels[] filter splits on it)",
				request:    post(fmt.Sprintf("/conversations/%d/labels", conv), H{"labels": []string{"a,b", " b ", "New Label"}}),
				wantStatus: http.StatusOK, want: map[string]any{"payload": []string{"a", "b", "New Label"}}},
			invalid("message content over 150,000 characters", post(messages, H{"content": strings.Repeat("m", schema.MaxTextRunes+1)}), "content"),
			status("150,000 two-byte characters are 150,000 characters", post(messages, H{"content": strings.Repeat("é", schema.MaxTextRunes)}),
				http.StatusOK),
			invalid("message content_attributes over 64 KiB", post(messages, H{"content": "x", "content_attributes": bigObject}), "content_attributes"),
			invalid("a 1,500-condition contact filter", post("/contacts/filter", H{"payload": conditions(1500)}), "payload"),
			invalid("a filter condition with 101 values", post("/contacts/filter", H{"payload": []H{{"attribute_key": "name",
				"filter_operator": "equal_to", "values": labels(core.MaxFilterValues + 1)}}}), "values"),
			invalid("100,000 inbox member ids", post("/inbox_members", H{"inbox_id": inbox, "user_ids": ids(100_000)}), "user_ids"),
			invalid("1,001 team member ids", post(fmt.Sprintf("/teams/%d/team_members", team), H{"user_ids": ids(core.MaxIDs + 1)}), "user_ids"),
			status("40,000 reorder positions are over the body cap", post("/kanban_items/reorder", H{"positions": positions(40_000)}),
				http.StatusRequestEntityTooLarge),
			invalid("1,001 reorder positions", post("/kanban_items/reorder", H{"positions": positions(core.MaxReorderEntries + 1)}), "positions"),
			invalid("1,001 bulk card ids", post("/kanban_items/bulk_set_priority", H{"item_ids": ids(core.MaxIDs + 1), "priority": "high"}), "item_ids"),
			invalid("1,001 card agents", put(fmt.Sprintf("/kanban_items/%d", card), H{"kanban_item": H{"assigned_agents": ids(core.MaxIDs + 1)}}),
				"assigned_agents"),
			invalid("a card title over 255 characters", put(fmt.Sprintf("/kanban_items/%d", card), H{"kanban_item": H{"item_details": H{"title": longName}}}), "item_details.title"),
			invalid("card item_details over 64 KiB", put(fmt.Sprintf("/kanban_items/%d", card), H{"kanban_item": H{"item_details": bigObject}}),
				"item_details"),
			status("a 100,000-stage funnel is over the body cap", post("/funnels", H{"funnel": H{"name": "Huge", "stages": stages(100_000)}}),
				http.StatusRequestEntityTooLarge),
			invalid("a funnel of one stage over the cap", post("/funnels", H{"funnel": H{"name": "Huge", "stages": stages(core.MaxFunnelStages + 1)}}), "stages"),
			invalid("a funnel name over 255 characters", post("/funnels", H{"funnel": H{"name": longName, "stages": stages(1)}}), "name"),
			invalid("eight recurrence days", post("/scheduled_messages", schedule(H{"recurrence_type": "weekly",
				"recurrence_days": []int{0, 1, 2, 3, 4, 5, 6, 0}})), "recurrence_days"),
			invalid("a schedule title over 255 characters", post("/scheduled_messages", schedule(H{"title": longName})), "title"),
			invalid("a CSV import over 10 MiB", request{method: "POST", path: a.path("/kanban_items/import_preview"),
				body: (&form{}).file("file", "big.csv", "text/csv", []byte("title\n"+strings.Repeat("x", kanban.MaxImportBytes)))}, "file"),
			status("a CSV import of 10 MiB is read", request{method: "POST", path: a.path("/kanban_items/import_preview"),
				body: (&form{}).file("file", "big.csv", "text/csv", []byte("title\n"+strings.Repeat("x", kanban.MaxImportBytes-6)))}, http.StatusOK),
			invalid("a label description over 150,000 characters", post("/labels", H{"title": "long",
				"description": strings.Repeat("d", schema.MaxTextRunes+1)}), "description"),
		})

		t.Run("nothing over a cap was stored", func(t *testing.T) {
			ct, err := a.srv.DB.Client.Contact.Get(sys(), contact)
			if err != nil {
				t.Fatal(err)
			}
			if len(ct.CustomAttributes) != 0 || len(ct.AdditionalAttributes) != 0 || ct.Name != "Cap" || len(ct.Labels) != 0 {
				t.Errorf("contact changed: %+v", ct)
			}
			count := func(name string, n int, err error, want int) {
				t.Helper()
				if err != nil || n != want {
					t.Errorf("%s: %d (err %v), want %d", name, n, err, want)
				}
			}
			n, err := a.srv.DB.Client.Contact.Query().Count(sys())
			count("contacts", n, err, 1)
			n, err = a.srv.DB.Client.Message.Query().Count(sys())
			count("messages", n, err, 1) // the 150,000 é one
			n, err = a.srv.DB.Client.Funnel.Query().Count(sys())
			count("funnels", n, err, 1)
			n, err = a.srv.DB.Client.InboxMember.Query().Count(sys())
			count("inbox members", n, err, 0)
			n, err = a.srv.DB.Client.ScheduledMessage.Query().Count(sys())
			count("schedules", n, err, 0)
			n, err = a.srv.DB.Client.Label.Query().Count(sys())
			count("labels", n, err, 0)
			it, err := a.srv.DB.Client.KanbanItem.Get(sys(), card)
			if err != nil || len(it.ItemDetails) > 2 || it.Title == longName {
				t.Errorf("card changed: %+v (err %v)", it, err)
			}
		})
	})
}

// TestAFunnelOverTheStageCapKeepsItsStages: a funnel made when the cap was
// higher (its extra stages written here past the API) is still edited, its
// stages renamed, but it takes no further stage.
func TestAFunnelOverTheStageCapKeepsItsStages(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		slugs := make([]string, core.MaxFunnelStages)
		for i := range slugs {
			slugs[i] = fmt.Sprintf("s%d", i)
		}
		id := a.funnel("Legacy", slugs...)
		for i := len(slugs); i < core.MaxFunnelStages+5; i++ {
			slug := fmt.Sprintf("s%d", i)
			a.srv.DB.Client.FunnelStage.Create().SetAccountID(a.Account).SetFunnelID(id).
				SetName("Stage " + slug).SetSlug(slug).SetPosition(i).SaveX(sys())
			slugs = append(slugs, slug)
		}
		list := func(extra ...string) []H {
			out := []H{}
			for i, s := range append(slices.Clone(slugs), extra...) {
				name := "Stage " + s
				if i == 0 {
					name = "Renamed"
				}
				out = append(out, H{"name": name, "slug": s})
			}
			return out
		}
		update := func(stages []H) request {
			return request{method: "PATCH", path: a.path("/funnels/%d", id), body: H{"funnel": H{"stages": stages}}}
		}
		a.run(t, []scenario{
			{name: "its stages are renamed, all of them kept", request: update(list()), wantStatus: http.StatusOK,
				want: map[string]any{"stages.#": core.MaxFunnelStages + 5, "stages.0.name": "Renamed"}},
			invalid("it takes no further stage", update(list("one-more")), "stages"),
		})
	})
}
