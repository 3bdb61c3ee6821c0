package db

import (
	"database/sql/driver"
	"strconv"
	"strings"
)

// On PostgreSQL an IN list of integer arguments is sent as one array
// argument: `x IN ($2, $3, $4)` becomes `x = ANY($2)`. ent writes its eager
// loads and ID lists as IN lists, a new text for every length: in a burst of
// 10,000 schedules, about 900 texts, each planned at every call and, past
// maxCachedArgs, parsed too, 1.6 s of PostgreSQL's planning
// (docs/performance.md, thirtieth session). With one text per shape the
// statement cache keeps it prepared whatever the length, and the burst's
// planning fell to 0.9 s. Rails' PostgreSQL adapter does the same
// (rails/rails#49388). The two are equal for integers: neither matches
// NULL. An array runs a little slower than its ids as arguments (a page's
// 15 contact inboxes, 0.16 ms a call against 0.13 ms); the planning and
// parsing saved weigh more.

// inArrays rewrites query's IN lists of integer arguments as arrays, and
// returns the query and the arguments it then takes. A list whose
// placeholders are not consecutive, or whose arguments are not all
// integers, is left as it is, as are NOT IN and a list of one: PostgreSQL
// plans `x IN ($1)` as `x = $1`, once for all calls, where it planned
// `x = ANY($1)` at each (GET /contacts/{id} answered a quarter fewer
// requests a second).
func inArrays(query string, args []driver.NamedValue) (string, []driver.NamedValue) {
	from := 0
	for {
		i := strings.Index(query[from:], " IN ($")
		if i < 0 {
			return query, args
		}
		start := from + i
		first, last, end, ok := placeholderRun(query, start+len(" IN ("))
		from = start + len(" IN (")
		if !ok || first == last || !allIntegers(args, first, last) || strings.HasSuffix(query[:start], " NOT") {
			continue
		}
		// Placeholders written before the list may be numbered after it.
		head := renumber(query[:start], first, last) + " = ANY($" + strconv.Itoa(first) + ")"
		query = head + renumber(query[end:], first, last)
		args = collapse(args, first, last)
		from = len(head)
	}
}

// placeholderRun reads "$a, $a+1, ..., $b)" at query[at:], and returns a,
// b and the index just past the parenthesis.
func placeholderRun(query string, at int) (first, last, end int, ok bool) {
	next := 0
	for {
		if at >= len(query) || query[at] != '$' {
			return 0, 0, 0, false
		}
		n, j, err := placeholderAt(query, at)
		if err != nil || (next != 0 && n != next) {
			return 0, 0, 0, false
		}
		if next == 0 {
			first = n
		}
		next = n + 1
		switch {
		case strings.HasPrefix(query[j:], ")"):
			return first, n, j + 1, true
		case strings.HasPrefix(query[j:], ", "):
			at = j + 2
		default:
			return 0, 0, 0, false
		}
	}
}

// allIntegers reports whether the arguments $first to $last are integers.
func allIntegers(args []driver.NamedValue, first, last int) bool {
	if first < 1 || last > len(args) {
		return false
	}
	for _, a := range args[first-1 : last] {
		if _, ok := a.Value.(int64); !ok {
			return false
		}
	}
	return true
}

// collapse replaces the arguments $first to $last with one array literal.
func collapse(args []driver.NamedValue, first, last int) []driver.NamedValue {
	var b strings.Builder
	b.WriteByte('{')
	for i, a := range args[first-1 : last] {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(a.Value.(int64), 10))
	}
	b.WriteByte('}')
	out := make([]driver.NamedValue, 0, len(args)-(last-first))
	out = append(out, args[:first-1]...)
	out = append(out, driver.NamedValue{Value: b.String()})
	out = append(out, args[last:]...)
	for i := range out {
		out[i].Ordinal = i + 1
	}
	return out
}

// renumber moves the placeholders after $last down to follow $first, the
// array that took the place of $first to $last.
func renumber(query string, first, last int) string {
	var b strings.Builder
	b.Grow(len(query))
	for i := 0; i < len(query); i++ {
		if query[i] != '$' {
			b.WriteByte(query[i])
			continue
		}
		n, j, err := placeholderAt(query, i)
		if err != nil || n <= last {
			b.WriteString(query[i:j])
		} else {
			b.WriteString("$" + strconv.Itoa(n-(last-first)))
		}
		i = j - 1
	}
	return b.String()
}

// placeholderAt reads the number of the placeholder whose '$' is at
// query[at], and returns it and the index past its digits (an error when
// no digits follow).
func placeholderAt(query string, at int) (n, end int, err error) {
	end = at + 1
	for end < len(query) && query[end] >= '0' && query[end] <= '9' {
		end++
	}
	n, err = strconv.Atoi(query[at+1 : end])
	return n, end, err
}
