package web

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/schedules"
	"github.com/switchboard/switchboard/views"
)

// calendarLabelLen is how much of a schedule's text a calendar cell shows.
const calendarLabelLen = 40

// schedules is the calendar of scheduled messages: one month (?month=2026-11,
// default the current one), weeks from Sunday, in UTC.
func (c *Console) schedules(ctx *fiber.Ctx) error {
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	month, err := calendarMonth(ctx.Query("month"), time.Now().UTC())
	if err != nil {
		return err
	}
	from := month.AddDate(0, 0, -int(month.Weekday()))
	last := month.AddDate(0, 1, -1)
	to := last.AddDate(0, 0, 7-int(last.Weekday()))
	entries, err := c.svc.ScheduleCalendar(ctx.UserContext(), from, to)
	if err != nil {
		return err
	}
	cal := views.Calendar{
		Nav: nav, Title: month.Format("January 2006"),
		PrevMonth: month.AddDate(0, -1, 0).Format("2006-01"), NextMonth: month.AddDate(0, 1, 0).Format("2006-01"),
		Weeks: calendarWeeks(month, from, to, entries, time.Now().UTC()),
	}
	return render(ctx, fiber.StatusOK, views.CalendarPage(cal))
}

// calendarMonth reads YYYY-MM (empty: now's month) as the month's first
// instant in UTC.
func calendarMonth(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC), nil
	}
	m, err := time.Parse("2006-01", s)
	if err != nil {
		return time.Time{}, apperr.Invalid("month must look like 2026-11", "month")
	}
	return m, nil
}

// calendarWeeks lays the entries out on the grid of days [from, to).
func calendarWeeks(month, from, to time.Time, entries []schedules.CalendarEntry, now time.Time) [][]views.CalendarDay {
	byDay := map[string][]views.CalendarItem{}
	for _, e := range entries {
		day := e.At.UTC().Format(time.DateOnly)
		byDay[day] = append(byDay[day], calendarItem(e))
	}
	var weeks [][]views.CalendarDay
	for d := from; d.Before(to); d = d.AddDate(0, 0, 1) {
		if d.Weekday() == time.Sunday {
			weeks = append(weeks, nil)
		}
		date := d.Format(time.DateOnly)
		weeks[len(weeks)-1] = append(weeks[len(weeks)-1], views.CalendarDay{
			Date: date, Day: d.Day(), InMonth: d.Month() == month.Month(),
			Today: date == now.Format(time.DateOnly), Entries: byDay[date],
		})
	}
	return weeks
}

func calendarItem(e schedules.CalendarEntry) views.CalendarItem {
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
		ScheduleID: sm.ID, Time: e.At.UTC().Format("15:04"), Label: label, Status: status,
		Recurring: sm.RecurrenceType != "none" || sm.ParentID != nil,
	}
}
