package web_test

import (
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConversationSideLiveKeepsChoices: a live change of the conversation
// (another agent sets its status) redraws the side panel with the new
// status, and keeps what the agent chose there and has not saved (an
// assignee, a label ticked, a snooze time typed) and the focus on the
// control they were at.
func TestConversationSideLiveKeepsChoices(t *testing.T) {
	cases := []struct {
		name, testid, value string
		status              string // what another agent sets meanwhile
	}{
		{"the assignee chosen", "side-assignee", "", "pending"}, // the first agent listed
		{"a label ticked", "side-label-vip", "on", "open"},
		{"a snooze time typed", "side-snooze", "2030-01-02T09:00", "pending"},
	}
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		c.mustPost(c.api("/labels"), map[string]any{"title": "vip", "color": "#d73a49"})
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				b.goTo(tab, c.base+c.app(fmt.Sprintf("/conversations/%d", p.conv)), "the conversation",
					`document.getElementById('thread') && document.getElementById('thread').dataset.live === 'open'`)
				chose := b.eval(tab, fmt.Sprintf(`(() => { const el = document.querySelector('[data-testid=%q]');
					if (el.type === 'checkbox') el.checked = true;
					else el.value = %q || el.options[1].value;
					el.focus();
					el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true}));
					return el.type === 'checkbox' ? 'on' : el.value; })()`, tc.testid, tc.value))
				c.mustPost(c.api(fmt.Sprintf("/conversations/%d/toggle_status", p.conv)), map[string]any{"status": tc.status})
				b.waitTrue(tab, "the side panel redrawn with the new status",
					fmt.Sprintf(`document.querySelector('[data-testid=side-status]').textContent === %q`, tc.status))
				got := b.eval(tab, fmt.Sprintf(`(() => { const el = document.querySelector('[data-testid=%q]');
					return el.type === 'checkbox' ? (el.checked ? 'on' : 'off') : el.value; })()`, tc.testid))
				if got != chose {
					t.Errorf("after the live redraw %s holds %v, want the unsaved choice %v", tc.testid, got, chose)
				}
				if got := b.eval(tab, focusedTestid); got != tc.testid {
					t.Errorf("after the live redraw the focus is on %v, want %s", got, tc.testid)
				}
			})
		}
	})
}
