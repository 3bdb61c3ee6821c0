package views

import (
	"net/url"
	"strconv"
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

// labelStyle colours a label chip: its colour (a #rrggbb the label rules
// allow; anything else keeps the default chip) and a text colour that reads
// on it.
func labelStyle(color string) templ.SafeCSS {
	r, g, b, ok := hexColor(color)
	if !ok {
		return ""
	}
	ink := "#fff"
	if 299*r+587*g+114*b > 150000 { // perceived brightness (W3C), 0..255000
		ink = "#1d2433"
	}
	return templ.SafeCSS("background:" + color + ";color:" + ink)
}

func hexColor(s string) (r, g, b int, ok bool) {
	if len(s) != 7 || s[0] != '#' {
		return 0, 0, 0, false
	}
	var v [3]int
	for i := range v {
		n, err := strconv.ParseUint(s[1+2*i:3+2*i], 16, 8)
		if err != nil {
			return 0, 0, 0, false
		}
		v[i] = int(n)
	}
	return v[0], v[1], v[2], true
}

func joinEvents(evs []string) string { return strings.Join(evs, ", ") }
