package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// waInbox makes a WhatsApp Cloud inbox with one approved template,
// "renewal_due" (en_US), whose body takes two parameters.
func waInbox(c *console) int {
	c.t.Helper()
	return idOf(c.mustPost(c.api("/inboxes"), map[string]any{"name": "WhatsApp", "channel": map[string]any{
		"type": "whatsapp", "phone_number": "+15550001000", "provider": "whatsapp_cloud",
		"provider_config": map[string]any{"api_key": "key", "phone_number_id": "123", "business_account_id": "456"},
		"message_templates": []map[string]any{{"name": "renewal_due", "language": "en_US", "status": "APPROVED", "category": "UTILITY",
			"components": []map[string]any{{"type": "BODY", "text": "Hi {{1}}, your plan renews on {{2}}"}}}},
	}}), "id")
}

// TestCalendarWhatsAppTemplateInChromium: choosing a WhatsApp inbox offers
// the template's fields; parameters that do not fit the template are
// refused at the field; fitting ones are saved in order and shown.
func TestCalendarWhatsAppTemplateInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		api := idOf(c.mustPost(c.api("/inboxes"), map[string]any{"name": "Support", "channel": map[string]any{"type": "api"}}), "id")
		wa := waInbox(c)
		c.mustPost(c.api("/contacts"), map[string]any{"inbox_id": wa, "name": "Ann Archer", "phone_number": "+15550002222"})
		day := time.Now().UTC().AddDate(0, 0, 3).Format(time.DateOnly)

		b := startBrowser(t)
		tab := b.signInTab(c.base)
		b.goTo(tab, c.base+c.app("/schedules?view=month&tz=UTC&date="+day), "the calendar", `document.getElementById('calendar-grid')?.dataset.live === 'open'`)
		b.click(tab, `[data-testid="new-`+day+`"]`)
		b.waitTrue(tab, "the new-schedule form", `document.querySelector('#drawer [data-testid=schedule-form]')`)
		template := `document.querySelector('#drawer [data-testid=f-template]')`
		shown := `getComputedStyle(` + template + `).display !== 'none'`
		if got := b.eval(tab, `!(`+shown+`) && `+template+`.disabled`); got != true {
			t.Errorf("with no inbox chosen the template fields are shown (%v)", got)
		}
		b.fill(tab, map[string]string{"f-inbox": fmt.Sprint(api)})
		if got := b.eval(tab, shown); got != false {
			t.Errorf("an API inbox shows the template fields")
		}
		b.fill(tab, map[string]string{"f-inbox": fmt.Sprint(wa), "f-contact-search": "Ann"})
		b.waitTrue(tab, "the template fields for WhatsApp", shown+` && !`+template+`.disabled`)
		b.waitTrue(tab, "Ann chosen", `document.querySelector('#drawer [data-testid=f-contact]').selectedOptions[0]?.textContent.startsWith('Ann Archer')`)
		b.fill(tab, map[string]string{"f-content": "Your plan renews soon", "f-template-name": "renewal_due",
			"f-template-language": "en_US", "f-template-params": "Ann"})
		b.click(tab, `#drawer [data-testid=schedule-save]`)
		b.waitTrue(tab, "the refusal at the template", `document.querySelector('#drawer [data-testid=error-template_params]')`)
		if got := b.text(tab, `#drawer [data-testid=error-template_params]`); !strings.Contains(got, "takes parameters [1 2]") {
			t.Errorf("the template field says %q", got)
		}
		if got := b.eval(tab, shown+` && document.querySelector('#drawer [data-testid=f-template-params]').value`); got != "Ann" {
			t.Errorf("the refused form shows the parameters as %v", got)
		}
		b.eval(tab, `document.querySelector('#drawer [data-testid=f-template]').scrollIntoView(); true`)
		b.shootWidths(t, tab, "calendar-template-refused")
		b.fill(tab, map[string]string{"f-template-params": "Ann\n1 December"})
		b.click(tab, `#drawer [data-testid=schedule-save]`)
		b.waitTrue(tab, "the saved schedule's drawer", `document.querySelector('#drawer [data-testid=schedule-template]')`)
		if got := b.text(tab, `#drawer [data-testid=schedule-template]`); got != "renewal_due (en_US) with Ann, 1 December" {
			t.Errorf("the drawer shows the template as %q", got)
		}
		id := int(b.eval(tab, `Number(document.querySelector('#drawer [data-schedule]').dataset.schedule)`).(float64))
		got := c.mustGet(c.api(fmt.Sprintf("/scheduled_messages/%d", id)))["template_params"]
		if fmt.Sprint(got) != "map[language:en_US name:renewal_due processed_params:map[1:Ann 2:1 December]]" {
			t.Errorf("the API sees template_params %v", got)
		}
		if got := b.eval(tab, `document.querySelector('#drawer [data-testid=f-template-params]')?.value`); got != "Ann\n1 December" {
			t.Errorf("the edit form shows the parameters as %q", got)
		}
	})
}

// TestCalendarShowsFiringLiveInChromium: schedules due two seconds ahead
// fire in the running app while the calendar is open: the one through an
// API inbox turns sent, the WhatsApp one the channel refuses (no template
// outside the reply window) turns failed with its reason, with no reload.
func TestCalendarShowsFiringLiveInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		api := idOf(c.mustPost(c.api("/inboxes"), map[string]any{"name": "Support", "channel": map[string]any{"type": "api"}}), "id")
		wa := waInbox(c)
		contactIn := func(inbox int, name, phone string) int {
			ct := c.mustPost(c.api("/contacts"), map[string]any{"inbox_id": inbox, "name": name, "phone_number": phone})
			return idOf(ct["payload"].(map[string]any)["contact"].(map[string]any), "id")
		}
		bob, ann := contactIn(api, "Bob Baker", "+15550003333"), contactIn(wa, "Ann Archer", "+15550002222")
		today := time.Now().UTC().Format(time.DateOnly)

		b := startBrowser(t)
		tab := b.signInTab(c.base)
		b.goTo(tab, c.base+c.app("/schedules?view=agenda&tz=UTC&date="+today), "the live agenda", `document.getElementById('calendar-grid')?.dataset.live === 'open'`)
		b.eval(tab, `window.sameDocument = true`)
		at := time.Now().UTC().Add(2 * time.Second).Format(time.RFC3339Nano)
		sent := idOf(c.mustPost(c.api("/scheduled_messages"), map[string]any{"inbox_id": api, "contact_id": bob, "content": "Hello Bob", "scheduled_at": at}), "id")
		refused := idOf(c.mustPost(c.api("/scheduled_messages"), map[string]any{"inbox_id": wa, "contact_id": ann, "content": "Hello Ann", "scheduled_at": at}), "id")
		entry := func(id int, status string) string {
			return fmt.Sprintf(`document.querySelector('#calendar-grid [data-schedule="%d"].st-%s')`, id, status)
		}
		b.waitTrue(tab, "both schedules pending", entry(sent, "pending")+` && `+entry(refused, "pending"))
		b.waitTrue(tab, "the sent one", entry(sent, "sent"))
		b.waitTrue(tab, "the refused one", entry(refused, "failed"))
		if got := b.eval(tab, `window.sameDocument === true`); got != true {
			t.Fatal("the page reloaded")
		}
		b.shootWidths(t, tab, "calendar-fired")
		b.click(tab, fmt.Sprintf(`#calendar-grid [data-schedule="%d"]`, refused))
		b.waitTrue(tab, "the failure's reason in the drawer", `document.querySelector('#drawer [data-testid=schedule-failure]')`)
		if got := b.text(tab, `#drawer [data-testid=schedule-failure]`); !strings.Contains(strings.ToLower(got), "24 hours") && !strings.Contains(strings.ToLower(got), "template") {
			t.Errorf("the failure reads %q", got)
		}
	})
}
