package web

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/views"
)

// The reports screen: the figures GET /kanban_items/reports serves, from
// the same operation, drawn as SVG bars, each chart with its table.

const dayLayout = "2006-01-02"

// reportInput reads ?from=&to=&funnel_id=&agent=&group_by= (dates as YYYY-MM-DD, to
// inclusive); the period defaults to the last 30 days, as the API's does.
func reportInput(ctx *fiber.Ctx, now time.Time) (kanban.ReportInput, views.Reports, error) {
	var in kanban.ReportInput
	var r views.Reports
	day := func(name string, dflt time.Time) (time.Time, error) {
		raw := strings.TrimSpace(ctx.Query(name))
		if raw == "" {
			return dflt, nil
		}
		t, err := time.Parse(dayLayout, raw)
		if err != nil {
			return t, apperr.Invalidf(name, "%s must be a date like 2026-11-25", name)
		}
		return t, nil
	}
	today := now.UTC().Truncate(24 * time.Hour)
	to, err := day("to", today)
	if err != nil {
		return in, r, err
	}
	from, err := day("from", to.AddDate(0, 0, -30))
	if err != nil {
		return in, r, err
	}
	if from.After(to) {
		return in, r, apperr.Invalid("from must not be after to", "from")
	}
	in.From, in.To = from, to.AddDate(0, 0, 1)
	r.From, r.To = from.Format(dayLayout), to.Format(dayLayout)
	for name, dst := range map[string]*int{"funnel_id": &in.FunnelID, "agent": &r.AgentID} {
		if raw := strings.TrimSpace(ctx.Query(name)); raw != "" {
			n, err := strconv.Atoi(raw)
			if err != nil || n <= 0 {
				return in, r, apperr.Invalidf(name, "%s must be an id", name)
			}
			*dst = n
		}
	}
	r.FunnelID = in.FunnelID
	in.GroupBy = strings.TrimSpace(ctx.Query("group_by")) // the operation checks it
	r.GroupBy = in.GroupBy
	if r.AgentID != 0 {
		in.UserIDs = []int{r.AgentID}
	}
	return in, r, nil
}

// reports serves GET /reports.
func (c *Console) reports(ctx *fiber.Ctx) error {
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	in, r, err := reportInput(ctx, time.Now())
	if err != nil {
		return err
	}
	report, err := c.svc.KanbanReport(ctx.UserContext(), in)
	if err != nil {
		return err
	}
	fs, err := c.svc.Funnels(ctx.UserContext())
	if err != nil {
		return err
	}
	for _, f := range fs {
		r.Funnels = append(r.Funnels, views.BoardLink{ID: f.ID, Name: f.Name})
	}
	if r.Agents, err = c.boardAgents(ctx.UserContext()); err != nil {
		return err
	}
	r.Nav = nav
	fillReport(&r, report, nav.Locale)
	return render(ctx, fiber.StatusOK, views.ReportsPage(r))
}

// fillReport turns the operation's figures into tiles and charts.
func fillReport(r *views.Reports, rep *kanban.Report, locale string) {
	num := func(v float64, digits int) string {
		return printer(locale).Sprint(number.Decimal(v, number.MinFractionDigits(digits), number.MaxFractionDigits(digits)))
	}
	r.TotalCards, r.TotalValue, r.WinRate, r.AvgTimeToWin = rep.TotalItems, num(rep.TotalValue, 0), "—", "—"
	if rep.WinRate != nil {
		r.WinRate = num(*rep.WinRate*100, 0) + " %"
	}
	if rep.AvgTimeToWin != nil {
		r.AvgTimeToWin = spent(int64(*rep.AvgTimeToWin))
	}
	status := views.Chart{ID: "chart-status", Title: "Won, lost and open", Unit: "Status"}
	for _, st := range kanban.CardStatuses {
		cv := rep.ByStatus[st]
		status.Rows = append(status.Rows, views.ChartRow{Label: strings.ToUpper(st[:1]) + st[1:], Amount: float64(cv.Count),
			Display: fmt.Sprintf("%d · %s", cv.Count, num(cv.Value, 0))})
	}
	count := views.Chart{ID: "chart-stages", Title: "Cards in each stage now", Unit: "Stage"}
	value := views.Chart{ID: "chart-value", Title: "Value in each stage", Unit: "Stage"}
	stay := views.Chart{ID: "chart-time", Title: "Average time in each stage", Unit: "Stage"}
	for _, s := range rep.ByStage {
		count.Rows = append(count.Rows, views.ChartRow{Label: s.Name, Amount: float64(s.Count), Display: fmt.Sprint(s.Count)})
		value.Rows = append(value.Rows, views.ChartRow{Label: s.Name, Amount: s.Value, Display: num(s.Value, 0)})
		stay.Rows = append(stay.Rows, views.ChartRow{Label: s.Name, Amount: s.AvgTimeSeconds, Display: spent(int64(s.AvgTimeSeconds))})
	}
	r.Charts = []views.Chart{status, count, value, stay}
	fillSeries(r, rep, num)
}

func printer(locale string) *message.Printer {
	tag, err := language.Parse(locale)
	if err != nil {
		tag = language.English
	}
	return message.NewPrinter(tag)
}
