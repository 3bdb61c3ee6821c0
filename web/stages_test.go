package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsoleStageWrites: each stage form calls its operation, refuses bad
// input with a clear error and no change, and tells the board's viewers;
// a stage with cards goes only with its cards' fate said.
func TestConsoleStageWrites(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		stage := func(slug, action string) string {
			return c.app(fmt.Sprintf("/funnels/%d/stages/%s/%s", p.funnel, slug, action))
		}
		none := []events.Kind{}
		stages := []events.Kind{events.FunnelStagesChanged}
		c.run(t, []consoleCase{
			{name: "a stage without a name", path: c.app(fmt.Sprintf("/funnels/%d/stages", p.funnel)), form: url.Values{"name": {" "}},
				status: http.StatusUnprocessableEntity, body: errorAbout("has no name"), events: none},
			{name: "a colour that is no colour", path: stage("lead", "edit"), form: url.Values{"name": {"Lead"}, "color": {"red"}},
				status: http.StatusUnprocessableEntity, body: errorAbout("must be a hex colour"), events: none},
			{name: "an unknown stage", path: stage("nowhere", "edit"), form: url.Values{"name": {"X"}},
				status: http.StatusUnprocessableEntity, body: errorAbout("is not a stage"), events: none},
			{name: "moving a stage nowhere", path: stage("lead", "move"), form: url.Values{"direction": {"up"}},
				status: http.StatusUnprocessableEntity, body: errorAbout("Direction must be"), events: none},
			{name: "moving a stage by more places than a board has", path: stage("lead", "move"), form: url.Values{"by": {"1000"}},
				status: http.StatusUnprocessableEntity, body: errorAbout("Direction must be"), events: none},
			{name: "deleting a stage with cards, their fate unsaid", path: stage("lead", "delete"), form: url.Values{},
				status: http.StatusUnprocessableEntity, body: errorAbout("holds 3 card(s)"), events: none},
			{name: "moving the cards into the stage being deleted", path: stage("lead", "delete"), form: url.Values{"cards": {"move"}, "move_to": {"lead"}},
				status: http.StatusUnprocessableEntity, body: errorAbout("stage being deleted"), events: none},
			{name: "moving the cards to an unknown stage", path: stage("lead", "delete"), form: url.Values{"cards": {"move"}, "move_to": {"nowhere"}},
				status: http.StatusUnprocessableEntity, body: errorAbout("not a stage of this funnel"), events: none},
			{name: "another origin", path: stage("lead", "delete"), form: url.Values{"cards": {"delete"}}, origin: "http://evil.example",
				status: http.StatusForbidden, body: errorAbout("Cross-origin"), events: none},
			{name: "adding a stage", path: c.app(fmt.Sprintf("/funnels/%d/stages", p.funnel)), form: url.Values{"name": {"Won back"}, "color": {"#aa3355"}},
				status: http.StatusSeeOther, events: stages},
			{name: "renaming and recolouring", path: stage("lead", "edit"), form: url.Values{"name": {"Leads"}, "color": {"#123456"}},
				status: http.StatusSeeOther, events: stages},
			{name: "moving a stage left", path: stage("closed", "move"), form: url.Values{"direction": {"left"}},
				status: http.StatusSeeOther, events: stages},
			{name: "deleting a stage, its card moved", path: stage("qualified", "delete"), form: url.Values{"cards": {"move"}, "move_to": {"proposal"}},
				status: http.StatusSeeOther, events: []events.Kind{events.KanbanItemMoved, events.FunnelStagesChanged}},
			{name: "deleting a stage with its card", path: stage("negotiation", "delete"), form: url.Values{"cards": {"delete"}},
				status: http.StatusSeeOther, events: []events.Kind{events.KanbanItemDeleted, events.FunnelStagesChanged}},
		})
		_, frag := c.page(c.app(fmt.Sprintf("/funnels/%d/board?fragment=1", p.funnel)), c.cookie)
		var order []string
		for _, m := range stageAttr.FindAllStringSubmatch(frag, -1) {
			order = append(order, m[1])
		}
		if got := strings.Join(order, ","); got != "lead,proposal,closed,won_back" {
			t.Errorf("the board's stages are %s", got)
		}
		if !strings.Contains(column(frag, "lead"), ">Leads</h2>") || !strings.Contains(column(frag, "lead"), "--stage: #123456") {
			t.Errorf("the renamed stage does not show its name and colour")
		}
		if !strings.Contains(column(frag, "proposal"), fmt.Sprintf(`data-card="%d"`, p.cards["Umbrella audit"])) {
			t.Errorf("the deleted stage's card did not move to Proposal")
		}
		if strings.Contains(frag, fmt.Sprintf(`data-card="%d"`, p.cards["Stark expansion"])) {
			t.Errorf("the card deleted with its stage is still on the board")
		}
	})
}

var stageAttr = regexp.MustCompile(`<section class="column" data-stage="([^"]+)"`)

// TestConsoleStagesInChromium: an administrator goes from the board to its
// stages, adds one, renames one, moves one and deletes one whose card is
// moved, as a person would; a second viewer's board follows each change.
func TestConsoleStagesInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		boardURL := c.base + c.app(fmt.Sprintf("/funnels/%d/board", p.funnel))
		live := `document.getElementById('board') && document.getElementById('board').dataset.live === 'open'`
		b.goTo(tab, boardURL, "the board", live)
		other := b.open(boardURL)
		b.waitTrue(other, "the second viewer", live)
		d := drawerDriver{b: b, tab: tab, t: t}
		columns := `[...document.querySelectorAll('.column h2')].map(h => h.textContent).join(',')`

		d.click("manage-stages")
		d.wait("the stages screen", `document.querySelector('[data-testid=stage-list]')`)
		b.shootWidths(t, tab, "stages")

		d.fill("stage-add-name", "Won back")
		d.click("stage-add")
		d.wait("the new stage listed", `document.querySelector('[data-testid=stage-row-won_back]')`)
		b.waitTrue(other, "the new column on the other board", columns+` === 'Lead,Qualified,Proposal,Negotiation,Closed,Won back'`)

		b.eval(tab, `(() => { const i = document.querySelector('[data-testid=stage-row-lead] [data-testid=stage-name]'); i.value = 'Leads'; return true; })()`)
		d.clickJS(`document.querySelector('[data-testid=stage-row-lead] [data-testid=stage-save]')`)
		b.waitTrue(other, "the renamed column", columns+` === 'Leads,Qualified,Proposal,Negotiation,Closed,Won back'`)

		d.clickJS(`document.querySelector('[data-testid=stage-row-won_back] [data-testid=stage-left]')`)
		b.waitTrue(other, "the moved column", columns+` === 'Leads,Qualified,Proposal,Negotiation,Won back,Closed'`)
		d.wait("the stages screen in the new order", `[...document.querySelectorAll('.stage-row')].map(r => r.dataset.testid).join(',') === 'stage-row-lead,stage-row-qualified,stage-row-proposal,stage-row-negotiation,stage-row-won_back,stage-row-closed'`)

		// On the board, the Closed column dragged by its grip onto Leads.
		b.eval(other, `(() => {
			const grip = document.querySelector('[data-testid=stage-closed] [data-stage-drag]');
			const target = document.querySelector('[data-testid=stage-lead]');
			const dt = new DataTransfer();
			grip.dispatchEvent(new DragEvent('dragstart', {bubbles: true, dataTransfer: dt}));
			const r = target.getBoundingClientRect();
			const at = {bubbles: true, cancelable: true, dataTransfer: dt, clientX: r.left + 10, clientY: r.top + 10};
			target.dispatchEvent(new DragEvent('dragover', at));
			target.dispatchEvent(new DragEvent('drop', at));
			grip.dispatchEvent(new DragEvent('dragend', {bubbles: true, dataTransfer: dt}));
			return true;
		})()`)
		b.waitTrue(other, "the dragged column first", columns+` === 'Closed,Leads,Qualified,Proposal,Negotiation,Won back'`)
		b.goTo(tab, c.base+c.app(fmt.Sprintf("/funnels/%d/stages", p.funnel)), "the stages again", `document.querySelector('[data-testid=stage-list]')`)
		d.wait("the stages screen in the dragged order", `document.querySelector('.stage-row').dataset.testid === 'stage-row-closed'`)

		// Delete asks what becomes of the cards: with no answer the browser
		// does not send the form, and nothing changes.
		b.eval(tab, `window.confirm = () => true; true`)
		d.clickJS(`document.querySelector('[data-testid=stage-row-qualified] [data-testid=stage-delete]')`)
		if valid := b.eval(tab, `document.querySelector('[data-testid=stage-row-qualified] .stage-delete').checkValidity()`); valid != false {
			t.Errorf("the delete form of a stage with cards is valid without its cards' fate")
		}
		d.clickJS(`document.querySelector('[data-testid=stage-row-qualified] [data-testid=stage-cards-move]')`)
		b.eval(tab, `document.querySelector('[data-testid=stage-row-qualified] [data-testid=stage-move-to]').value = 'proposal'; true`)
		d.clickJS(`document.querySelector('[data-testid=stage-row-qualified] [data-testid=stage-delete]')`)
		d.wait("the stage gone", `!document.querySelector('[data-testid=stage-row-qualified]')`)
		b.waitTrue(other, "the column gone and its card in Proposal", columns+` === 'Closed,Leads,Proposal,Negotiation,Won back' && `+cardIn(p.cards["Umbrella audit"], "proposal"))
		b.shootWidths(t, tab, "stages-after")
		b.goTo(tab, boardURL, "the board after the stage changes", live)
		b.shootWidths(t, tab, "board-after-stages")
	})
}

// TestConsoleStagesReadOnlyForAgents: an agent sees a board's stages with
// the settings pages' sentence and no control that changes them (their
// writes are refused, 403); an administrator gets the controls.
func TestConsoleStagesReadOnlyForAgents(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		grace := agentSession(c)
		controls := []string{`data-testid="stage-save"`, `data-testid="stage-left"`, `data-testid="stage-right"`,
			`data-testid="stage-delete"`, `data-testid="stage-add-form"`, `/static/boards.js`}
		for _, tc := range []struct {
			name, cookie string
			controls     bool
		}{
			{"an administrator", c.cookie, true},
			{"an agent", grace, false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				st, body := c.page(c.app(fmt.Sprintf("/funnels/%d/stages", p.funnel)), tc.cookie)
				if st != http.StatusOK {
					t.Fatalf("the stages page answered %d", st)
				}
				for _, slug := range []string{"lead", "closed"} {
					if !strings.Contains(body, `data-testid="stage-row-`+slug+`"`) {
						t.Errorf("the stage %s is not listed", slug)
					}
				}
				if got := strings.Contains(body, "Only administrators change these settings."); got == tc.controls {
					t.Errorf("the read-only sentence shown: %v", got)
				}
				for _, control := range controls {
					if got := strings.Contains(body, control); got != tc.controls {
						t.Errorf("%s shown: %v, want %v", control, got, tc.controls)
					}
				}
			})
		}
		r := c.send("POST", c.app(fmt.Sprintf("/funnels/%d/stages", p.funnel)), url.Values{"name": {"Sneaky"}}, map[string]string{"Cookie": grace, "Origin": c.base})
		if r.status != http.StatusForbidden {
			t.Errorf("an agent adding a stage: %d %s, want 403", r.status, r.body)
		}
	})
}
