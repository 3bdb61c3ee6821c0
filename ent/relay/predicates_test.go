package relay_test

import (
	"fmt"
	"testing"
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/switchboard/switchboard/ent/relay"
)

// selected builds "SELECT * FROM contacts" on an engine with the predicates
// applied and returns its SQL and arguments.
func selected(engine string, predicates []func(*sql.Selector)) string {
	s := sql.Dialect(engine).Select("*").From(sql.Table("contacts"))
	for _, p := range predicates {
		p(s)
	}
	query, args := s.Query()
	return fmt.Sprintf("%s %v", query, args)
}

type cursorPair struct {
	ours   *relay.Cursor[int]
	theirs *entgql.Cursor[int]
}

func pair(id int, value ent.Value) cursorPair {
	return cursorPair{&relay.Cursor[int]{ID: id, Value: value}, &entgql.Cursor[int]{ID: id, Value: value}}
}

var noCursor = cursorPair{}

func TestCursorsPredicateMatchesEntgql(t *testing.T) {
	tests := []struct {
		name          string
		after, before cursorPair
	}{
		{"no cursors", noCursor, noCursor},
		{"after an id", pair(10, nil), noCursor},
		{"before an id", noCursor, pair(10, nil)},
		{"after a value", pair(10, "Ada"), noCursor},
		{"between values", pair(10, "Ada"), pair(20, "Zoe")},
	}
	for _, engine := range []string{dialect.SQLite, dialect.Postgres} {
		for _, tc := range tests {
			for _, dir := range []relay.OrderDirection{relay.OrderDirectionAsc, relay.OrderDirectionDesc} {
				t.Run(fmt.Sprintf("%s/%s/%s", engine, tc.name, dir), func(t *testing.T) {
					ours := relay.CursorsPredicate(tc.after.ours, tc.before.ours, "id", "name", dir)
					theirs := entgql.CursorsPredicate(tc.after.theirs, tc.before.theirs, "id", "name", entgql.OrderDirection(dir))
					if got, want := selected(engine, ours), selected(engine, theirs); got != want {
						t.Fatalf("SQL = %s\nentgql's = %s", got, want)
					}
				})
			}
		}
	}
}

func TestMultiCursorsPredicateMatchesEntgql(t *testing.T) {
	when := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name          string
		after, before cursorPair
		fields        []string
		directions    []relay.OrderDirection
	}{
		{"after an id", pair(10, nil), noCursor, []string{"name"}, []relay.OrderDirection{"ASC"}},
		{"one field", pair(10, []any{"Ada"}), noCursor, []string{"name"}, []relay.OrderDirection{"DESC"}},
		{"two fields, mixed", noCursor, pair(10, []any{"Ada", when}), []string{"name", "created_at"}, []relay.OrderDirection{"DESC", "ASC"}},
		{"the id among the fields", pair(10, []any{when, 10}), noCursor, []string{"created_at", "id"}, []relay.OrderDirection{"ASC", "DESC"}},
		{"both cursors", pair(10, []any{"Ada"}), pair(30, []any{"Zoe"}), []string{"name"}, []relay.OrderDirection{"ASC"}},
		{"value not a list", pair(10, "Ada"), noCursor, []string{"name"}, []relay.OrderDirection{"ASC"}},
		{"too few values", pair(10, []any{"Ada"}), noCursor, []string{"name", "email"}, []relay.OrderDirection{"ASC", "ASC"}},
		{"too few directions", pair(10, []any{"Ada", "a@b"}), noCursor, []string{"name", "email"}, []relay.OrderDirection{"ASC"}},
	}
	for _, engine := range []string{dialect.SQLite, dialect.Postgres} {
		for _, tc := range tests {
			t.Run(engine+"/"+tc.name, func(t *testing.T) {
				theirDirections := make([]entgql.OrderDirection, len(tc.directions))
				for i, d := range tc.directions {
					theirDirections[i] = entgql.OrderDirection(d)
				}
				ours, errOurs := relay.MultiCursorsPredicate(tc.after.ours, tc.before.ours, &relay.MultiCursorsOptions{
					FieldID: "id", DirectionID: relay.OrderDirectionAsc, Fields: tc.fields, Directions: tc.directions,
				})
				// entgql is asked one cursor at a time: given both, it grows the
				// options with the id for the first and then refuses the second.
				var theirs []func(*sql.Selector)
				var errTheirs error
				for _, c := range []*entgql.Cursor[int]{tc.after.theirs, tc.before.theirs} {
					if c == nil || errTheirs != nil {
						continue
					}
					var ps []func(*sql.Selector)
					ps, errTheirs = entgql.MultiCursorsPredicate(c, nil, &entgql.MultiCursorsOptions{
						FieldID: "id", DirectionID: entgql.OrderDirectionAsc,
						Fields: append([]string(nil), tc.fields...), Directions: append([]entgql.OrderDirection(nil), theirDirections...),
					})
					theirs = append(theirs, ps...)
				}
				if errTheirs != nil {
					theirs = nil
				}
				if fmt.Sprint(errOurs) != fmt.Sprint(errTheirs) {
					t.Fatalf("error = %v, entgql's = %v", errOurs, errTheirs)
				}
				if got, want := selected(engine, ours), selected(engine, theirs); got != want {
					t.Fatalf("SQL = %s\nentgql's = %s", got, want)
				}
			})
		}
	}
}

// TestMultiCursorsPredicateLeavesOptionsAlone: the caller's field list is not
// grown by the id the predicate adds.
func TestMultiCursorsPredicateLeavesOptionsAlone(t *testing.T) {
	fields := make([]string, 1, 4)
	fields[0] = "name"
	opts := &relay.MultiCursorsOptions{FieldID: "id", DirectionID: "ASC", Fields: fields, Directions: []relay.OrderDirection{"ASC"}}
	if _, err := relay.MultiCursorsPredicate(&relay.Cursor[int]{ID: 1, Value: []any{"Ada"}}, nil, opts); err != nil {
		t.Fatal(err)
	}
	if len(opts.Fields) != 1 || len(opts.Directions) != 1 || fields[:2][1] != "" {
		t.Fatalf("options changed: %v %v (backing array %v)", opts.Fields, opts.Directions, fields[:2])
	}
}

func TestLimitPerRowMatchesEntgql(t *testing.T) {
	for _, engine := range []string{dialect.SQLite, dialect.Postgres} {
		t.Run(engine, func(t *testing.T) {
			order := func() sql.Querier { return sql.ExprP("created_at DESC, id DESC") }
			ours := relay.LimitPerRow("conversation_id", 5, order())
			theirs := entgql.LimitPerRow("conversation_id", 5, order())
			build := func(modify func(*sql.Selector)) string {
				s := sql.Dialect(engine).Select("id", "conversation_id", "content").From(sql.Table("messages")).Distinct()
				s.Where(sql.InInts("conversation_id", 1, 2, 3))
				modify(s)
				query, args := s.Query()
				return fmt.Sprintf("%s %v", query, args)
			}
			if got, want := build(ours), build(theirs); got != want {
				t.Fatalf("SQL = %s\nentgql's = %s", got, want)
			}
		})
	}
}
