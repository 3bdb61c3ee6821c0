package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsoleReports: the reports page draws the figures of the API's
// report (same operation) as SVG charts, each with a table of the same
// figures, scoped by board and agent; bad parameters are refused.
func TestConsoleReports(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		b.goTo(tab, c.base+c.app("/funnels"), "the boards", `document.querySelector('[data-testid=nav-reports]')`)
		b.eval(tab, `window.leaving = true; document.querySelector('[data-testid=nav-reports]').click(); true`)
		b.waitTrue(tab, "the reports", `!window.leaving && document.querySelector('[data-testid=chart-stages]')`)
		tableOf := func(chart string) string {
			return fmt.Sprintf(`[...document.querySelectorAll('[data-testid=%s] tbody tr')].map(r => [...r.cells].map(c => c.textContent.trim()).join(' ')).join(' | ')`, chart)
		}
		for _, ck := range []struct{ what, js, want string }{
			{"cards created", `document.querySelector('[data-testid=report-total]').textContent`, "8"},
			{"win rate", `document.querySelector('[data-testid=report-winrate]').textContent`, "50 %"},
			{"cards per stage", tableOf("chart-stages"), "Lead 3 | Qualified 1 | Proposal 1 | Negotiation 1 | Closed 2"},
			{"by status", tableOf("chart-status"), "Open 6 · 316,696 | Won 1 · 98,000 | Lost 1 · 3,200"},
			{"one bar per stage", `String(document.querySelectorAll('[data-testid=chart-stages] svg rect').length)`, "5"},
			{"the chart is named", `document.querySelector('[data-testid=chart-stages] svg').getAttribute('role')`, "img"},
		} {
			if got := b.eval(tab, ck.js); got != ck.want {
				t.Errorf("%s: got %q, want %q", ck.what, got, ck.want)
			}
		}
		sumColumn := func(col int) string {
			return fmt.Sprintf(`String([...document.querySelectorAll('[data-testid=timeline-table] tbody tr')].reduce((n, r) => n + parseInt(r.cells[%d].textContent), 0))`, col)
		}
		for _, ck := range []struct{ what, js, want string }{
			{"grouped by week for a month", `document.querySelector('#chart-timeline-h').textContent`, "Created, won and lost by week"},
			{"created over time", sumColumn(1), "8"},
			{"won over time", sumColumn(2), "1"},
			{"lost over time", sumColumn(3), "1"},
			{"Ada's results", `[...[...document.querySelectorAll('[data-testid=agent-table] tbody tr')][0].cells].map(c => c.textContent).join(' ')`, "Ada 1 1 · 7,395 0 0 —"},
			{"the unassigned cards' results", `[...[...document.querySelectorAll('[data-testid=agent-table] tbody tr')][1].cells].map(c => c.textContent).join(' ').replace(/ 5 · [0-9,]+ /, ' 5 · … ')`, "No agent 7 5 · … 1 · 98,000 1 · 3,200 50 %"},
			{"stage-by-stage conversion", tableOf("chart-conversion"), "Lead 3 · 100 % | Qualified 1 · 33 % | Proposal 1 · 33 % | Negotiation 1 · 33 % | Closed 2 · 67 %"},
		} {
			if got := b.eval(tab, ck.js); got != ck.want {
				t.Errorf("%s: got %q, want %q", ck.what, got, ck.want)
			}
		}
		b.shootWidths(t, tab, "reports")
		for _, w := range screenWidths {
			b.setWidth(tab, w)
			b.eval(tab, `document.querySelector('[data-testid=chart-timeline]').scrollIntoView(); true`)
			b.shoot(t, tab, fmt.Sprintf("reports-timeline-%d", w))
		}
		b.setWidth(tab, screenWidths[0])
		d := drawerDriver{b: b, tab: tab, t: t}
		d.fill("report-group", "month")
		b.eval(tab, `window.leaving = true; true`)
		d.click("report-apply")
		b.waitTrue(tab, "the report by month", `!window.leaving && document.querySelector('#chart-timeline-h') && document.querySelector('#chart-timeline-h').textContent === 'Created, won and lost by month' && location.search.includes('group_by=month')`)
		if got := b.eval(tab, sumColumn(1)); got != "8" {
			t.Errorf("by month, %v cards created", got)
		}
		b.shootWidths(t, tab, "reports-by-month")
		b.goTo(tab, c.base+c.app(fmt.Sprintf("/reports?funnel_id=%d&agent=%d", p.funnel, c.user)), "the agent's report",
			`document.querySelector('[data-testid=report-total]')`)
		if got := b.eval(tab, tableOf("chart-stages")); got != "Lead 1" {
			t.Errorf("the report of Ada's cards per stage: %q", got)
		}
		for _, q := range []string{"from=yesterday", "from=2026-12-01&to=2026-11-01", "funnel_id=x", "agent=-3", "group_by=fortnight", "group_by=week&from=2000-01-01"} {
			if st, _ := c.page(c.app("/reports?"+q), c.cookie); st != http.StatusUnprocessableEntity {
				t.Errorf("?%s answered %d, want 422", q, st)
			}
		}
		st, body := c.page(c.app("/reports"), c.cookie)
		if st != http.StatusOK || strings.Contains(body, "http://") || strings.Contains(body, "https://") {
			t.Errorf("the reports page (%d) refers to another host", st)
		}
	})
}
