package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// visitorAPI is a visitor of a public API inbox, speaking Chatwoot's public
// client API as a chat widget would.
type visitorAPI struct {
	c               *console
	inbox, sourceID string
	conversation    int
}

func (v *visitorAPI) send(path string, body any) map[string]any {
	v.c.t.Helper()
	st, out := v.c.post(fmt.Sprintf("/public/api/v1/inboxes/%s%s", v.inbox, path), body, false)
	if st != http.StatusOK {
		v.c.t.Fatalf("visitor POST %s: %d %v", path, st, out)
	}
	return out
}

func (v *visitorAPI) say(text string) {
	v.send(fmt.Sprintf("/contacts/%s/conversations/%d/messages", v.sourceID, v.conversation), map[string]any{"content": text})
}

func (v *visitorAPI) typing(on string) {
	v.c.t.Helper()
	st, out := v.c.post(fmt.Sprintf("/public/api/v1/inboxes/%s/contacts/%s/conversations/%d/toggle_typing", v.inbox, v.sourceID, v.conversation),
		map[string]any{"typing_status": on}, false)
	if st != http.StatusOK && st != http.StatusNoContent {
		v.c.t.Fatalf("typing %s: %d %v", on, st, out)
	}
}

// TestConversationInChromium: the list filters; a visitor's typing and
// message reach an open conversation; a reply and a private note made in
// one tab reach a second one live; status, assignee, team and labels
// change through the side panel.
func TestConversationInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		ib := c.mustPost(c.api("/inboxes"), map[string]any{"name": "Website", "channel": map[string]any{"type": "api"}})
		inbox := idOf(ib, "id")
		c.mustPost(c.api("/labels"), map[string]any{"title": "vip", "color": "#d73a49"})
		c.mustPost(c.api("/labels"), map[string]any{"title": "billing", "color": "#f9d0c4"})
		team := idOf(c.mustPost(c.api("/teams"), map[string]any{"name": "Billing desk"}), "id")
		v := &visitorAPI{c: c, inbox: ib["inbox_identifier"].(string)}
		v.sourceID = v.send("/contacts", map[string]any{"name": "Vera Visitor"})["source_id"].(string)
		v.conversation = idOf(v.send(fmt.Sprintf("/contacts/%s/conversations", v.sourceID), map[string]any{}), "id")
		v.say("Hello, my invoice is wrong")
		ct := c.mustPost(c.api("/contacts"), map[string]any{"inbox_id": inbox, "name": "Pat Pending"})
		patID := idOf(ct["payload"].(map[string]any)["contact"].(map[string]any), "id")
		pending := idOf(c.mustPost(c.api("/conversations"), map[string]any{"inbox_id": inbox, "contact_id": patID, "status": "pending"}), "id")

		b := startBrowser(t)
		tab := b.signInTab(c.base)
		row := func(id int) string { return fmt.Sprintf(`document.querySelector('[data-testid="conv-%d"]')`, id) }
		b.goTo(tab, c.base+c.app("/conversations"), "the open conversations", row(v.conversation))
		if b.eval(tab, row(pending)+` !== null`) == true {
			t.Errorf("the open list shows the pending conversation")
		}
		if got := b.text(tab, fmt.Sprintf(`[data-testid="conv-%d"] .conv-excerpt`, v.conversation)); got != "Hello, my invoice is wrong" {
			t.Errorf("the row's last message is %q", got)
		}
		if got := b.text(tab, fmt.Sprintf(`[data-testid="conv-%d"] .conv-last time`, v.conversation)); !strings.HasSuffix(got, " UTC") {
			t.Errorf("the row's last message is dated %q", got)
		}
		b.eval(tab, `document.querySelector('[data-testid=filter-status]').value = 'pending'; document.querySelector('[data-testid=conv-filters]').submit(); window.leaving = true; true`)
		b.waitTrue(tab, "the pending filter", "!window.leaving && "+row(pending))
		if b.eval(tab, row(v.conversation)+` !== null`) == true {
			t.Errorf("the pending list shows the open conversation")
		}

		convURL := c.base + c.app(fmt.Sprintf("/conversations/%d", v.conversation))
		live := `document.getElementById('thread') && document.getElementById('thread').dataset.live === 'open'`
		b.goTo(tab, convURL, "the conversation", live)
		other := b.open(convURL)
		b.waitTrue(other, "the second tab's conversation", live)

		// The visitor types, then writes.
		v.typing("on")
		b.waitTrue(tab, "the typing indicator", `!document.getElementById('typing').hidden`)
		v.say("It says 120 instead of 100")
		msg := func(text string) string {
			return fmt.Sprintf(`[...document.querySelectorAll('[data-testid=message]')].some(m => m.textContent.includes(%q))`, text)
		}
		b.waitTrue(tab, "the visitor's message", msg("It says 120 instead of 100"))
		b.waitTrue(tab, "the typing indicator gone", `document.getElementById('typing').hidden`)

		// A reply and a private note in one tab reach the other.
		b.eval(tab, `document.querySelector('[data-testid=reply-content]').value = 'Sorry about that, fixing it now'; document.querySelector('[data-testid=reply-send]').click(); true`)
		b.waitTrue(other, "the reply on the second tab", msg("Sorry about that, fixing it now"))
		b.eval(tab, `document.querySelector('[data-testid=reply-content]').value = 'Refund approved by finance';
			document.querySelector('[data-testid=reply-private]').checked = true; document.querySelector('[data-testid=reply-send]').click(); true`)
		b.waitTrue(other, "the private note on the second tab", `[...document.querySelectorAll('[data-testid=message].private')].some(m => m.textContent.includes('Refund approved by finance'))`)
		// The other tab may hear of the note before this one has the
		// answer to its send, which is when the box is emptied.
		b.waitTrue(tab, "the reply box emptied after sending", `document.querySelector('[data-testid=reply-content]').value === ''`)
		if st, _ := c.post(c.app(fmt.Sprintf("/conversations/%d/messages", v.conversation)), map[string]any{}, false); st != http.StatusUnprocessableEntity {
			t.Errorf("an empty reply answered %d, want 422", st)
		}

		// Status, assignee, team and labels; the second tab follows.
		b.eval(tab, `document.querySelector('[data-testid=side-status-select]').value = 'resolved'; document.querySelector('[data-testid=side-status-save]').click(); true`)
		b.waitTrue(other, "the resolved status on the second tab", `document.querySelector('[data-testid=side-status]').textContent === 'resolved'`)
		b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid=side-assignee]').value = '%d'; document.querySelector('[data-testid=side-team]').value = '%d';
			document.querySelector('[data-testid=side-assign-save]').click(); true`, c.user, team))
		b.waitTrue(other, "the assignee on the second tab", fmt.Sprintf(`document.querySelector('[data-testid=side-assignee]').value === '%d'`, c.user))
		b.eval(tab, `window.oldSave = document.querySelector('[data-testid=side-labels-save]');
			document.querySelector('[data-testid="side-label-vip"]').checked = true; window.oldSave.click(); true`)
		// The assignment's live refetch may redraw the panel before the
		// save's answer does: wait for a redrawn panel with vip ticked.
		b.waitTrue(tab, "the side panel the server answered, vip ticked", `document.querySelector('[data-testid=side-labels-save]') !== window.oldSave &&
			document.querySelector('[data-testid="side-label-vip"]').checked`)
		got := c.mustGet(c.api(fmt.Sprintf("/conversations/%d", v.conversation)))
		if got["status"] != "resolved" || idOf(got, "assignee_id") != c.user || idOf(got, "team_id") != team || fmt.Sprint(got["labels"]) != "[vip]" {
			t.Errorf("the API sees status %v, assignee %v, team %v, labels %v", got["status"], got["assignee_id"], got["team_id"], got["labels"])
		}
		b.shootWidths(t, tab, "conversation")

		// The list's label filter finds it, its chip in the label's colour.
		b.goTo(tab, c.base+c.app("/conversations?status=all&label=vip"), "the label filter", row(v.conversation))
		if b.eval(tab, row(pending)+` !== null`) == true {
			t.Errorf("the vip filter shows an unlabelled conversation")
		}
		if bg := b.eval(tab, fmt.Sprintf(`getComputedStyle(document.querySelector('[data-testid="conv-%d"] [data-label=vip]')).backgroundColor`, v.conversation)); bg != "rgb(215, 58, 73)" {
			t.Errorf("the vip chip's colour is %v", bg)
		}
		if !strings.Contains(b.text(tab, "[data-testid=conv-counts]"), "1 mine") {
			t.Errorf("the counts read %q", b.text(tab, "[data-testid=conv-counts]"))
		}
		b.shootWidths(t, tab, "conversations-list")
	})
}
