package db

import (
	"database/sql/driver"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestInListsOfIntegersAreSentAsArrays(t *testing.T) {
	ints := func(vs ...any) []driver.NamedValue {
		out := make([]driver.NamedValue, len(vs))
		for i, v := range vs {
			out[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
		}
		return out
	}
	cases := []struct {
		name      string
		query     string
		args      []driver.NamedValue
		wantQuery string
		wantArgs  []driver.NamedValue
	}{
		{"an eager load", `SELECT * FROM "m" WHERE "m"."c" IN ($1, $2, $3)`, ints(int64(4), int64(5), int64(6)),
			`SELECT * FROM "m" WHERE "m"."c" = ANY($1)`, ints("{4,5,6}")},
		{"one id stays", `SELECT * FROM "m" WHERE "m"."id" IN ($1)`, ints(int64(7)),
			`SELECT * FROM "m" WHERE "m"."id" IN ($1)`, ints(int64(7))},
		{"arguments before and after", `UPDATE "s" SET "a" = $1 WHERE "s"."id" IN ($2, $3) AND "s"."b" = $4`,
			ints("x", int64(1), int64(2), true),
			`UPDATE "s" SET "a" = $1 WHERE "s"."id" = ANY($2) AND "s"."b" = $3`, ints("x", "{1,2}", true)},
		{"two lists", `SELECT 1 WHERE a IN ($1, $2) AND b IN ($3, $4, $5) AND c = $6`,
			ints(int64(1), int64(2), int64(3), int64(4), int64(5), int64(6)),
			`SELECT 1 WHERE a = ANY($1) AND b = ANY($2) AND c = $3`, ints("{1,2}", "{3,4,5}", int64(6))},
		{"placeholders before the list numbered after it", selectAfter(19, 6), intsUpTo(25),
			`SELECT $2, $3, $4, $5, $6, $7 WHERE a = ANY($1)`,
			ints("{1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19}", int64(20), int64(21), int64(22), int64(23), int64(24), int64(25))},
		{"placeholder ten and on", `SELECT 1 WHERE a IN ($1, $2) AND b = $10`,
			ints(int64(1), int64(2), 3, 4, 5, 6, 7, 8, 9, "ten"),
			`SELECT 1 WHERE a = ANY($1) AND b = $9`, ints("{1,2}", 3, 4, 5, 6, 7, 8, 9, "ten")},
		{"strings stay a list", `SELECT 1 WHERE s IN ($1, $2)`, ints("a", "b"),
			`SELECT 1 WHERE s IN ($1, $2)`, ints("a", "b")},
		{"NOT IN stays", `SELECT 1 WHERE a NOT IN ($1, $2)`, ints(int64(1), int64(2)),
			`SELECT 1 WHERE a NOT IN ($1, $2)`, ints(int64(1), int64(2))},
		{"a subquery stays", `SELECT 1 WHERE a IN (SELECT b FROM t WHERE c = $1)`, ints(int64(1)),
			`SELECT 1 WHERE a IN (SELECT b FROM t WHERE c = $1)`, ints(int64(1))},
		{"placeholders out of turn stay", `SELECT 1 WHERE a IN ($2, $1)`, ints(int64(1), int64(2)),
			`SELECT 1 WHERE a IN ($2, $1)`, ints(int64(1), int64(2))},
		{"a NULL among them stays", `SELECT 1 WHERE a IN ($1, $2)`, ints(int64(1), nil),
			`SELECT 1 WHERE a IN ($1, $2)`, ints(int64(1), nil)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, args := inArrays(tc.query, tc.args)
			if q != tc.wantQuery || !reflect.DeepEqual(args, tc.wantArgs) {
				t.Errorf("inArrays(%q, %v) = %q, %v; want %q, %v", tc.query, tc.args, q, args, tc.wantQuery, tc.wantArgs)
			}
		})
	}
}

// selectAfter writes a query whose list of n placeholders comes after
// before placeholders numbered past it: renumbered, they shorten the text
// ahead of the list.
func selectAfter(n, before int) string {
	sel := make([]string, before)
	for k := range sel {
		sel[k] = "$" + strconv.Itoa(n+1+k)
	}
	list := make([]string, n)
	for k := range list {
		list[k] = "$" + strconv.Itoa(k+1)
	}
	return "SELECT " + strings.Join(sel, ", ") + " WHERE a IN (" + strings.Join(list, ", ") + ")"
}

// intsUpTo is the arguments 1 to n.
func intsUpTo(n int) []driver.NamedValue {
	out := make([]driver.NamedValue, n)
	for i := range out {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: int64(i + 1)}
	}
	return out
}
