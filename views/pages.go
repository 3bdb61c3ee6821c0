package views

import (
	"net/url"
	"strings"

	"github.com/a-h/templ"
)

// Helpers of the calendar, conversations, contacts and settings pages.

// current marks the link of the page or view shown.
func current(on bool) templ.Attributes {
	if on {
		return templ.Attributes{"aria-current": "page"}
	}
	return templ.Attributes{}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// calendarQuery is a calendar URL's query: view, anchor date and zone.
func calendarQuery(view, date, tz string) string {
	v := url.Values{}
	v.Set("view", view)
	v.Set("date", date)
	v.Set("tz", tz)
	return v.Encode()
}
