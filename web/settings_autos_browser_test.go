package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestAutomationSettingsInChromium: an administrator creates a kanban
// automation (refusals from the kanban operation and from unreadable JSON
// shown), disables it and deletes it.
func TestAutomationSettingsInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		funnel := idOf(c.mustPost(c.api("/funnels"), map[string]any{"name": "Sales", "stages": []map[string]any{
			{"name": "New", "slug": "new"}, {"name": "Won", "slug": "won"}}}), "id")
		b := startBrowser(t)
		tab := b.signInTab(c.base)
		b.goTo(tab, c.base+c.app("/settings/automations"), "the automations settings", `document.querySelector('[data-testid=auto-rows]')`)

		form := map[string]string{"[data-testid=new-auto-name]": "Won is urgent", "[data-testid=new-auto-funnel]": fmt.Sprint(funnel),
			"[data-testid=new-auto-trigger]": "stage_entered", "[data-testid=new-auto-action]": "set_priority",
			"[data-testid=new-auto-trigger-config]": "{}", "[data-testid=new-auto-action-config]": `{"priority": "urgent"}`}
		b.submitIn(tab, form, "[data-testid=new-auto-save]")
		if got := b.text(tab, "[data-testid=settings-error]"); !strings.Contains(got, "stage") {
			t.Errorf("a stage_entered rule without a stage says %q", got)
		}
		form["[data-testid=new-auto-trigger-config]"] = `{"stage": "won"`
		b.submitIn(tab, form, "[data-testid=new-auto-save]")
		if got := b.text(tab, "[data-testid=settings-error]"); !strings.Contains(got, "JSON object") {
			t.Errorf("unreadable JSON says %q", got)
		}
		form["[data-testid=new-auto-trigger-config]"] = `{"stage": "won"}`
		b.submitIn(tab, form, "[data-testid=new-auto-save]")
		autos := c.mustGet(c.api("/kanban/automations"))
		list, _ := autos["payload"].([]any)
		if len(list) != 1 {
			t.Fatalf("the API lists %v", autos)
		}
		a := list[0].(map[string]any)
		id := idOf(a, "id")
		if a["enabled"] != true || fmt.Sprint(a["trigger_config"]) != "map[stage:won]" || fmt.Sprint(a["action_config"]) != "map[priority:urgent]" {
			t.Errorf("the API sees %v", a)
		}
		b.shootWidths(t, tab, "settings-automations")

		b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid="auto-%d-enabled"]').checked = false; true`, id))
		b.submitIn(tab, nil, fmt.Sprintf(`[data-testid="auto-save-%d"]`, id))
		if got := c.mustGet(c.api(fmt.Sprintf("/kanban/automations/%d", id))); got["enabled"] != false || got["name"] != "Won is urgent" {
			t.Errorf("after disabling, the API sees %v", got)
		}
		b.submitIn(tab, nil, fmt.Sprintf(`[data-testid="auto-delete-%d"]`, id))
		if list, _ := c.mustGet(c.api("/kanban/automations"))["payload"].([]any); len(list) != 0 {
			t.Errorf("%d automations left after the delete", len(list))
		}
	})
}
