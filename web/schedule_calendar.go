package web

import (
	"strings"
	"time"
	_ "time/tzdata" // the browser's zone must load on a host without zoneinfo files

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/schedules"
	"github.com/switchboard/switchboard/views"
)

// calendarLabelLen is how much of a schedule's text a calendar entry shows
// (the entry's hint has all of it).
const calendarLabelLen = 60

// agendaDays is how many days the agenda lists.
const agendaDays = 30

// calendarPeriod is what a calendar request asks to see.
type calendarPeriod struct {
	view     string // month, week or day
	loc      *time.Location
	anchor   time.Time // midnight of a day in loc
	from, to time.Time // the instants shown, [from, to)
}

// schedules is the calendar of scheduled messages: ?view=month|week|day,
// ?date=2026-11-23 (or the older ?month=2026-11), ?tz=Europe/Paris (UTC by
// default; the page's script sends the browser's zone). ?fragment=1 answers
// the grid alone, which the page refetches on live changes.
func (c *Console) schedules(ctx *fiber.Ctx) error {
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	p, err := readPeriod(ctx, time.Now())
	if err != nil {
		return err
	}
	entries, err := c.svc.ScheduleCalendar(ctx.UserContext(), p.from, p.to)
	if err != nil {
		return err
	}
	cal := p.calendar(nav, entries, time.Now())
	if ctx.Query("fragment") != "" {
		return render(ctx, fiber.StatusOK, views.CalendarGrid(cal))
	}
	return render(ctx, fiber.StatusOK, views.CalendarPage(cal))
}

// readPeriod reads the view, zone and date of a calendar request.
func readPeriod(ctx *fiber.Ctx, now time.Time) (calendarPeriod, error) {
	p := calendarPeriod{view: ctx.Query("view", "month")}
	if p.view != "month" && p.view != "week" && p.view != "day" && p.view != "agenda" {
		return p, apperr.Invalid("view must be month, week, day or agenda", "view")
	}
	loc, err := zone(ctx.Query("tz"))
	if err != nil {
		return p, err
	}
	p.loc = loc
	y, m, d := now.In(loc).Date()
	p.anchor = time.Date(y, m, d, 0, 0, 0, 0, loc)
	switch date, month := ctx.Query("date"), ctx.Query("month"); {
	case date != "":
		t, err := time.ParseInLocation(time.DateOnly, date, loc)
		if err != nil {
			return p, apperr.Invalid("date must look like 2026-11-23", "date")
		}
		p.anchor = t
	case month != "":
		t, err := time.ParseInLocation("2006-01", month, loc)
		if err != nil {
			return p, apperr.Invalid("month must look like 2026-11", "month")
		}
		p.anchor = t
	}
	p.from, p.to = p.bounds()
	return p, nil
}

// zone loads an IANA time zone name; empty is UTC.
func zone(name string) (*time.Location, error) {
	if name == "" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil || name == "Local" {
		return nil, apperr.Invalid("tz must be an IANA time zone, like Europe/Paris or UTC", "tz")
	}
	return loc, nil
}

// bounds are the period's first and end instants: a month's grid runs from
// the Sunday on or before its first day to the Saturday after its last.
func (p calendarPeriod) bounds() (time.Time, time.Time) {
	switch p.view {
	case "day":
		return p.anchor, p.anchor.AddDate(0, 0, 1)
	case "agenda":
		return p.anchor, p.anchor.AddDate(0, 0, agendaDays)
	case "week":
		from := p.anchor.AddDate(0, 0, -int(p.anchor.Weekday()))
		return from, from.AddDate(0, 0, 7)
	}
	first := p.anchor.AddDate(0, 0, 1-p.anchor.Day())
	last := first.AddDate(0, 1, -1)
	return first.AddDate(0, 0, -int(first.Weekday())), last.AddDate(0, 0, 7-int(last.Weekday()))
}

// step is the neighbouring period's anchor, n periods away.
func (p calendarPeriod) step(n int) time.Time {
	switch p.view {
	case "day":
		return p.anchor.AddDate(0, 0, n)
	case "agenda":
		return p.anchor.AddDate(0, 0, agendaDays*n)
	case "week":
		return p.anchor.AddDate(0, 0, 7*n)
	}
	first := p.anchor.AddDate(0, 0, 1-p.anchor.Day())
	return first.AddDate(0, n, 0)
}

func (p calendarPeriod) title() string {
	switch p.view {
	case "day":
		return p.anchor.Format("Monday 2 January 2006")
	case "week":
		return "Week of " + p.from.Format("2 Jan 2006")
	case "agenda":
		return p.from.Format("2 Jan") + " – " + p.to.AddDate(0, 0, -1).Format("2 Jan 2006")
	}
	return p.anchor.Format("January 2006")
}

// calendar lays the entries out for the view.
func (p calendarPeriod) calendar(nav views.Nav, entries []schedules.CalendarEntry, now time.Time) views.Calendar {
	cal := views.Calendar{
		Nav: nav, View: p.view, Title: p.title(), TZ: p.loc.String(), Date: p.anchor.Format(time.DateOnly),
		Prev: p.step(-1).Format(time.DateOnly), Next: p.step(1).Format(time.DateOnly),
		Today: now.In(p.loc).Format(time.DateOnly),
	}
	if p.view == "day" {
		cal.Hours = p.hours(entries)
		return cal
	}
	cal.Weeks = p.weeks(entries, now)
	if p.view == "agenda" {
		for _, week := range cal.Weeks {
			for _, d := range week {
				if len(d.Entries) > 0 {
					cal.Days = append(cal.Days, d)
				}
			}
		}
		cal.Weeks = nil
	}
	return cal
}

// weeks lays the entries out on the grid of days [from, to), by their day
// in the viewer's zone.
func (p calendarPeriod) weeks(entries []schedules.CalendarEntry, now time.Time) [][]views.CalendarDay {
	byDay := map[string][]views.CalendarItem{}
	for _, e := range entries {
		day := e.At.In(p.loc).Format(time.DateOnly)
		byDay[day] = append(byDay[day], p.item(e))
	}
	today := now.In(p.loc).Format(time.DateOnly)
	var weeks [][]views.CalendarDay
	for d := p.from; d.Before(p.to); d = d.AddDate(0, 0, 1) {
		if d.Weekday() == time.Sunday || weeks == nil {
			weeks = append(weeks, nil)
		}
		date := d.Format(time.DateOnly)
		weeks[len(weeks)-1] = append(weeks[len(weeks)-1], views.CalendarDay{
			Date: date, Day: d.Day(), Name: d.Format("Mon 2 Jan"), InMonth: p.view != "month" || d.Month() == p.anchor.Month(),
			Today: date == today, Entries: byDay[date],
		})
	}
	return weeks
}

// hours lays a day's entries out by their hour in the viewer's zone.
func (p calendarPeriod) hours(entries []schedules.CalendarEntry) []views.CalendarHour {
	out := make([]views.CalendarHour, 24)
	for h := range out {
		at := time.Date(p.anchor.Year(), p.anchor.Month(), p.anchor.Day(), h, 0, 0, 0, p.loc)
		out[h] = views.CalendarHour{At: at.Format("2006-01-02T15:04"), Label: at.Format("15:04")}
	}
	for _, e := range entries {
		h := e.At.In(p.loc).Hour()
		out[h].Entries = append(out[h].Entries, p.item(e))
	}
	return out
}

func (p calendarPeriod) item(e schedules.CalendarEntry) views.CalendarItem {
	sm := e.Schedule
	label := sm.Title
	if label == "" {
		label = sm.Content
	}
	if r := []rune(strings.TrimSpace(label)); len(r) > calendarLabelLen {
		label = string(r[:calendarLabelLen]) + "…"
	}
	status := string(sm.Status)
	if e.Upcoming {
		status = "upcoming"
	}
	return views.CalendarItem{
		ScheduleID: sm.ID, Time: e.At.In(p.loc).Format("15:04"), Label: label, Status: status,
		Recurring: sm.RecurrenceType != "none" || sm.ParentID != nil,
	}
}
