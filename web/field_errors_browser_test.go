package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// errorsTied, evaluated with a form's selector, lists what is wrong with
// how the form ties its refusals to its fields (empty: nothing): each
// sentence is named by aria-describedby of at least one field, every such
// field is aria-invalid, and no other field is.
const errorsTied = `((sel) => {
	const form = document.querySelector(sel), wrong = [];
	const fields = [...form.querySelectorAll('input, select, textarea')];
	const tied = new Set();
	for (const err of form.querySelectorAll('.field-error')) {
		const by = err.id ? fields.filter((f) => (f.getAttribute('aria-describedby') || '').split(' ').includes(err.id)) : [];
		if (!err.id || by.length === 0) wrong.push('no field is described by ' + err.dataset.testid);
		by.forEach((f) => tied.add(f));
	}
	for (const f of fields) {
		const name = f.name || f.dataset.testid;
		if (tied.has(f) && f.getAttribute('aria-invalid') !== 'true') wrong.push(name + ' is not aria-invalid');
		if (!tied.has(f) && f.hasAttribute('aria-invalid')) wrong.push(name + ' is aria-invalid with no sentence');
	}
	return wrong;
})`

// TestRefusedFieldsAreTiedToTheirSentences: a refused schedule form (in
// the calendar's drawer), a refused new-contact form and refused settings
// forms mark each refused field aria-invalid and describe it by the
// sentence next to it, so a screen reader says which field is wrong and
// why; a field accepted on the next try loses both.
func TestRefusedFieldsAreTiedToTheirSentences(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		inbox := idOf(c.mustPost(c.api("/inboxes"), map[string]any{"name": "Support", "channel": map[string]any{"type": "api"}}), "id")
		ct := c.mustPost(c.api("/contacts"), map[string]any{"inbox_id": inbox, "name": "Ann Archer"})
		contact := idOf(ct["payload"].(map[string]any)["contact"].(map[string]any), "id")
		c.mustPost(c.api("/labels"), map[string]any{"title": "vip"})
		day := time.Now().UTC().AddDate(0, 0, 3).Format(time.DateOnly)
		b := startBrowser(t)
		tab := b.signInTab(c.base)

		newSchedule := fmt.Sprintf(`document.querySelector('[data-testid="new-%s"]').click()`, day)
		cases := []struct {
			name string
			// page is opened fresh; show shows the form there ("": the
			// page shows it), in selector form; before fills it just
			// before it is sent.
			page, show, form, before string
			refused                  []string // the fields the refusal names
		}{
			{name: "an empty schedule", page: c.app("/schedules?view=month&tz=UTC&date=" + day), show: newSchedule,
				form: "#drawer [data-testid=schedule-form]", refused: []string{"inbox_id", "contact_id"}},
			{name: "a schedule without content", page: c.app("/schedules?view=month&tz=UTC&date=" + day), show: newSchedule,
				form: "#drawer [data-testid=schedule-form]", before: fmt.Sprintf(`sentForm.querySelector('[name=inbox_id]').value = '%d';
					sentForm.querySelector('[name=contact_id]').add(new Option('Ann', '%d', true, true));`, inbox, contact),
				refused: []string{"content"}},
			{name: "a new contact without an inbox", page: c.app("/contacts"), show: `document.querySelector('[data-testid=contact-new]').click()`,
				form: "[data-testid=new-contact-form]", before: `sentForm.querySelector('[name=name]').value = 'Bo Brook';`,
				refused: []string{"inbox_id"}},
			{name: "a label of a taken title", page: c.app("/settings/labels"), form: "form:has([data-testid=new-label-title])",
				before: `sentForm.querySelector('[name=title]').value = 'vip';`, refused: []string{"title"}},
			{name: "a webhook to no event", page: c.app("/settings/webhooks"), form: "form:has([data-testid=new-hook-url])",
				before: `sentForm.querySelector('[name=url]').value = 'https://hooks.example.com/in';`, refused: []string{"subscriptions"}},
			{name: "an inbox in no time zone", page: c.app("/settings/inboxes"), form: fmt.Sprintf("form:has([data-testid=inbox-name-%d])", inbox),
				before: `sentForm.querySelector('[name=timezone]').value = 'Mars/Olympus';`, refused: []string{"timezone"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				b.goTo(tab, c.base+tc.page, "the page", `document.body`)
				b.eval(tab, tc.show+"; true")
				b.waitTrue(tab, "the form", fmt.Sprintf(`document.querySelector(%q)`, tc.form))
				b.eval(tab, fmt.Sprintf(`window.sentForm = document.querySelector(%q); %s
					sentForm.querySelector('[type=submit]').click(); true`, tc.form, tc.before))
				b.waitTrue(tab, "the refused form drawn again", fmt.Sprintf(
					`document.querySelector(%q) && document.querySelector(%q) !== window.sentForm && document.querySelector(%q).querySelector('.field-error')`, tc.form, tc.form, tc.form))
				for _, name := range tc.refused {
					if got := b.eval(tab, fmt.Sprintf(`document.querySelector(%q).querySelector('[name=%s]').getAttribute('aria-invalid')`, tc.form, name)); got != "true" {
						t.Errorf("the refused %s field is aria-invalid=%v", name, got)
					}
				}
				if wrong := b.eval(tab, fmt.Sprintf(`%s(%q)`, errorsTied, tc.form)).([]any); len(wrong) > 0 {
					t.Errorf("the refusals are not tied to their fields: %v", wrong)
				}
			})
		}
	})
}
