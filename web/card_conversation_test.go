package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsoleDrawerWrites: replying from a card's drawer and editing its
// checklist items and notes go through the operations the API uses, answer
// with the drawer, tell the listeners what they tell, and refuse bad input
// with no change.
func TestConsoleDrawerWrites(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		acme, globex := p.cards["Acme renewal"], p.cards["Globex pilot"]
		card := func(id int, rest string) string { return c.app(fmt.Sprintf("/kanban_items/%d%s", id, rest)) }
		note := idOf(c.mustPost(c.api(fmt.Sprintf("/kanban_items/%d/create_note", acme)), map[string]any{"content": "First call"})["note"].(map[string]any), "id")
		none := []events.Kind{}
		c.run(t, []consoleCase{
			{name: "a blank reply", path: card(acme, "/reply"), form: url.Values{"content": {"  "}}, status: http.StatusUnprocessableEntity,
				body: errorAbout("Content can't be blank"), events: none},
			{name: "a reply on a card without a conversation", path: card(globex, "/reply"), form: url.Values{"content": {"Hello"}},
				status: http.StatusUnprocessableEntity, body: errorAbout("no conversation"), events: none},
			{name: "a checklist item emptied", path: card(acme, fmt.Sprintf("/checklist/%d/edit", p.checklistItem)), form: url.Values{"text": {""}},
				status: http.StatusUnprocessableEntity, body: errorAbout("Text can't be blank"), events: none},
			{name: "another card's checklist item", path: card(globex, fmt.Sprintf("/checklist/%d/edit", p.checklistItem)), form: url.Values{"text": {"x"}},
				status: http.StatusNotFound, body: errorAbout("Checklist item"), events: none},
			{name: "a note emptied", path: card(acme, fmt.Sprintf("/notes/%d/edit", note)), form: url.Values{"content": {" "}},
				status: http.StatusUnprocessableEntity, body: errorAbout("Content can't be blank"), events: none},
			{name: "another card's note", path: card(globex, fmt.Sprintf("/notes/%d/edit", note)), form: url.Values{"content": {"x"}},
				status: http.StatusNotFound, body: errorAbout("Note"), events: none},
			{name: "a reply", path: card(acme, "/reply"), form: url.Values{"content": {"Your quote is attached"}}, status: http.StatusOK,
				html: []string{"Your quote is attached", `class="msg msg-outgoing"`}, events: []events.Kind{events.MessageCreated}},
			{name: "a private note", path: card(acme, "/reply"), form: url.Values{"content": {"Discount approved"}, "private": {"true"}}, status: http.StatusOK,
				html: []string{"Discount approved", "msg-private", "Private note"}, events: []events.Kind{events.MessageCreated}},
			{name: "a checklist item reworded", path: card(acme, fmt.Sprintf("/checklist/%d/edit", p.checklistItem)), form: url.Values{"text": {"Send the final quote"}},
				status: http.StatusOK, html: []string{"Send the final quote"}, events: []events.Kind{events.KanbanItemUpdated}},
			{name: "a note reworded", path: card(acme, fmt.Sprintf("/notes/%d/edit", note)), form: url.Values{"content": {"First call: keen"}},
				status: http.StatusOK, html: []string{"First call: keen"}, events: []events.Kind{events.KanbanItemUpdated}},
		})
	})
}

// TestConsoleDrawerConversationInChromium: the drawer of a card shows its
// conversation's latest messages, replies and writes private notes in it,
// links to the contact, and rewords checklist items and notes, as a person
// would; the other viewer's board follows the checklist progress.
func TestConsoleDrawerConversationInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		acme := p.cards["Acme renewal"]
		c.mustPost(c.api(fmt.Sprintf("/conversations/%d/messages", p.conv)), map[string]any{"content": "Can you send the quote?", "message_type": "incoming"})
		c.mustPost(c.api(fmt.Sprintf("/kanban_items/%d/create_note", acme)), map[string]any{"content": "First call"})
		b := startBrowser(t)
		tab := b.signInTab(c.base)
		b.setWidth(tab, 1400)
		boardURL := c.base + c.app(fmt.Sprintf("/funnels/%d/board", p.funnel))
		live := `document.getElementById('board') && document.getElementById('board').dataset.live === 'open'`
		b.goTo(tab, boardURL+fmt.Sprintf("?card=%d", acme), "the card's drawer", live+` && document.querySelector('[data-testid=drawer-conversation]')`)
		other := b.open(boardURL)
		b.waitTrue(other, "the second viewer", live)
		d := drawerDriver{b: b, tab: tab, t: t}
		messages := `[...document.querySelectorAll('[data-testid=message]')].map(m => m.querySelector('strong').textContent + ': ' + m.querySelector('.note-text').textContent).join(' | ')`
		if got := b.eval(tab, messages); got != "Alice Buyer: Can you send the quote?" {
			t.Errorf("the drawer's messages: %v", got)
		}

		d.fill("reply-text", "Here it is: 8,100 EUR")
		d.click("reply-send")
		d.wait("the reply under the customer's message", messages+` === 'Alice Buyer: Can you send the quote? | Ada: Here it is: 8,100 EUR'`)
		d.fill("reply-text", "She will sign on Friday")
		d.clickJS(`document.querySelector('[data-testid=reply-private]')`)
		d.click("reply-send")
		d.wait("the private note", `(() => { const m = [...document.querySelectorAll('[data-testid=message]')].pop();
			return m.classList.contains('msg-private') && m.textContent.includes('Private note') && m.textContent.includes('She will sign on Friday'); })()`)
		if st, body := c.apiGet(fmt.Sprintf("/conversations/%d/messages", p.conv)); st != http.StatusOK || strings.Count(body, `"content":"`) != 3 {
			t.Errorf("the conversation's messages through the API: %d %s", st, body)
		}
		b.shootWidths(t, tab, "drawer-conversation")

		d.clickJS(`document.querySelector('[data-testid=drawer-checklist] [aria-label="Edit Send quote"]')`)
		d.fill("checklist-edit-text", "Send the final quote")
		d.click("checklist-save")
		d.wait("the reworded item", `document.querySelector('[data-testid=drawer-checklist]').textContent.includes('Send the final quote')`)
		d.clickJS(`document.querySelector('[data-testid=drawer-checklist] [aria-label="Book demo"]')`)
		b.waitTrue(other, "the ticked item's progress on the other board", card(acme, "card-checklist")+` === '✓ 2/2'`)

		d.click("note-edit")
		d.fill("note-edit-text", "First call: keen on the upgrade")
		d.click("note-save")
		d.wait("the reworded note", `document.querySelector('[data-testid=note] .note-text').textContent === 'First call: keen on the upgrade'`)

		d.click("drawer-contact")
		b.waitTrue(tab, "the contact's own page", `/\/contacts\/\d+$/.test(location.pathname) && document.body && document.body.textContent.includes('alice@buyer.test')`)
	})
}

// apiGet reads an account path of the REST API with the token.
func (c *console) apiGet(path string) (int, string) {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.base+c.api(path), nil)
	req.Header.Set("api_access_token", c.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// TestConsoleDrawerFollowsChanges: a card's drawer open on a second board
// shows the first viewer's changes of that card at once (a note, a
// checklist item, the status), but not while its agent is typing there; a
// card deleted elsewhere closes it.
func TestConsoleDrawerFollowsChanges(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		acme := p.cards["Acme renewal"]
		b := startBrowser(t)
		tab := b.signInTab(c.base)
		b.setWidth(tab, 1400)
		cardURL := c.base + c.app(fmt.Sprintf("/funnels/%d/board?card=%d", p.funnel, acme))
		ready := `document.getElementById('board') && document.getElementById('board').dataset.live === 'open' && !document.getElementById('drawer').hidden`
		b.goTo(tab, cardURL, "the first viewer's drawer", ready)
		other := b.open(cardURL)
		b.waitTrue(other, "the second viewer's drawer", ready)
		d := drawerDriver{b: b, tab: tab, t: t}

		d.fill("note-text", "Budget confirmed")
		d.click("note-add")
		b.waitTrue(other, "the note in the other drawer", `document.querySelector('[data-testid=drawer-notes]').textContent.includes('Budget confirmed')`)
		d.click("mark-won")
		b.waitTrue(other, "the won status in the other drawer", `document.querySelector('[data-testid=drawer-status]').textContent === 'Won'`)

		// The second agent types a note: a change meanwhile leaves it be.
		b.eval(other, `document.querySelector('[data-testid=note-text]').value = 'Half-written'; true`)
		d.click("reopen")
		d.wait("the card reopened here", `document.querySelector('[data-testid=drawer-status]').textContent === 'Open'`)
		b.waitTrue(other, "the reopened card on the other board", fmt.Sprintf(`!document.querySelector('[data-testid="card-%d"] [data-testid=card-status]')`, acme))
		if got := b.eval(other, `document.querySelector('[data-testid=note-text]').value + ' / ' + document.querySelector('[data-testid=drawer-status]').textContent`); got != "Half-written / Won" {
			t.Errorf("a live change replaced the drawer being typed in: %v", got)
		}
		b.shootWidths(t, other, "drawer-following")

		c.deleteAPI(c.api(fmt.Sprintf("/kanban_items/%d", acme)))
		b.waitTrue(other, "the deleted card's drawer closed", `document.getElementById('drawer').hidden`)
	})
}
